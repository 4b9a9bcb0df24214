// ChaCha20 and Poly1305 stitched: one pass over the data instead of two.
//
// Why it is faster: the eight-block ChaCha20 rounds (chacha_rounds_avx2.hpp) keep the vector
// ports busy and leave the integer ports idle; the radix-2^64 Poly1305 (poly1305_scalar.hpp)
// is integer multiplies and adds with a serial dependency from block to block. Interleaved,
// the out-of-order core runs both at once, so the MAC costs little beyond the rounds (the
// separate passes cost ChaCha20 plus a 4-way vector Poly1305, which competes for the same
// vector ports). Each 512-byte step absorbs its 32 MAC blocks three or four at a time after
// each of the ten double rounds and two after them.
//
// Register plan: the 16 state rows of eight blocks fill the 16 YMM registers, so the compiler
// keeps a few rows in stack slots between quarter rounds (memory operands of vpaddd/vpxor);
// the MAC lives entirely in general registers: h0, h1, h2, r0, r1, the message pointer and
// the 128-bit products (rdx:rax / mulx pairs), none of which compete with the YMM file.
//
// Which bytes a step absorbs is the caller's choice (chacha20_poly1305.cpp): a seal step the
// ciphertext earlier steps wrote, an open step its own input (read before its stores, so in
// place is fine).
//
// Constant time: the rounds and the MAC are adds, xors, rotates and multiplies; the step
// count depends on the length only, which is public.
#include "engine/x86/avx2/chacha20_poly1305_stitched.hpp"

#include "engine/x86/avx2/chacha_rounds_avx2.hpp"
#include "engine/x86/avx2/poly1305_scalar.hpp"
#include "engine/x86/isa.hpp"

namespace warp::x86::avx2 {
namespace {

using namespace rounds;
using poly_scalar::absorb_block_asm;
using poly_scalar::mac_key;
using poly_scalar::MacKey;

static_assert(kStitchedStep == kWideBytes);

// The MAC blocks of a step go out a share at a time at each of the 11 `between` points of
// xor_wide_with: ceil(blocks / 11) per point. The steady state, a step's own 32 blocks, is a
// compile-time case (kFixed = 32: three after each double round, two at the end) so the
// shares unroll into straight-line code; other counts (a first or last step) take the loop.
template <std::size_t kFixed>
[[gnu::always_inline]] WARP_TARGET_AVX2 static inline void stitched_step(
    const ChaChaInput& input, std::uint32_t counter, const std::uint8_t* in, std::uint8_t* out,
    PolyState& state, const std::uint8_t* mac_src, std::size_t mac_blocks) {
    std::uint64_t h0 = state.h0, h1 = state.h1, h2 = state.h2;
    const MacKey key = mac_key(state.r0, state.r1);
    if constexpr (kFixed > 0) {
        static_assert(kFixed <= kBetweenSteps * 3 && kFixed > 3 * kDoubleRounds);
        (void)mac_blocks;
        xor_wide_with(input, counter, in, out, [&](int point) {
            const std::size_t first = 3 * static_cast<std::size_t>(point);
            const std::size_t n = point < kDoubleRounds ? 3 : kFixed - 3 * kDoubleRounds;
            for (std::size_t b = 0; b < n; ++b)
                absorb_block_asm(h0, h1, h2, mac_src + (first + b) * kPolyBlockSize, key);
        });
    } else {
        const std::size_t share = (mac_blocks + kBetweenSteps - 1) / kBetweenSteps;
        const std::uint8_t* next = mac_src;
        std::size_t left = mac_blocks;
        xor_wide_with(input, counter, in, out, [&](int) {
            const std::size_t n = left < share ? left : share;
            for (std::size_t b = 0; b < n; ++b, next += kPolyBlockSize)
                absorb_block_asm(h0, h1, h2, next, key);
            left -= n;
        });
    }
    state.h0 = h0;
    state.h1 = h1;
    state.h2 = h2;
}

}  // namespace

WARP_TARGET_AVX2 void xor_wide_stitched(const ChaChaInput& input, std::uint32_t counter,
                                        const std::uint8_t* in, std::uint8_t* out,
                                        PolyState& state, const std::uint8_t* mac_src,
                                        std::size_t mac_blocks) {
    constexpr std::size_t kOwnBlocks = kStitchedStep / kPolyBlockSize;  // 32
    if (mac_blocks == kOwnBlocks)
        stitched_step<kOwnBlocks>(input, counter, in, out, state, mac_src, mac_blocks);
    else
        stitched_step<0>(input, counter, in, out, state, mac_src, mac_blocks);
}

}  // namespace warp::x86::avx2
