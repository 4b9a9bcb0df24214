// X25519 identities and recipients in age's encoding (C2SP age.md, "The X25519 recipient
// type"), so that a user's age keys work with warpcrypt and warpcrypt's with age: an identity
// is "AGE-SECRET-KEY-1" + Bech32 of the 32-byte secret (formats/keys/bech32.hpp), its recipient
// "age1" + Bech32 of the public key, X25519(secret, base point). Identity and recipients files,
// whatever kinds of key they hold, are read by formats/keys/key_kind.hpp.
//
// Secrets stay in locked memory (SecretBytes); text that holds a secret is returned in a
// string sized once, which the caller wipes. Errors never quote a secret: they name the line.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/secure_memory.hpp"

namespace warp::formats {

// Bech32 of the 32-byte key under these human-readable parts; identities are written in
// upper case.
inline constexpr std::size_t kX25519KeySize = 32;
inline constexpr std::string_view kRecipientHrp = "age";
inline constexpr std::string_view kIdentityHrp = "age-secret-key-";

using X25519PublicKey = std::array<std::uint8_t, kX25519KeySize>;

struct X25519Identity {
    SecretBytes secret;            // kX25519KeySize bytes
    X25519PublicKey public_key{};  // its recipient
};

X25519Identity generate_x25519_identity();           // libsodium's CSPRNG
X25519PublicKey x25519_public_key(const SecretBytes& secret);

std::string encode_recipient(const X25519PublicKey& public_key);  // "age1..."
std::string encode_identity(const SecretBytes& secret);           // "AGE-SECRET-KEY-1...": wipe it

// Whether a recipient is the canonical encoding of its point: u < 2^255 - 19, bit 255 clear.
// Only such a recipient can be computed from an identity (R = X25519(i, base point) always is
// canonical), and both formats put R itself into the exchange's HKDF salt: a file sealed to
// another encoding of the same point would open for no one.
bool x25519_canonical(const X25519PublicKey& recipient);

// Throw Error(usage) saying what is wrong ("not an age recipient: wrong checksum"; a recipient
// that is not canonical, above, is refused too).
X25519PublicKey decode_recipient(std::string_view text);
X25519Identity decode_identity(std::string_view text);

// What `keygen --identity` writes, as age-keygen does: "# created: <created>",
// "# public key: age1...", then the identity. Holds the secret: wipe it.
std::string identity_file_text(const X25519Identity& identity, std::string_view created);

}  // namespace warp::formats
