// bcrypt_pbkdf (bcrypt_pbkdf.hpp), after OpenBSD's bcrypt_pbkdf.c.
#include "formats/keys/bcrypt_pbkdf.hpp"

#include <sodium.h>

#include <algorithm>
#include <array>
#include <string_view>

#include "engine/secure_memory.hpp"
#include "formats/common/kdf.hpp"
#include "formats/keys/blowfish.hpp"

namespace warp::formats {
namespace {

constexpr std::size_t kHashWords = 8;
constexpr std::size_t kHashSize = 4 * kHashWords;  // 32
constexpr std::string_view kMagic = "OxychromaticBlowfishSwatDynamite";
static_assert(kMagic.size() == kHashSize);

using Sha512 = std::array<std::uint8_t, crypto_hash_sha512_BYTES>;

void sha512(std::initializer_list<std::span<const std::uint8_t>> parts, Sha512& out) {
    crypto_hash_sha512_state state;
    crypto_hash_sha512_init(&state);
    for (std::span<const std::uint8_t> part : parts)
        if (!part.empty()) crypto_hash_sha512_update(&state, part.data(), part.size());
    crypto_hash_sha512_final(&state, out.data());
    secure_wipe(&state, sizeof state);
}

// bcrypt's hash of the hashed passphrase and salt: 32 bytes.
void bcrypt_hash(const Sha512& pass, const Sha512& salt, std::span<std::uint8_t, kHashSize> out) {
    blowfish::State state;
    blowfish::expand_state(state, salt, pass);
    for (int i = 0; i < 64; ++i) {
        blowfish::expand0_state(state, salt);
        blowfish::expand0_state(state, pass);
    }
    std::array<std::uint32_t, kHashWords> data{};
    for (std::size_t i = 0; i < kHashWords; ++i)
        for (std::size_t b = 0; b < 4; ++b)
            data[i] = (data[i] << 8) | static_cast<std::uint8_t>(kMagic[4 * i + b]);
    for (int i = 0; i < 64; ++i)
        for (std::size_t w = 0; w < kHashWords; w += 2) blowfish::encipher(state, data[w], data[w + 1]);
    for (std::size_t i = 0; i < kHashWords; ++i)  // little-endian words out
        for (std::size_t b = 0; b < 4; ++b) out[4 * i + b] = static_cast<std::uint8_t>(data[i] >> (8 * b));
    secure_wipe(data.data(), sizeof data);
}

}  // namespace

void bcrypt_pbkdf(std::span<const std::uint8_t> passphrase, std::span<const std::uint8_t> salt,
                  unsigned rounds, std::span<std::uint8_t> key) {
    ensure_sodium();
    const std::size_t stride = (key.size() + kHashSize - 1) / kHashSize;
    const std::size_t amount = (key.size() + stride - 1) / stride;
    Sha512 pass{}, salt_hash{};
    sha512({passphrase}, pass);
    std::array<std::uint8_t, kHashSize> out{}, block{};
    std::size_t left = key.size();
    for (std::uint32_t count = 1; left > 0; ++count) {
        const std::array<std::uint8_t, 4> count_bytes = {
            static_cast<std::uint8_t>(count >> 24), static_cast<std::uint8_t>(count >> 16),
            static_cast<std::uint8_t>(count >> 8), static_cast<std::uint8_t>(count)};
        sha512({salt, count_bytes}, salt_hash);
        bcrypt_hash(pass, salt_hash, block);
        out = block;
        for (unsigned round = 1; round < rounds; ++round) {
            sha512({block}, salt_hash);
            bcrypt_hash(pass, salt_hash, block);
            for (std::size_t j = 0; j < out.size(); ++j) out[j] ^= block[j];
        }
        // Not PBKDF2's concatenation: the bytes are spread across the key, stride apart.
        std::size_t i = 0;
        for (; i < std::min(amount, left); ++i) {
            const std::size_t at = i * stride + (count - 1);
            if (at >= key.size()) break;
            key[at] = out[i];
        }
        left -= i;
    }
    secure_wipe(pass.data(), pass.size());
    secure_wipe(salt_hash.data(), salt_hash.size());
    secure_wipe(out.data(), out.size());
    secure_wipe(block.data(), block.size());
}

}  // namespace warp::formats
