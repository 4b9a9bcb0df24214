// ChaCha20 (RFC 8439 2.3-2.4) on AArch64 NEON. Keystream functions only; the AEAD around them
// is chacha20_poly1305.cpp. Baseline AArch64 always has NEON, so nothing here needs a target
// attribute or a runtime check.
#pragma once

#include <cstddef>
#include <cstdint>

#include "engine/scalar/chacha/chacha_input.hpp"

namespace warp::arm::neon {

inline constexpr std::size_t kChaChaBlockSize = 64;
// The vector layout computes this many consecutive blocks per pass (chacha20_neon.cpp).
inline constexpr std::size_t kChaChaLanes = 4;
inline constexpr std::size_t kChaChaLaneBytes = kChaChaLanes * kChaChaBlockSize;

// The block input (engine/scalar/chacha/chacha_input.hpp), shared by every backend.
using scalar::ChaChaInput;
using scalar::chacha_input;

// Keystream blocks counter .. counter+3 (256 bytes) into out.
void chacha20_keystream4(const ChaChaInput& input, std::uint32_t counter,
                         std::uint8_t out[kChaChaLaneBytes]);

// XORs the keystream starting at block `counter` into in -> out (len bytes); out == in
// allowed, no other overlap. The 32-bit counter wraps modulo 2^32 as in the scalar code.
void chacha20_xor(const ChaChaInput& input, std::uint32_t counter, const std::uint8_t* in,
                  std::uint8_t* out, std::size_t len);

}  // namespace warp::arm::neon
