// ChaCha20 (RFC 8439 2.3-2.4) with SVE2's XAR (exclusive-or and rotate) for the arm-sve2
// backend: the NEON kernel's layout and interface (engine/arm/neon/chacha20_neon.hpp), four
// blocks per pass, but each "xor, then rotate" of a quarter round is one instruction. Call
// only where cpu_features() reports arm_sve2 (HWCAP2_SVE2).
#pragma once

#include <cstddef>
#include <cstdint>

#include "engine/arm/neon/chacha20_neon.hpp"

namespace warp::arm::sve2 {

using neon::ChaChaInput;
using neon::kChaChaLaneBytes;

// Keystream blocks counter .. counter+3 (256 bytes) into out.
void chacha20_keystream4(const ChaChaInput& input, std::uint32_t counter,
                         std::uint8_t out[kChaChaLaneBytes]);

// XORs the keystream starting at block `counter` into in -> out (len bytes); out == in
// allowed, no other overlap. The 32-bit counter wraps modulo 2^32 as in the scalar code.
void chacha20_xor(const ChaChaInput& input, std::uint32_t counter, const std::uint8_t* in,
                  std::uint8_t* out, std::size_t len);

}  // namespace warp::arm::sve2
