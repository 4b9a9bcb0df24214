// SPEC 4.8: the ML-KEM-768 + X25519 (post-quantum) slot. Its one field is the hybrid KEM's
// enc (formats/keys/pq/mlkem768x25519.hpp); s is derived from the KEM's shared secret under
// this format's label. Declared here for the tests and the constant-time check.
#pragma once

#include <span>

#include "formats/common/kdf.hpp"
#include "formats/keys/pq/mlkem768x25519.hpp"

namespace warp::formats::warp_format {

// s = HKDF(ss, enc || pk, "warpcrypt v2 mlkem768x25519 slot", 32).
void hybrid_slot_secret(const pq::HybridShared& shared, std::span<const std::uint8_t> enc,
                        const pq::HybridPublicKey& public_key, WipedKey& s);

}  // namespace warp::formats::warp_format
