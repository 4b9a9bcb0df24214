// One ChaCha20 double round on eight blocks in "vertical" layout (chacha_rounds_avx2.hpp), as
// one asm block with a fixed register plan, because GCC's allocation of the 16 state rows in
// 16 YMM registers spilled and reloaded about 20 rows per double round (some stored twice).
//
// Register plan (16 YMM): rows a0..a3 (words 0..3), b0..b3 (4..7) and d0..d3 (12..15) stay in
// registers throughout; of the c rows (8..11) two are in registers (cA, cB) and two in stack
// slots, and two registers (ymm14, ymm15) are temporaries for the rotations by 12 and 7
// (shift, shift, or: AVX2 has no vector rotate). The rotations by 16 and 8 are byte shuffles
// whose masks sit beside the slots. Quarter rounds go two at a time, each pair on the c rows
// in registers:
//   columns:   (0,4,8,12) (1,5,9,13)      c8, c9 in cA, cB
//              c8, c9 out to their slots, c10, c11 in
//              (2,6,10,14) (3,7,11,15)
//   diagonals: (0,5,10,15) (1,6,11,12)    c10, c11 still in cA, cB
//              c10, c11 out, c8, c9 in
//              (2,7,8,13) (3,4,9,14)
// so each double round moves four rows out and four in, and ends as it began (c8, c9 in
// registers, c10, c11 in their slots). No memory is touched but those slots and the masks,
// and GCC 12 -O3 adds nothing around the statement: a stitched step's double round with its
// three MAC blocks is 248 instructions, of which the eight moves above are the only memory
// traffic of the rows.
//
// One statement for the whole round: GCC allows 30 operands and each "+x" row counts twice,
// so the slots and masks (WideMemory) are one "+m" operand, which also tells GCC exactly what
// the statement reads and writes; its first instruction takes that operand's address into
// r11 (LEA, whatever addressing GCC chose) and the rest reach the slots and masks at fixed
// displacements from it, "32(%r11)". Tried and dropped: one statement per quarter-round pair
// (GCC then spilled two rows per double round); displacements added to the operand in the
// text, "32+%[mem]" (broken where GCC addresses it through a bare register, as at -O1); a base
// register operand with a "memory" clobber (under LTO the clobber pinned the MAC's
// accumulator to the stack, a store and a load per MAC block).
#pragma once

#include <immintrin.h>

#include <cstdint>

#include "engine/x86/isa.hpp"

