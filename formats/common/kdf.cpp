// SPEC 1 (HKDF, HMAC), 4 (Argon2id) and 5 (header and payload keys use HKDF).
#include "formats/common/kdf.hpp"

// SHA256_Init and its siblings are deprecated in OpenSSL 3 in favour of EVP_Digest*, whose
// provider dispatch costs more than the hash of a short message; they run the same code.
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/sha.h>
#include <sodium.h>

#include <algorithm>
#include <string>

#include "engine/error.hpp"

namespace warp::formats {

void ensure_sodium() {
    static const int status = sodium_init();
    if (status < 0) throw Error(ErrorCause::io, "libsodium failed to initialise");
}

void system_random(std::uint8_t* out, std::size_t len) {
    ensure_sodium();
    randombytes_buf(out, len);
}

// RFC 2104 over libcrypto's SHA-256, which uses the CPU's SHA instructions (x86 SHA-NI, ARMv8
// SHA2) where libsodium's is portable C: an HMAC of a short message takes 0.22 us rather than
// 1.03 (2026-12-06, Sapphire Rapids), and a small age file makes seven of them.
Mac hmac_sha256(std::span<const std::uint8_t> key,
                std::initializer_list<std::span<const std::uint8_t>> parts) {
    constexpr std::size_t kBlock = 64;
    std::array<std::uint8_t, kBlock> pad{};  // the key, hashed first when longer than a block
    if (key.size() > kBlock)
        SHA256(key.data(), key.size(), pad.data());
    else
        std::copy(key.begin(), key.end(), pad.begin());
    SHA256_CTX state;
    for (std::uint8_t& b : pad) b ^= 0x36;
    SHA256_Init(&state);
    SHA256_Update(&state, pad.data(), pad.size());
    for (std::span<const std::uint8_t> part : parts)
        if (!part.empty()) SHA256_Update(&state, part.data(), part.size());
    Mac inner;
    SHA256_Final(inner.data(), &state);
    for (std::uint8_t& b : pad) b ^= 0x36 ^ 0x5c;
    SHA256_Init(&state);
    SHA256_Update(&state, pad.data(), pad.size());
    SHA256_Update(&state, inner.data(), inner.size());
    Mac mac;
    SHA256_Final(mac.data(), &state);
    secure_wipe(&state, sizeof state);
    secure_wipe(pad.data(), pad.size());
    secure_wipe(inner.data(), inner.size());
    return mac;
}

void hkdf_sha256(std::span<const std::uint8_t> ikm, std::span<const std::uint8_t> salt,
                 std::span<const std::uint8_t> info, std::span<std::uint8_t> out) {
    constexpr std::size_t hash_len = 32;
    if (out.size() > 255 * hash_len)
        throw Error(ErrorCause::invalid_argument, "HKDF output longer than 255 blocks");
    const std::array<std::uint8_t, hash_len> zero_salt{};
    // Extract: PRK = HMAC(salt, IKM).
    Mac prk = hmac_sha256(salt.empty() ? std::span<const std::uint8_t>(zero_salt) : salt, {ikm});
    // Expand: T(i) = HMAC(PRK, T(i-1) || info || i), T(0) empty.
    Mac block{};
    std::size_t done = 0;
    for (std::uint8_t counter = 1; done < out.size(); ++counter) {
        const std::span<const std::uint8_t> previous(block.data(), counter == 1 ? 0 : hash_len);
        const std::uint8_t counter_byte[1] = {counter};
        block = hmac_sha256(prk, {previous, info, counter_byte});
        const std::size_t n = std::min(hash_len, out.size() - done);
        std::copy_n(block.begin(), n, out.begin() + static_cast<std::ptrdiff_t>(done));
        done += n;
    }
    secure_wipe(prk.data(), prk.size());
    secure_wipe(block.data(), block.size());
}

void argon2id(std::span<const std::uint8_t> passphrase,
              std::span<const std::uint8_t, kArgon2idSaltSize> salt, std::uint32_t passes,
              std::uint32_t memory_kib, std::span<std::uint8_t, kKeySize> out) {
    static_assert(kArgon2idSaltSize == crypto_pwhash_SALTBYTES);
    ensure_sodium();
    const unsigned long long opslimit = passes;
    const std::size_t memlimit = std::size_t{memory_kib} * 1024;
    // libsodium takes char*; the passphrase is bytes as typed (UTF-8).
    const int rc = crypto_pwhash(out.data(), out.size(),
                                 reinterpret_cast<const char*>(passphrase.data()),
                                 passphrase.size(), salt.data(), opslimit, memlimit,
                                 crypto_pwhash_ALG_ARGON2ID13);
    // The parameters were checked against SPEC 4's ranges before, so a failure is the
    // allocation: a resource error (exit 7 in the CLI), not a cap the user could raise.
    if (rc != 0)
        throw Error(ErrorCause::io,
                    "not enough memory for the passphrase KDF: Argon2id needs " +
                        std::to_string((memory_kib + 1023) / 1024) +
                        " MiB, and the system refused it (free memory, or raise the limit "
                        "that ulimit -v sets)");
}

}  // namespace warp::formats
