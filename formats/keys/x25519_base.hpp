// X25519(scalar, 9): the public key of an X25519 secret, and the ephemeral share a writer sends.
#pragma once

#include <cstdint>
#include <span>

namespace warp::formats {

// The u-coordinate of [clamp(scalar)]9 on Curve25519, as libsodium's crypto_scalarmult_base
// returns it, in less than half its time (tests/formats/x25519_base_test.cpp checks both agree).
void x25519_base(std::span<const std::uint8_t, 32> scalar, std::span<std::uint8_t, 32> out);

}  // namespace warp::formats
