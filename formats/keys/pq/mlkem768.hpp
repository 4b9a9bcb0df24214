// ML-KEM-768 (FIPS 203), the post-quantum half of the hybrid recipient (mlkem768x25519.hpp).
// The whole interface the rest of warpcrypt sees: byte strings in, byte strings out, sized as
// FIPS 203 sizes them, so that a library's ML-KEM (libsodium >= 1.0.22, OpenSSL >= 3.5) can
// replace mlkem768.cpp behind it.
//
// Constant time in every secret (the seed, s, the message, the shared key): no branch, memory
// index or early-exit comparison depends on one; implicit rejection picks its key with a mask.
// Only public data is branched on: the encapsulation key (its modulus check, its matrix
// sampling) and the lengths. tests/ct runs key generation, encapsulation and decapsulation
// under valgrind with the secrets marked undefined.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "engine/secure_memory.hpp"

namespace warp::formats::pq::mlkem768 {

inline constexpr std::size_t kSeedSize = 64;                 // d || z (KeyGen_internal)
inline constexpr std::size_t kEncapsulationKeySize = 1184;   // ek
inline constexpr std::size_t kDecapsulationKeySize = 2400;   // dk: dk_PKE || ek || H(ek) || z
inline constexpr std::size_t kCiphertextSize = 1088;         // c
inline constexpr std::size_t kSharedKeySize = 32;            // K
inline constexpr std::size_t kMessageSize = 32;              // m, Encaps_internal's randomness

using EncapsulationKey = std::array<std::uint8_t, kEncapsulationKeySize>;
using Ciphertext = std::array<std::uint8_t, kCiphertextSize>;

// A shared key (or other 32-byte secret) that wipes itself.
struct SharedKey {
    std::array<std::uint8_t, kSharedKeySize> bytes{};
    SharedKey() = default;
    SharedKey(const SharedKey&) = delete;
    SharedKey& operator=(const SharedKey&) = delete;
    ~SharedKey() { secure_wipe(bytes.data(), bytes.size()); }
};

// FIPS 203 Algorithm 16, ML-KEM.KeyGen_internal(d, z): the encapsulation key and the
// decapsulation key (in locked memory) from a 64-byte seed d || z.
struct KeyPair {
    EncapsulationKey encapsulation_key{};
    SecretBytes decapsulation_key;  // kDecapsulationKeySize bytes
};
KeyPair generate_key_pair(std::span<const std::uint8_t, kSeedSize> seed);

// Key generation from (rho, sigma) already expanded, and z: what generate_key_pair does after
// (rho, sigma) = G(d || k). For tests only: C2SP/CCTV's unlucky-sampling vector and its
// accumulated pq-crystals hash were made with FIPS 203's draft expansion G(d), the one line in
// which the draft's key generation differs from the standard's.
KeyPair generate_key_pair_expanded(std::span<const std::uint8_t, 64> rho_sigma,
                                   std::span<const std::uint8_t, 32> z);

// FIPS 203 section 7.2, the encapsulation key check: its size, and every coefficient below q
// (ByteEncode12(ByteDecode12(ek)) == ek). Public data.
bool encapsulation_key_valid(std::span<const std::uint8_t> ek);
// FIPS 203 section 7.3, the decapsulation key check: its size, and the H(ek) it stores is the
// hash of the ek it stores.
bool decapsulation_key_valid(std::span<const std::uint8_t> dk);

// FIPS 203 Algorithm 17, ML-KEM.Encaps_internal(ek, m): the ciphertext and shared key for the
// 32 random bytes m; false (nothing written) when ek fails the check above.
bool encapsulate(std::span<const std::uint8_t> ek, std::span<const std::uint8_t, kMessageSize> m,
                 Ciphertext& c, SharedKey& key);

// FIPS 203 Algorithm 18, ML-KEM.Decaps_internal(dk, c): the shared key, or the implicit
// rejection key J(z || c) when c is not what re-encryption gives (chosen without a branch);
// false (nothing written) when dk fails its check or c is not kCiphertextSize bytes.
bool decapsulate(std::span<const std::uint8_t> dk, std::span<const std::uint8_t> c,
                 SharedKey& key);

// decapsulate for a dk that passed decapsulation_key_valid once, or that generate_key_pair
// made (whose H(ek) is the hash of its ek by construction): FIPS 203 section 7.3's check is
// an input check on a dk from outside, so a reader holding such a dk for a whole run need not
// hash its 1184-byte ek again for every ciphertext it tries. Only the sizes are checked.
bool decapsulate_checked_key(std::span<const std::uint8_t> dk, std::span<const std::uint8_t> c,
                             SharedKey& key);

}  // namespace warp::formats::pq::mlkem768