namespace warp::x86::avx2::rounds {

// The state of eight blocks during the rounds: what the asm keeps in registers, and the stack
// memory it reaches through one base register.
struct WideMemory {
    __m256i c_slot[4];  // c_slot[k] holds row 8 + k while it is out of cA/cB  (bytes 0..127)
    __m256i rotate16;   // the byte-shuffle masks                               (128, 160)
    __m256i rotate8;
};
// Kept apart from WideMemory, whose address the asm takes: were they one object, all of it
// would live on the stack and GCC would store every row after every double round.
struct WideRows {
    __m256i a0, a1, a2, a3, b0, b1, b2, b3, cA, cB, d0, d1, d2, d3;
};

// Byte shuffles that rotate each 32-bit word left by 16 and by 8.
alignas(32) inline constexpr std::uint8_t kRotate16Bytes[32] = {
    2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13,
    2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13};
alignas(32) inline constexpr std::uint8_t kRotate8Bytes[32] = {
    3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14,
    3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14};

// Half of two quarter rounds side by side on (a, b, c, d) and (e, f, g, h), AT&T operand
// order: a += b; d ^= a; d <<<= (the shuffle at byte `mask` of WideMemory); c += d; b ^= c;
// b <<<= left (shift left, shift right by 32 - left, or; ymm14, ymm15 hold the left shifts).
#define WARP_CHACHA_HALF_QR2(a, b, c, d, e, f, g, h, mask, left, right)                      \
    "vpaddd %[" #b "], %[" #a "], %[" #a "]\n\t"                                             \
    "vpaddd %[" #f "], %[" #e "], %[" #e "]\n\t"                                             \
    "vpxor %[" #a "], %[" #d "], %[" #d "]\n\t"                                              \
    "vpxor %[" #e "], %[" #h "], %[" #h "]\n\t"                                              \
    "vpshufb " #mask "(%%r11), %[" #d "], %[" #d "]\n\t"                                     \
    "vpshufb " #mask "(%%r11), %[" #h "], %[" #h "]\n\t"                                     \
    "vpaddd %[" #d "], %[" #c "], %[" #c "]\n\t"                                             \
    "vpaddd %[" #h "], %[" #g "], %[" #g "]\n\t"                                             \
    "vpxor %[" #c "], %[" #b "], %[" #b "]\n\t"                                              \
    "vpxor %[" #g "], %[" #f "], %[" #f "]\n\t"                                              \
    "vpslld $" #left ", %[" #b "], %%ymm14\n\t"                                              \
    "vpslld $" #left ", %[" #f "], %%ymm15\n\t"                                              \
    "vpsrld $" #right ", %[" #b "], %[" #b "]\n\t"                                           \
    "vpsrld $" #right ", %[" #f "], %[" #f "]\n\t"                                           \
    "vpor %%ymm14, %[" #b "], %[" #b "]\n\t"                                                 \
    "vpor %%ymm15, %[" #f "], %[" #f "]\n\t"

// Two quarter rounds: rotations by 16 and 12, then by 8 and 7.
#define WARP_CHACHA_QR2(a, b, c, d, e, f, g, h)                                              \
    WARP_CHACHA_HALF_QR2(a, b, c, d, e, f, g, h, 128, 12, 20)                                \
    WARP_CHACHA_HALF_QR2(a, b, c, d, e, f, g, h, 160, 7, 25)

// cA, cB out to slots `out0`, `out1` (byte offsets in WideMemory); slots `in0`, `in1` into
// cA, cB. Unaligned moves: the slots' 32-byte alignment is GCC's to keep, not ours.
#define WARP_CHACHA_SWAP_C(out0, out1, in0, in1)                                             \
    "vmovdqu %[cA], " #out0 "(%%r11)\n\t"                                                   \
    "vmovdqu %[cB], " #out1 "(%%r11)\n\t"                                                   \
    "vmovdqu " #in0 "(%%r11), %[cA]\n\t"                                                    \
    "vmovdqu " #in1 "(%%r11), %[cB]\n\t"

WARP_TARGET_AVX2 static inline void init_wide_memory(WideMemory& m) {
    m.rotate16 = _mm256_load_si256(reinterpret_cast<const __m256i*>(kRotate16Bytes));
    m.rotate8 = _mm256_load_si256(reinterpret_cast<const __m256i*>(kRotate8Bytes));
}

// The temporaries are ymm14 and ymm15, named as clobbers, so that the 14 register rows get
// ymm0..13.
WARP_TARGET_AVX2 static inline void double_round(WideRows& s, WideMemory& memory) {
    __asm__("leaq %[mem], %%r11\n\t"  // the slots' and masks' base, however GCC addresses them
            WARP_CHACHA_QR2(a0, b0, cA, d0, a1, b1, cB, d1)  // columns, c8 and c9
            WARP_CHACHA_SWAP_C(0, 32, 64, 96)                 // c8, c9 out; c10, c11 in
            WARP_CHACHA_QR2(a2, b2, cA, d2, a3, b3, cB, d3)  // columns, c10 and c11
            WARP_CHACHA_QR2(a0, b1, cA, d3, a1, b2, cB, d0)  // diagonals, c10 and c11
            WARP_CHACHA_SWAP_C(64, 96, 0, 32)                 // c10, c11 out; c8, c9 in
            WARP_CHACHA_QR2(a2, b3, cA, d1, a3, b0, cB, d2)  // diagonals, c8 and c9
            : [a0] "+x"(s.a0), [a1] "+x"(s.a1), [a2] "+x"(s.a2), [a3] "+x"(s.a3),
              [b0] "+x"(s.b0), [b1] "+x"(s.b1), [b2] "+x"(s.b2), [b3] "+x"(s.b3),
              [cA] "+x"(s.cA), [cB] "+x"(s.cB), [d0] "+x"(s.d0), [d1] "+x"(s.d1),
              [d2] "+x"(s.d2), [d3] "+x"(s.d3), [mem] "+m"(memory)
            :
            : "xmm14", "xmm15", "r11");
}

#undef WARP_CHACHA_QR2
#undef WARP_CHACHA_HALF_QR2
#undef WARP_CHACHA_SWAP_C

}  // namespace warp::x86::avx2::rounds
