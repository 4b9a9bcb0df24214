// ChaCha20 and Poly1305 stitched: one pass over the data instead of two.
//
// Why it is faster: the eight-block ChaCha20 rounds (chacha_rounds_avx2.hpp) keep the vector
// ports busy and leave the integer ports idle; the radix-2^64 Poly1305 (poly1305_scalar.hpp)
// is integer multiplies and adds with a serial dependency from block to block. Interleaved,
// the out-of-order core runs both at once, so the MAC costs little beyond the rounds (the
// separate passes cost ChaCha20 plus a 4-way vector Poly1305, which competes for the same
// vector ports). Each 512-byte step absorbs its 32 MAC blocks three at a time after each of
// the ten double rounds and two after them.
//
// Register plan: the rounds' plan is chacha_double_round_asm.hpp's (14 rows in YMM registers,
// two in stack slots); the MAC lives in general registers: h0, h1, h2, three temporaries and
// rdx:rax for the products, with r0, r1 and s1 read from memory by the multiplies, none of
// which compete with the YMM file.
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

#include <utility>

namespace warp::x86::avx2 {
namespace {

using namespace rounds;
using poly_scalar::absorb_block_asm;
using poly_scalar::mac_key;
using poly_scalar::MacKey;

static_assert(kStitchedStep == kWideBytes);

// A step's MAC blocks go out at the `between` points of xor_wide_with: kBlocks / 10 after each
// double round and the rest after the last. kBlocks is a compile-time constant so that every
// point's count is one too and the MAC code is straight-line: around any inner loop or branch
// there GCC spills all 14 YMM rows and reloads them, every double round.
template <std::size_t kBlocks>
WARP_TARGET_AVX2 void stitched_step(const ChaChaInput& input, std::uint32_t counter,
                                    const std::uint8_t* in, std::uint8_t* out, PolyState& state,
                                    const std::uint8_t* mac_src) {
    constexpr std::size_t kPerRound = kBlocks / kDoubleRounds;
    constexpr std::size_t kAtEnd = kBlocks - kPerRound * kDoubleRounds;
    std::uint64_t h0 = state.h0, h1 = state.h1, h2 = state.h2;
    const MacKey key = mac_key(state.r0, state.r1);
    xor_wide_with(input, counter, in, out, [&](int point) {
        const std::size_t first = kPerRound * static_cast<std::size_t>(point);
        if (point < kDoubleRounds) {
            for (std::size_t b = 0; b < kPerRound; ++b)
                absorb_block_asm(h0, h1, h2, mac_src + (first + b) * kPolyBlockSize, key);
        } else {
            for (std::size_t b = 0; b < kAtEnd; ++b)
                absorb_block_asm(h0, h1, h2, mac_src + (first + b) * kPolyBlockSize, key);
        }
    });
    state.h0 = h0;
    state.h1 = h1;
    state.h2 = h2;
}

// The block counts a step can take, rounded down to a multiple of 4: 0, 4, ..., 48.
constexpr std::size_t kCountQuantum = 4;

template <std::size_t... kQuanta>
WARP_TARGET_AVX2 void stitched_step_of(std::size_t quanta, const ChaChaInput& input,
                                       std::uint32_t counter, const std::uint8_t* in,
                                       std::uint8_t* out, PolyState& state,
                                       const std::uint8_t* mac_src,
                                       std::index_sequence<kQuanta...>) {
    // One comparison per instantiation; `quanta` is public (a length).
    ((quanta == kQuanta ? stitched_step<kQuanta * kCountQuantum>(input, counter, in, out, state,
                                                                  mac_src)
                        : void()),
     ...);
}

}  // namespace

WARP_TARGET_AVX2 void xor_wide_stitched(const ChaChaInput& input, std::uint32_t counter,
                                        const std::uint8_t* in, std::uint8_t* out,
                                        PolyState& state, const std::uint8_t* mac_src,
                                        std::size_t mac_blocks) {
    // The blocks beyond a multiple of 4 (at most 3) go first, before the rounds: the MAC takes
    // its blocks in order, and every one must be read before the step's stores.
    const std::size_t leading = mac_blocks % kCountQuantum;
    if (leading > 0) poly_absorb_padded(state, mac_src, leading * kPolyBlockSize);  // no pad
    stitched_step_of(mac_blocks / kCountQuantum, input, counter, in, out, state,
                     mac_src + leading * kPolyBlockSize,
                     std::make_index_sequence<kStitchedMaxMacBlocks / kCountQuantum + 1>{});
}

}  // namespace warp::x86::avx2
