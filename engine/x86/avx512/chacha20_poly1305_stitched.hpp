// One step of ChaCha20-Poly1305 on AVX-512 with both halves in one pass: the sixteen-block
// ChaCha20 rounds with groups of eight IFMA Poly1305 blocks interleaved (see
// chacha20_poly1305.cpp). Call only after the registry confirmed AVX-512 F/BW/VL and IFMA.
#pragma once

#include <cstddef>
#include <cstdint>

#include "engine/x86/avx2/chacha20_poly1305_stitched.hpp"
#include "engine/x86/avx2/poly1305_avx2.hpp"
#include "engine/x86/avx512/chacha_rounds_avx512.hpp"
#include "engine/x86/avx512/poly1305_ifma.hpp"

namespace warp::x86::avx512 {

// Sixteen ChaCha20 blocks; a step's own ciphertext is 64 Poly1305 blocks.
inline constexpr std::size_t kStitchedStep = kBlock16Bytes;
// The most MAC blocks one step takes: ten groups of eight. A step may need more
// (its own 64 and a 192-byte head's 12 fit; the driver absorbs any excess first).
inline constexpr std::size_t kStitchedMaxMacBlocks = kDoubleRounds * kPolyLanes;

// out = in ^ the keystream of blocks counter .. counter+15 (1024 bytes; out == in allowed),
// and mac absorbs `mac_blocks` (<= kStitchedMaxMacBlocks) whole 16-byte blocks from mac_src
// while the rounds run; `powers` is the chunk's, filled at first use. Every read of mac_src
// comes before the first write to out.
void xor16_stitched(const ChaChaInput& input, std::uint32_t counter, const std::uint8_t* in,
                    std::uint8_t* out, avx2::PolyState& mac, IfmaPowers& powers,
                    const std::uint8_t* mac_src, std::size_t mac_blocks);

// out = in ^ the keystream of blocks counter .. counter+15 as above, with no MAC but block 0
// of `input` (the chunk's Poly1305 key block) computed beside them into key_block: the first
// step of a chunk whose MAC lags (a seal, an open out of place) has no MAC blocks to absorb
// yet, and the key block is cheaper there than alone before it.
void xor16_with_key_block(const ChaChaInput& input, std::uint32_t counter,
                          const std::uint8_t* in, std::uint8_t* out, std::uint8_t key_block[64]);

// mac absorbs `len` bytes of src as if zero-padded to a multiple of 16, the groups of eight
// whole blocks on IFMA (no ChaCha beside it: a sealed chunk's last step, which the MAC could
// not read before it was written).
void poly_absorb_ifma(avx2::PolyState& mac, IfmaPowers& powers, const std::uint8_t* src,
                      std::size_t len);

// The step kernel of the shared driver (avx2/chacha20_poly1305_driver.hpp says what it
// provides); steps of at most 512 bytes go to the AVX2 kernel, which costs half as much there.
struct StitchedStep {
    static constexpr std::size_t kBytes = kStitchedStep;
    static constexpr std::size_t kMaxMacBlocks = kStitchedMaxMacBlocks;
    using MacExtra = IfmaPowers;
    using Smaller = avx2::StitchedStep;
    static void step(const ChaChaInput& input, std::uint32_t counter, const std::uint8_t* in,
                     std::uint8_t* out, avx2::PolyState& mac, IfmaPowers& powers,
                     const std::uint8_t* mac_src, std::size_t mac_blocks) {
        xor16_stitched(input, counter, in, out, mac, powers, mac_src, mac_blocks);
    }
    static void step_with_key_block(const ChaChaInput& input, std::uint32_t counter,
                                    const std::uint8_t* in, std::uint8_t* out,
                                    std::uint8_t key_block[64]) {
        xor16_with_key_block(input, counter, in, out, key_block);
    }
    static void absorb(avx2::PolyState& mac, IfmaPowers& powers, const std::uint8_t* src,
                       std::size_t len) {
        poly_absorb_ifma(mac, powers, src, len);
    }
};

}  // namespace warp::x86::avx512
