// age's X25519 keys (age.md, "The X25519 recipient type") as a key kind of both formats: the
// text forms are x25519.cpp's, the exchange x25519_exchange.cpp's.
#include "formats/keys/key_kind.hpp"
#include "formats/keys/x25519.hpp"
#include "formats/keys/x25519_exchange.hpp"

namespace warp::formats {
namespace {

Secret recipient_secret(std::span<const std::uint8_t> bytes) {
    Secret secret;
    secret.type = KeyType::x25519;
    secret.bytes = SecretBytes(bytes);
    return secret;
}

Secret decode_x25519_recipient(std::string_view text) {
    return recipient_secret(decode_recipient(text));
}

Secret decode_x25519_identity(std::string_view text) {
    Secret secret;
    secret.type = KeyType::x25519;
    secret.bytes = decode_identity(text).secret;
    return secret;
}

std::string recipient_of(const Secret& identity) {
    return encode_recipient(x25519_public_key(identity.bytes));
}

}  // namespace

const KeyKind kX25519Key{
    .type = KeyType::x25519,
    .name = "x25519",
    .secret = "X25519 identity",
    .post_quantum = false,
    .recipient_hrp = kRecipientHrp,
    .identity_hrp = kIdentityHrp,
    .decode_recipient = decode_x25519_recipient,
    .decode_identity = decode_x25519_identity,
    .recipient_of = recipient_of,
    .recipient_problem = x25519_recipient_problem,
};

}  // namespace warp::formats
