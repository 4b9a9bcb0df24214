// The MLKEM768-X25519 hybrid KEM (mlkem768x25519.hpp), as hpke-pq.md writes it.
#include "formats/keys/pq/mlkem768x25519.hpp"

#include <sodium.h>

#include <algorithm>

#include "formats/common/kdf.hpp"
#include "formats/keys/pq/sha3.hpp"
#include "formats/keys/x25519.hpp"
#include "formats/keys/x25519_base.hpp"
#include "formats/keys/x25519_exchange.hpp"

namespace warp::formats::pq {
namespace {

// The X-Wing combiner's label, "\.//^\".
constexpr std::array<std::uint8_t, 6> kLabel = {0x5c, 0x2e, 0x2f, 0x2f, 0x5e, 0x5c};
constexpr std::size_t kPqKeySize = mlkem768::kEncapsulationKeySize;
constexpr std::size_t kPqCtSize = mlkem768::kCiphertextSize;

// ss = SHA3-256(ss_PQ || ss_X || ct_X || pk_X || label).
void combine(const mlkem768::SharedKey& pq, std::span<const std::uint8_t, 32> x25519_shared,
             std::span<const std::uint8_t, 32> ct_x, std::span<const std::uint8_t, 32> pk_x,
             HybridShared& shared) {
    shared.bytes = sha3_256({pq.bytes, x25519_shared, ct_x, pk_x, kLabel});
}

}  // namespace

HybridKeyPair hybrid_expand(std::span<const std::uint8_t, kHybridSeedSize> seed) {
    SecretBytes expanded(mlkem768::kSeedSize + 32);
    shake256({seed}, std::span<std::uint8_t>(expanded.data(), expanded.size()));
    HybridKeyPair key;
    key.mlkem = mlkem768::generate_key_pair(expanded.span().first<mlkem768::kSeedSize>());
    key.x25519_secret = SecretBytes(expanded.span().subspan(mlkem768::kSeedSize, 32));
    X25519PublicKey pk_x = x25519_public_key(key.x25519_secret);
    declassify(pk_x.data(), pk_x.size());  // public by definition
    std::copy(key.mlkem.encapsulation_key.begin(), key.mlkem.encapsulation_key.end(),
              key.public_key.begin());
    std::copy(pk_x.begin(), pk_x.end(), key.public_key.begin() + kPqKeySize);
    return key;
}

std::string hybrid_public_key_problem(std::span<const std::uint8_t> public_key) {
    if (public_key.size() != kHybridPublicKeySize)
        return "an ML-KEM-768 + X25519 recipient is " + std::to_string(kHybridPublicKeySize) +
               " bytes, not " + std::to_string(public_key.size());
    if (!mlkem768::encapsulation_key_valid(public_key.first(kPqKeySize)))
        return "its ML-KEM-768 key fails FIPS 203's modulus check (a coefficient is not below "
               "q = 3329), so no ML-KEM key pair has it";
    Secret x25519;
    x25519.type = KeyType::x25519;
    x25519.bytes = SecretBytes(public_key.subspan(kPqKeySize, 32));
    const std::string problem = x25519_recipient_problem(x25519);
    return problem.empty() ? "" : "its X25519 half: " + problem;
}

bool hybrid_encapsulate(const HybridPublicKey& public_key,
                        std::span<const std::uint8_t, kHybridRandomSize> randomness,
                        HybridEnc& enc, HybridShared& shared) {
    const std::span<const std::uint8_t, 32> pk_x = std::span(public_key).last<32>();
    mlkem768::Ciphertext ct_pq{};
    mlkem768::SharedKey ss_pq;
    if (!mlkem768::encapsulate(std::span(public_key).first(kPqKeySize),
                               randomness.first<mlkem768::kMessageSize>(), ct_pq, ss_pq))
        return false;
    const std::span<const std::uint8_t, 32> ephemeral = randomness.last<32>();
    X25519PublicKey ct_x{};
    x25519_base(ephemeral, ct_x);
    X25519Secret ss_x;
    if (!x25519_shared_secret(ephemeral, x25519_key_of(pk_x), ss_x.bytes)) return false;
    combine(ss_pq, ss_x.bytes, ct_x, pk_x, shared);
    std::copy(ct_pq.begin(), ct_pq.end(), enc.begin());
    std::copy(ct_x.begin(), ct_x.end(), enc.begin() + kPqCtSize);
    return true;
}

bool hybrid_decapsulate(const HybridKeyPair& key, std::span<const std::uint8_t> enc,
                        HybridShared& shared) {
    if (enc.size() != kHybridEncSize) return false;
    const std::span<const std::uint8_t, 32> ct_x = enc.subspan<kPqCtSize, 32>();
    X25519Secret ss_x;
    if (!x25519_shared_secret(key.x25519_secret.span().first<32>(), x25519_key_of(ct_x), ss_x.bytes))
        return false;
    mlkem768::SharedKey ss_pq;
    // The key came from hybrid_expand (generate_key_pair): its H(ek) is right by construction.
    if (!mlkem768::decapsulate_checked_key(key.mlkem.decapsulation_key.span(),
                                           enc.first(kPqCtSize), ss_pq))
        return false;  // never: the key and the size are right
    combine(ss_pq, ss_x.bytes, ct_x, std::span(key.public_key).last<32>(), shared);
    return true;
}

}  // namespace warp::formats::pq
