// age.md, "scrypt recipient stanza": "-> scrypt <salt> <log2 N>", body = ChaCha20-Poly1305
// under scrypt(N, r = 8, p = 1, S = "age-encryption.org/v1/scrypt" || salt, P = passphrase)
// of the file key. MUST be alone in its header. scrypt from libsodium.
#include <sodium.h>

#include <algorithm>
#include <bit>
#include <string>

#include "engine/error.hpp"
#include "formats/age/base64.hpp"
#include "formats/age/stanza_kind.hpp"
#include "formats/common/kdf.hpp"

namespace warp::formats::age {
namespace {

// "a decimal number composed of only digits with no leading zeroes" (^[1-9][0-9]*$), and at
// most kMaxScryptLog2N; nullopt otherwise.
std::optional<unsigned> work_factor(const std::string& arg) {
    if (arg.empty() || arg.size() > 2 || arg[0] < '1' || arg[0] > '9') return std::nullopt;
    if (!std::all_of(arg.begin(), arg.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return std::nullopt;
    const unsigned value = static_cast<unsigned>(std::stoul(arg));
    if (value > kMaxScryptLog2N) return std::nullopt;
    return value;
}

std::string problem(const Stanza& stanza) {
    if (stanza.args.size() != 3)
        return "an scrypt stanza has 3 arguments, not " + std::to_string(stanza.args.size());
    if (!argument_bytes(stanza.args[1], kScryptSaltSize))
        return "an scrypt stanza's salt is not canonical base64 of 16 bytes";
    if (!work_factor(stanza.args[2]))
        return "an scrypt stanza's work factor is not a decimal number from 1 to " +
               std::to_string(kMaxScryptLog2N) + " without leading zeros";
    if (stanza.body.size() != kWrappedFileKeySize)
        return "an scrypt stanza's body is " + std::to_string(stanza.body.size()) +
               " bytes, not 32";
    return "";
}

std::optional<std::uint64_t> kdf_memory_kib(const Stanza& stanza) {
    const std::optional<unsigned> log2_n =
        stanza.args.size() == 3 ? work_factor(stanza.args[2]) : std::nullopt;
    if (!log2_n) return std::nullopt;  // malformed: problem() says so
    return scrypt_memory_kib(*log2_n);
}

void derive_wrap_key(const Secret& passphrase, std::span<const std::uint8_t> salt,
                     unsigned log2_n, WipedKey& wrap_key) {
    std::string full_salt(kScryptLabel);
    full_salt.append(reinterpret_cast<const char*>(salt.data()), salt.size());
    ensure_sodium();
    if (crypto_pwhash_scryptsalsa208sha256_ll(
            passphrase.bytes.data(), passphrase.bytes.size(),
            reinterpret_cast<const std::uint8_t*>(full_salt.data()), full_salt.size(),
            std::uint64_t{1} << log2_n, kScryptR, kScryptP, wrap_key.data(), kKeySize) != 0)
        throw Error(ErrorCause::io, "not enough memory for the passphrase KDF: scrypt needs " +
                                        std::to_string(scrypt_memory_kib(log2_n) / 1024) + " MiB");
}

Stanza wrap(const Secret& recipient, const FileKey& file_key, const RandomFn& random) {
    std::array<std::uint8_t, kScryptSaltSize> salt{};
    random(salt.data(), salt.size());
    // N is the memory in KiB (scrypt's 128 * r * N bytes at r = 8): a power of two, checked by
    // encrypt's options.
    const unsigned log2_n = static_cast<unsigned>(std::bit_width(recipient.kdf.memory_kib)) - 1;
    WipedKey wrap_key;
    derive_wrap_key(recipient, salt, log2_n, wrap_key);
    const auto body = seal_file_key(wrap_key.span(), file_key);
    return Stanza{{std::string(kScryptTag), base64_encode(salt, false), std::to_string(log2_n)},
                  std::vector<std::uint8_t>(body.begin(), body.end())};
}

Unwrapped unwrap(const Stanza& stanza, const Secret& identity, FileKey& file_key) {
    const std::vector<std::uint8_t> salt = *argument_bytes(stanza.args[1], kScryptSaltSize);
    WipedKey wrap_key;
    derive_wrap_key(identity, salt, *work_factor(stanza.args[2]), wrap_key);
    return open_file_key(wrap_key.span(), stanza.body, file_key) ? Unwrapped::opened
                                                                  : Unwrapped::no_match;
}

}  // namespace

const StanzaKind kScryptStanza{
    .tag = kScryptTag,
    .key_type = KeyType::passphrase,
    .secret = "passphrase",
    .alone = true,
    .problem = problem,
    .kdf_memory_kib = kdf_memory_kib,
    .wrap = wrap,
    .unwrap = unwrap,
};

}  // namespace warp::formats::age
