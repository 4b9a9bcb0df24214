// SPEC 8: key files.
#include <sodium.h>

#include <array>
#include <optional>
#include <string>

#include "engine/error.hpp"
#include "formats/container.hpp"
#include "formats/kdf.hpp"

namespace warp::formats {
namespace {

[[noreturn]] void malformed(const std::string& why) {
    throw Error(ErrorCause::usage, "malformed key file: " + why);
}

std::string_view trim_line_end(std::string_view line) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t'))
        line.remove_suffix(1);
    return line;
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
    std::size_t line_number = 0;
    while (!text.empty()) {
        const std::size_t end = text.find('\n');
        std::string_view line = trim_line_end(text.substr(0, end));
        text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
        ++line_number;
        if (line.empty() || line.front() == '#') continue;
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
    }
    if (!secret) malformed("no \"" + std::string(kKeyFilePrefix) + "\" line");
    return std::move(*secret);
}

}  // namespace warp::formats
