// ChaCha20 (RFC 8439 2.3-2.4) on AVX2. Keystream functions only; the AEAD around them is
// chacha20_poly1305.cpp. Every function here carries WARP_TARGET_AVX2: call them only after
// the registry confirmed AVX2.
#pragma once

#include <cstddef>
#include <cstdint>

#include "engine/scalar/chacha/chacha_input.hpp"

namespace warp::x86::avx2 {

inline constexpr std::size_t kChaChaBlockSize = 64;
// The short path computes this many consecutive blocks at once (see chacha20_avx2.cpp).
inline constexpr std::size_t kChaChaShortBlocks = 4;
inline constexpr std::size_t kChaChaShortBytes = kChaChaShortBlocks * kChaChaBlockSize;

// The block input (engine/scalar/chacha/chacha_input.hpp), shared by every backend.
using scalar::ChaChaInput;
using scalar::chacha_input;

// Keystream blocks counter .. counter+3 (256 bytes) into out.
void chacha20_keystream4(const ChaChaInput& input, std::uint32_t counter,
                         std::uint8_t out[kChaChaShortBytes]);

// XORs the keystream starting at block `counter` into in -> out (len bytes); out == in
// allowed, no other overlap. The 32-bit counter wraps modulo 2^32 as in the scalar code.
void chacha20_xor(const ChaChaInput& input, std::uint32_t counter, const std::uint8_t* in,
                  std::uint8_t* out, std::size_t len);

}  // namespace warp::x86::avx2
