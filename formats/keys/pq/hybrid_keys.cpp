// age.md, "The MLKEM768-X25519 hybrid recipient type": the keys' encoding (hybrid_keys.hpp).
#include "formats/keys/pq/hybrid_keys.hpp"

#include <sodium.h>

#include <algorithm>
#include <optional>

#include "engine/error.hpp"
#include "formats/common/kdf.hpp"
#include "formats/keys/bech32.hpp"

namespace warp::formats::pq {
namespace {

[[noreturn]] void refuse(const std::string& what) { throw Error(ErrorCause::usage, what); }

// The bytes under `hrp`, `size` of them, or the reason they are not.
std::optional<SecretBytes> decode_key(std::string_view text, std::string_view hrp,
                                      std::size_t size, std::string& why) {
    std::optional<bech32::Decoded> decoded = bech32::decode(text, why);
    if (!decoded) return std::nullopt;
    if (decoded->hrp != hrp) {  // not quoted: a line of another key format may be a secret
        why = "it does not start with \"" + std::string(hrp) + "1\"";
        return std::nullopt;
    }
    if (decoded->bytes.size() != size) {
        why = "it holds " + std::to_string(decoded->bytes.size()) + " bytes, not " +
              std::to_string(size);
        return std::nullopt;
    }
    return std::move(decoded->bytes);
}

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
        decode_key(text, kHybridRecipientHrp, kHybridPublicKeySize, why);
    if (!key) refuse("not a post-quantum age recipient (age1pq1...): " + why);
    if (std::string problem = hybrid_public_key_problem(key->span()); !problem.empty())
        refuse("not a post-quantum age recipient: " + problem);
    HybridPublicKey public_key{};
    std::copy(key->span().begin(), key->span().end(), public_key.begin());
    return public_key;
}

SecretBytes decode_hybrid_identity(std::string_view text) {
    std::string why;
    std::optional<SecretBytes> seed = decode_key(text, kHybridIdentityHrp, kHybridSeedSize, why);
    if (!seed) refuse("not a post-quantum age identity (AGE-SECRET-KEY-PQ-1...): " + why);
    return std::move(*seed);
}

std::string hybrid_identity_file_text(const HybridIdentity& identity, std::string_view created) {
    std::string secret = encode_hybrid_identity(identity.seed);
    const std::string head = "# created: " + std::string(created) + "\n# public key: " +
                             encode_hybrid_recipient(identity.public_key) + "\n";
    // Sized once: a string that grew would free its old buffer, secret and all, unwiped.
    std::string text;
    text.reserve(head.size() + secret.size() + 1);
    text.append(head);
    text.append(secret);
    text += '\n';
    sodium_memzero(secret.data(), secret.size());
    return text;
}

}  // namespace warp::formats::pq
