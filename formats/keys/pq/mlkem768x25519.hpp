// The MLKEM768-X25519 hybrid KEM (FiloSottile/hpke hpke-pq.md; draft-ietf-hpke-pq, the X-Wing
// combiner), the KEM of age's post-quantum recipient (C2SP age.md, "The MLKEM768-X25519 hybrid
// recipient type") and of warp's hybrid slot (formats/warp/SPEC.md). Secure while either half
// is: a file sealed to it stays closed to whoever breaks X25519 with a quantum computer later.
//
//   private key  a 32-byte seed; SHAKE256(seed, 96) = ML-KEM's d || z (64) || X25519 secret (32)
//   public key   ek_PQ (1184) || pk_X (32) = 1216 bytes
//   enc          ct_PQ (1088) || ct_X (32) = 1120 bytes
//   shared       SHA3-256(ss_PQ || ss_X || ct_X || pk_X || "\.//^\")
//
// An all-zero X25519 result (a share or a key of low order) is refused on both sides, as age
// refuses it. Constant time in the secrets as its halves are (mlkem768.hpp; libsodium's X25519).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "engine/secure_memory.hpp"
#include "formats/keys/pq/mlkem768.hpp"

namespace warp::formats::pq {

inline constexpr std::size_t kHybridSeedSize = 32;
inline constexpr std::size_t kHybridPublicKeySize = mlkem768::kEncapsulationKeySize + 32;  // 1216
inline constexpr std::size_t kHybridEncSize = mlkem768::kCiphertextSize + 32;              // 1120
inline constexpr std::size_t kHybridSharedSize = 32;
inline constexpr std::size_t kHybridRandomSize = mlkem768::kMessageSize + 32;  // m, then the X25519 ephemeral
inline constexpr std::uint16_t kHybridKemId = 0x647a;  // HPKE's KEM identifier

using HybridPublicKey = std::array<std::uint8_t, kHybridPublicKeySize>;
using HybridEnc = std::array<std::uint8_t, kHybridEncSize>;
using HybridShared = mlkem768::SharedKey;

// The private key, expanded from its seed (hpke-pq.md, expandKey) once per use.
struct HybridKeyPair {
    mlkem768::KeyPair mlkem;
    SecretBytes x25519_secret;  // 32 bytes
    HybridPublicKey public_key{};
};
HybridKeyPair hybrid_expand(std::span<const std::uint8_t, kHybridSeedSize> seed);

// Why no file can be sealed to `public_key`, or empty: its size; the ML-KEM half failing FIPS
// 203's modulus check; the X25519 half not canonical (no seed gives it: the file would open for
// no one) or of low order.
std::string hybrid_public_key_problem(std::span<const std::uint8_t> public_key);

// EncapsDerand(ek, randomness): enc and the shared secret; false when the X25519 result is all
// zero (a public key with no problem above never gives it).
bool hybrid_encapsulate(const HybridPublicKey& public_key,
                        std::span<const std::uint8_t, kHybridRandomSize> randomness,
                        HybridEnc& enc, HybridShared& shared);

// Decaps(seed, enc): false when enc is not 1120 bytes or its X25519 share gives the all-zero
// result. A wrong key gives a shared secret all the same (ML-KEM's implicit rejection): the
// AEAD that follows tells.
bool hybrid_decapsulate(const HybridKeyPair& key, std::span<const std::uint8_t> enc,
                        HybridShared& shared);

}  // namespace warp::formats::pq
