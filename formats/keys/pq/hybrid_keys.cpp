// age.md, "The MLKEM768-X25519 hybrid recipient type": the keys' encoding (hybrid_keys.hpp).
#include "formats/keys/pq/hybrid_keys.hpp"

#include <sodium.h>

#include <algorithm>
#include <optional>

#include "engine/error.hpp"
#include "formats/common/kdf.hpp"
#include "formats/keys/bech32.hpp"
#include "formats/keys/identity_file.hpp"

namespace warp::formats::pq {
namespace {

[[noreturn]] void refuse(const std::string& what) { throw Error(ErrorCause::usage, what); }

}  // namespace

HybridPublicKey hybrid_public_key(const SecretBytes& seed) {
    if (seed.size() != kHybridSeedSize)
        throw Error(ErrorCause::invalid_argument, "an ML-KEM-768 + X25519 seed is 32 bytes");
    return hybrid_expand(seed.span().first<kHybridSeedSize>()).public_key;
}

HybridIdentity generate_hybrid_identity() {
    ensure_sodium();
    HybridIdentity identity;
    identity.seed = SecretBytes(kHybridSeedSize);
    randombytes_buf(identity.seed.data(), identity.seed.size());
    identity.public_key = hybrid_public_key(identity.seed);
    return identity;
}

std::string encode_hybrid_recipient(const HybridPublicKey& public_key) {
    return bech32::encode(kHybridRecipientHrp, public_key);
}

std::string encode_hybrid_identity(const SecretBytes& seed) {
    if (seed.size() != kHybridSeedSize)
        throw Error(ErrorCause::invalid_argument, "an ML-KEM-768 + X25519 seed is 32 bytes");
    return bech32::encode(kHybridIdentityHrp, seed.span(), bech32::Case::upper);
}

HybridPublicKey decode_hybrid_recipient(std::string_view text) {
    std::string why;
    const std::optional<SecretBytes> key =
        bech32::decode_key(text, kHybridRecipientHrp, kHybridPublicKeySize, why);
    if (!key) refuse("not a post-quantum age recipient (age1pq1...): " + why);
    if (std::string problem = hybrid_public_key_problem(key->span()); !problem.empty())
        refuse("not a post-quantum age recipient: " + problem);
    HybridPublicKey public_key{};
    std::copy(key->span().begin(), key->span().end(), public_key.begin());
    return public_key;
}

SecretBytes decode_hybrid_identity(std::string_view text) {
    std::string why;
    std::optional<SecretBytes> seed = bech32::decode_key(text, kHybridIdentityHrp, kHybridSeedSize, why);
    if (!seed) refuse("not a post-quantum age identity (AGE-SECRET-KEY-PQ-1...): " + why);
    return std::move(*seed);
}

std::string hybrid_identity_file_text(const HybridIdentity& identity, std::string_view created) {
    std::string secret = encode_hybrid_identity(identity.seed);
    return identity_file_text(created, encode_hybrid_recipient(identity.public_key), secret);
}

}  // namespace warp::formats::pq
