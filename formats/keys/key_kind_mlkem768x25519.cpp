// age's post-quantum keys (age.md, "The MLKEM768-X25519 hybrid recipient type") as a key kind
// of both formats: the text forms are pq/hybrid_keys.cpp's, the KEM pq/mlkem768x25519.cpp's.
// A recipient's Secret holds the 1216-byte public key, an identity's the 32-byte seed.
#include "formats/keys/key_kind.hpp"
#include "formats/keys/pq/hybrid_keys.hpp"

namespace warp::formats {
namespace {

Secret decode_hybrid_recipient(std::string_view text) {
    Secret secret;
    secret.type = KeyType::mlkem768x25519;
    secret.bytes = SecretBytes(pq::decode_hybrid_recipient(text));
    return secret;
}

Secret decode_hybrid_identity(std::string_view text) {
    Secret secret;
    secret.type = KeyType::mlkem768x25519;
    secret.bytes = pq::decode_hybrid_identity(text);
    return secret;
}

std::string recipient_of(const Secret& identity) {
    return pq::encode_hybrid_recipient(pq::hybrid_public_key(identity.bytes));
}

std::string recipient_problem(const Secret& recipient) {
    return pq::hybrid_public_key_problem(recipient.bytes.span());
}

}  // namespace

const KeyKind kHybridKey{
    .type = KeyType::mlkem768x25519,
    .name = "mlkem768x25519",
    .secret = "post-quantum identity",
    .post_quantum = true,
    .recipient_hrp = pq::kHybridRecipientHrp,
    .identity_hrp = pq::kHybridIdentityHrp,
    .decode_recipient = decode_hybrid_recipient,
    .decode_identity = decode_hybrid_identity,
    .recipient_of = recipient_of,
    .recipient_problem = recipient_problem,
};

}  // namespace warp::formats
