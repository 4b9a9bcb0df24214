// SPEC 4.6: the X25519 slot, after age's X25519 recipient type. Its one field is the
// ephemeral share E; s is derived from the X25519 shared secret. Declared here for the tests
// and the constant-time check, which run the part that is ours (libsodium's X25519 is
// trusted) on its own.
#pragma once

#include <span>

#include "formats/kdf.hpp"
#include "formats/x25519_keys.hpp"

namespace warp::formats {

// s = HKDF(shared, E || R, "warpcrypt v2 x25519 slot", 32).
void x25519_slot_secret(std::span<const std::uint8_t, kX25519KeySize> shared,
                        const X25519PublicKey& ephemeral_share, const X25519PublicKey& recipient,
                        WipedKey& s);

// X25519(scalar, point) into `shared`; false when the result is all zero (`point` is of low
// order), which SPEC 4.6 refuses.
bool x25519_shared_secret(std::span<const std::uint8_t, kX25519KeySize> scalar,
                          const X25519PublicKey& point,
                          std::span<std::uint8_t, kX25519KeySize> shared);

}  // namespace warp::formats
