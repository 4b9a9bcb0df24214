// Key files (warp SPEC section 8; key_file.hpp).
#include "formats/keys/key_file.hpp"

#include <sodium.h>

#include <array>
#include <optional>
#include <string>

#include "engine/error.hpp"
#include "formats/common/kdf.hpp"
#include "formats/common/text_lines.hpp"

namespace warp::formats {
namespace {

[[noreturn]] void malformed(const std::string& why) {
    throw Error(ErrorCause::usage, "malformed key file: " + why);
}

}  // namespace

SecretBytes generate_key_secret() {
    ensure_sodium();
    SecretBytes secret(kKeyFileSecretSize);
    randombytes_buf(secret.data(), secret.size());
    return secret;
}

std::string encode_key_file(const SecretBytes& secret) {
    if (secret.size() != kKeyFileSecretSize)
        throw Error(ErrorCause::invalid_argument, "a key-file secret is 32 bytes");
    // libsodium's hex codec runs in constant time: the digits are the secret.
    std::array<char, 2 * kKeyFileSecretSize + 1> hex{};
    sodium_bin2hex(hex.data(), hex.size(), secret.data(), secret.size());
    // Sized once: a string that grew would free its old buffer, digits and all, unwiped.
    std::string text;
    text.reserve(kKeyFilePrefix.size() + 2 * kKeyFileSecretSize + 1);
    text.append(kKeyFilePrefix);
    text.append(hex.data(), 2 * kKeyFileSecretSize);
    secure_wipe(hex.data(), hex.size());
    text += '\n';
    return text;
}

SecretBytes decode_key_file(std::string_view text) {
    std::optional<SecretBytes> secret;
    for_each_entry(text, Indent::kept, [&](std::string_view line, std::size_t line_number) {
        const std::string where = "line " + std::to_string(line_number);
        if (!line.starts_with(kKeyFilePrefix))
            malformed(where + " does not start with \"" + std::string(kKeyFilePrefix) + "\"");
        if (secret) malformed(where + " is a second key");
        line.remove_prefix(kKeyFilePrefix.size());
        if (line.size() != 2 * kKeyFileSecretSize)
            malformed(where + " has " + std::to_string(line.size()) + " hex digits, not 64");
        SecretBytes bytes(kKeyFileSecretSize);
        std::size_t decoded = 0;
        if (sodium_hex2bin(bytes.data(), bytes.size(), line.data(), line.size(), nullptr,
                           &decoded, nullptr) != 0 ||
            decoded != kKeyFileSecretSize)
            malformed(where + " holds a character that is not a hex digit");
        secret = std::move(bytes);
    });
    if (!secret) malformed("no \"" + std::string(kKeyFilePrefix) + "\" line");
    return std::move(*secret);
}

}  // namespace warp::formats
