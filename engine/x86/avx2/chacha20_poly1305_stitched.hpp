// One step of ChaCha20-Poly1305 on AVX2 with both halves in one pass: the eight-block
// ChaCha20 rounds with scalar Poly1305 blocks interleaved (see chacha20_poly1305_stitched.cpp).
#pragma once

#include <cstddef>
#include <cstdint>

#include "engine/x86/avx2/chacha20_avx2.hpp"
#include "engine/x86/avx2/poly1305_avx2.hpp"

namespace warp::x86::avx2 {

// Eight ChaCha20 blocks; a step's own ciphertext is 32 Poly1305 blocks.
inline constexpr std::size_t kStitchedStep = 512;
// The most MAC blocks one step takes: its own 32 and a 192-byte head's 12, and some room.
inline constexpr std::size_t kStitchedMaxMacBlocks = 48;

// out = in ^ the keystream of blocks counter .. counter+7 (512 bytes; out == in allowed), and
// mac absorbs `mac_blocks` (<= kStitchedMaxMacBlocks) whole 16-byte blocks from mac_src while
// the rounds run. Every read of mac_src comes before the first write to out, so mac_src may be
// the step's own input even in place, or ciphertext earlier steps wrote.
void xor_wide_stitched(const ChaChaInput& input, std::uint32_t counter, const std::uint8_t* in,
                       std::uint8_t* out, PolyState& mac, const std::uint8_t* mac_src,
                       std::size_t mac_blocks);

// The step kernel of the shared driver (chacha20_poly1305_driver.hpp says what it provides).
struct StitchedStep {
    static constexpr std::size_t kBytes = kStitchedStep;
    static constexpr std::size_t kMaxMacBlocks = kStitchedMaxMacBlocks;
    struct MacExtra {};  // the scalar MAC needs nothing beyond PolyState
    template <typename Extra>
    static void step(const ChaChaInput& input, std::uint32_t counter, const std::uint8_t* in,
                     std::uint8_t* out, PolyState& mac, Extra& /*unused*/,
                     const std::uint8_t* mac_src, std::size_t mac_blocks) {
        xor_wide_stitched(input, counter, in, out, mac, mac_src, mac_blocks);
    }
};

}  // namespace warp::x86::avx2
