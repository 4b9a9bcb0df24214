// SPEC 4.6: the X25519 slot, after age's X25519 recipient type. Its one field is the
// ephemeral share E; s is derived from the X25519 shared secret of the exchange both formats
// make (formats/keys/x25519_exchange.hpp), under this format's label. Declared here for the
// tests and the constant-time check.
#pragma once

#include <array>
#include <span>
#include <string_view>

#include "formats/keys/x25519_exchange.hpp"

namespace warp::formats::warp_format {

// s = HKDF(shared, E || R, "warpcrypt v2 x25519 slot", 32).
void x25519_slot_secret(std::span<const std::uint8_t, kX25519KeySize> shared,
                        const X25519PublicKey& ephemeral_share, const X25519PublicKey& recipient,
                        WipedKey& s);

}  // namespace warp::formats::warp_format
