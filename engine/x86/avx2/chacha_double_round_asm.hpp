// One ChaCha20 double round on eight blocks in "vertical" layout (chacha_rounds_avx2.hpp), in
// asm with a fixed register plan, because GCC's allocation of the 16 state rows in 16 YMM
// registers spilled and reloaded about 20 rows per double round (some stored twice).
//
// Register plan (16 YMM): rows a0..a3 (words 0..3), b0..b3 (4..7) and d0..d3 (12..15) stay in
// registers throughout; of the c rows (8..11) two are in registers (cA, cB) and two in stack
// slots, and two registers (ymm14, ymm15) are temporaries for the rotations by 12 and 7 (shift, shift, or;
// AVX2 has no vector rotate). The rotations by 16 and 8 are byte shuffles whose masks are
// memory operands. Quarter rounds go two at a time, each pair on the c rows in registers:
//   columns:   (0,4,8,12) (1,5,9,13)      c8, c9 in cA, cB
//              c8, c9 out to their slots, c10, c11 in
//              (2,6,10,14) (3,7,11,15)
//   diagonals: (0,5,10,15) (1,6,11,12)    c10, c11 still in cA, cB
//              c10, c11 out, c8, c9 in
//              (2,7,8,13) (3,4,9,14)
// so each double round moves four rows out and four in, and ends as it began (c8, c9 in
// registers, c10, c11 in their slots). No memory is touched but those slots and the masks.
// Each pair of quarter rounds and each swap is its own asm statement, so that every memory
// operand is a whole operand GCC addresses itself. (One statement for the whole round does not
// fit GCC's 30 operands, each "+" counting twice, unless the slots are one operand with
// displacements added in the text, and "128+%[mem]" breaks where GCC addresses the operand
// through a bare register, as at -O1.) Between the statements GCC 12 -O3 still moves two rows
// through the stack, two stores and two loads per double round beyond the plan: 255
// instructions per double round with its three MAC blocks, against 247 for the single
// statement, for no difference measurable here.
#pragma once

#include <immintrin.h>

#include <cstdint>

#include "engine/x86/isa.hpp"

namespace warp::x86::avx2::rounds {

// The rows the asm keeps in registers, and the stack slots of the two c rows that are out.
// Two objects: were the slots part of the rows' object, their memory operands would pin all
// of it to the stack and GCC would store every row after every double round.
struct WideRows {
    __m256i a0, a1, a2, a3, b0, b1, b2, b3, cA, cB, d0, d1, d2, d3;
};
struct WideMemory {
    __m256i c_slot[4];  // c_slot[k] holds row 8 + k while it is out of cA/cB
};

// Byte shuffles that rotate each 32-bit word left by 16 and by 8.
alignas(32) inline constexpr std::uint8_t kRotate16Bytes[32] = {
    2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13,
    2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13};
alignas(32) inline constexpr std::uint8_t kRotate8Bytes[32] = {
    3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14,
    3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14};

// Half of two quarter rounds side by side on (a, b, c, d) and (e, f, g, h), AT&T operand
// order: a += b; d ^= a; d <<<= (the byte shuffle `mask`); c += d; b ^= c; b <<<= left
// (shift left, shift right by 32 - left, or; ymm14 and ymm15 hold the shifted-left halves).
#define WARP_CHACHA_HALF_QR2(mask, left, right)                                              \
    "vpaddd %[b], %[a], %[a]\n\t"                                                            \
    "vpaddd %[f], %[e], %[e]\n\t"                                                            \
    "vpxor %[a], %[d], %[d]\n\t"                                                             \
    "vpxor %[e], %[h], %[h]\n\t"                                                             \
    "vpshufb %[" #mask "], %[d], %[d]\n\t"                                                   \
    "vpshufb %[" #mask "], %[h], %[h]\n\t"                                                   \
    "vpaddd %[d], %[c], %[c]\n\t"                                                            \
    "vpaddd %[h], %[g], %[g]\n\t"                                                            \
    "vpxor %[c], %[b], %[b]\n\t"                                                             \
    "vpxor %[g], %[f], %[f]\n\t"                                                             \
    "vpslld $" #left ", %[b], %%ymm14\n\t"                                                   \
    "vpslld $" #left ", %[f], %%ymm15\n\t"                                                   \
    "vpsrld $" #right ", %[b], %[b]\n\t"                                                     \
    "vpsrld $" #right ", %[f], %[f]\n\t"                                                     \
    "vpor %%ymm14, %[b], %[b]\n\t"                                                           \
    "vpor %%ymm15, %[f], %[f]\n\t"

// Two quarter rounds on (a, b, c, d) and (e, f, g, h): rotations by 16 and 12, then 8 and 7.
WARP_TARGET_AVX2 static inline void quarter_round_pair(__m256i& a, __m256i& b, __m256i& c,
                                                       __m256i& d, __m256i& e, __m256i& f,
                                                       __m256i& g, __m256i& h) {
    __asm__(WARP_CHACHA_HALF_QR2(rot16, 12, 20) WARP_CHACHA_HALF_QR2(rot8, 7, 25)
            : [a] "+x"(a), [b] "+x"(b), [c] "+x"(c), [d] "+x"(d), [e] "+x"(e), [f] "+x"(f),
              [g] "+x"(g), [h] "+x"(h)
            : [rot16] "m"(*reinterpret_cast<const __m256i*>(kRotate16Bytes)),
              [rot8] "m"(*reinterpret_cast<const __m256i*>(kRotate8Bytes))
            : "xmm14", "xmm15");
}

// cA, cB out to their slots, two other rows' slots into cA, cB. Unaligned moves: the slots'
// 32-byte alignment is GCC's to keep, not ours.
WARP_TARGET_AVX2 static inline void swap_c_rows(__m256i& cA, __m256i& cB, __m256i& out_a,
                                                __m256i& out_b, const __m256i& in_a,
                                                const __m256i& in_b) {
    __asm__("vmovdqu %[cA], %[out_a]\n\t"
            "vmovdqu %[cB], %[out_b]\n\t"
            "vmovdqu %[in_a], %[cA]\n\t"
            "vmovdqu %[in_b], %[cB]"
            : [cA] "+x"(cA), [cB] "+x"(cB), [out_a] "=m"(out_a), [out_b] "=m"(out_b)
            : [in_a] "m"(in_a), [in_b] "m"(in_b));
}

// The temporaries are ymm14 and ymm15, named as clobbers, so that the 14 register rows get
// ymm0..13.
WARP_TARGET_AVX2 static inline void double_round(WideRows& s, WideMemory& m) {
    quarter_round_pair(s.a0, s.b0, s.cA, s.d0, s.a1, s.b1, s.cB, s.d1);  // columns, c8 and c9
    swap_c_rows(s.cA, s.cB, m.c_slot[0], m.c_slot[1], m.c_slot[2], m.c_slot[3]);
    quarter_round_pair(s.a2, s.b2, s.cA, s.d2, s.a3, s.b3, s.cB, s.d3);  // columns, c10, c11
    quarter_round_pair(s.a0, s.b1, s.cA, s.d3, s.a1, s.b2, s.cB, s.d0);  // diagonals, c10, c11
    swap_c_rows(s.cA, s.cB, m.c_slot[2], m.c_slot[3], m.c_slot[0], m.c_slot[1]);
    quarter_round_pair(s.a2, s.b3, s.cA, s.d1, s.a3, s.b0, s.cB, s.d2);  // diagonals, c8, c9
}

#undef WARP_CHACHA_HALF_QR2

}  // namespace warp::x86::avx2::rounds
