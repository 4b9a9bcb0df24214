// Poly1305 test helpers shared by the kernels' tests (the scalar, AVX2 and NEON MACs): the
// reference tag from libsodium, and keys at the extremes of r and s, where carries go wrong.
#pragma once

#include <string>
#include <vector>

#include "tests/support/hex.hpp"

namespace warp::test {

// libsodium's crypto_onetimeauth_poly1305 tag of msg under the 32-byte key, as hex.
std::string libsodium_poly1305_hex(const Bytes& key, const Bytes& msg);

// r = 0, 1, the largest value clamping allows, and all ones before clamping; s = 0 and all
// ones: the eight keys r || s.
std::vector<Bytes> extreme_poly1305_keys();

}  // namespace warp::test
