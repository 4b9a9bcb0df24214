// age.md, "The X25519 recipient type": the keys' encoding, for both formats (the exchange is
// x25519_exchange.cpp).
#include "formats/keys/x25519.hpp"

#include <sodium.h>

#include <optional>

#include "engine/error.hpp"
#include "formats/keys/bech32.hpp"
#include "formats/keys/identity_file.hpp"
#include "formats/keys/x25519_base.hpp"
#include "formats/common/kdf.hpp"

namespace warp::formats {
namespace {

[[noreturn]] void refuse(const std::string& what) { throw Error(ErrorCause::usage, what); }

}  // namespace

X25519PublicKey x25519_public_key(const SecretBytes& secret) {
    if (secret.size() != kX25519KeySize)
        throw Error(ErrorCause::invalid_argument, "an X25519 secret is 32 bytes");
    X25519PublicKey public_key{};
    x25519_base(secret.span().first<kX25519KeySize>(), public_key);
    return public_key;
}

X25519Identity generate_x25519_identity() {
    ensure_sodium();
    X25519Identity identity;
    identity.secret = SecretBytes(kX25519KeySize);
    randombytes_buf(identity.secret.data(), identity.secret.size());
    identity.public_key = x25519_public_key(identity.secret);
    return identity;
}

std::string encode_recipient(const X25519PublicKey& public_key) {
    return bech32::encode(kRecipientHrp, public_key);
}

std::string encode_identity(const SecretBytes& secret) {
    if (secret.size() != kX25519KeySize)
        throw Error(ErrorCause::invalid_argument, "an X25519 secret is 32 bytes");
    return bech32::encode(kIdentityHrp, secret.span(), bech32::Case::upper);
}

bool x25519_canonical(const X25519PublicKey& recipient) {
    // Little-endian u. Bit 255 set: not canonical. Else u >= p = 2^255 - 19 exactly when the
    // top byte is 0x7f, the 30 bytes below it 0xff, and the lowest at least 0xed.
    const std::uint8_t top = recipient[kX25519KeySize - 1];
    if ((top & 0x80) != 0) return false;
    if (top != 0x7f) return true;
    for (std::size_t i = 1; i + 1 < kX25519KeySize; ++i)
        if (recipient[i] != 0xff) return true;
    return recipient[0] < 0xed;
}

X25519PublicKey decode_recipient(std::string_view text) {
    std::string why;
    const std::optional<SecretBytes> key = bech32::decode_key(text, kRecipientHrp, kX25519KeySize, why);
    if (!key) refuse("not an age recipient (age1...): " + why);
    X25519PublicKey public_key{};
    std::copy(key->span().begin(), key->span().end(), public_key.begin());
    if (!x25519_canonical(public_key))
        refuse("not an age recipient: its X25519 point is not in canonical form (u >= 2^255 - 19 "
               "or bit 255 set), which no identity's recipient is; a file sealed to it would "
               "open for no one");
    return public_key;
}

X25519Identity decode_identity(std::string_view text) {
    std::string why;
    std::optional<SecretBytes> key = bech32::decode_key(text, kIdentityHrp, kX25519KeySize, why);
    if (!key) refuse("not an age identity (AGE-SECRET-KEY-1...): " + why);
    X25519Identity identity;
    identity.secret = std::move(*key);
    identity.public_key = x25519_public_key(identity.secret);
    return identity;
}

std::string identity_file_text(const X25519Identity& identity, std::string_view created) {
    std::string secret = encode_identity(identity.secret);
    return formats::identity_file_text(created, encode_recipient(identity.public_key), secret);
}

}  // namespace warp::formats
