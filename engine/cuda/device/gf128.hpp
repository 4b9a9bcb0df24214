// GF(2^128) as GCM uses it (NIST SP 800-38D, 6.3), for the kernels and for the host.
//
// Representation: an element is the 16-byte block read as four BIG-endian 32-bit words, w[0]
// from bytes 0..3. GCM's bit order makes the most significant bit of w[0] the coefficient of
// x^0 and the least significant bit of w[3] that of x^127, so multiplying by x is a right shift
// of the 128-bit number, and x^128 = 1 + x + x^2 + x^7 folds back as 0xE1 in the top byte.
//
// Two multiplications:
// - gf128_mul_bitwise: SP 800-38D Algorithm 1, 128 steps whose data-dependent choices are
//   masks (0u - bit), not branches: constant time, for the host (key tables, J0) and for the
//   kernels' once-per-thread combine step, whose second factor varies.
// - gf128_mul_fixed: multiplication by the FIXED element H^T (T = kGcmThreads) that every step
//   of a thread's GHASH Horner loop needs, with tables of positioned nibble multiples. Cut X
//   into its eight 16-bit halfwords Y_7 .. Y_0 (Y_0 the first, holding x^0 .. x^15), so
//   X = sum_h Y_h·x^(16h), and each halfword into its four nibbles v_i (x^(4i) .. x^(4i+3)).
//   With the four tables P_i[v] = v(x)·x^(4i)·H^T (i = 0..3, v = 0..15; GcmKeyTables::
//   h_t_positions), Y_h·H^T is the XOR of four lookups, no shifting, and
//       X·H^T = (..((Y_7·H^T)·x^16 + Y_6·H^T)·x^16 + ..)·x^16 + Y_0·H^T,
//   Horner by x^16: a 16-bit shift of the 128-bit value (three funnel shifts and a shift) and
//   the reduction of the 16 bits shifted out, computed (no table: x^128 = 1 + x + x^2 + x^7,
//   so they come back as t ^ t·x ^ t·x^2 ^ t·x^7, four shifts and two XORs). Per element: 32
//   lookups, 7 such steps. The tables are indexed by secret nibbles, so the kernels keep them
//   in shared memory replicated per lane exactly as the AES tables (aes_tables.hpp: no bank
//   conflict, so no timing that depends on the index), as [position][entry][lane][4 words]:
//   lane L's 16-byte entry is one 128-bit load, and the eight lanes served together by a
//   128-bit shared access cover all 32 banks. 32 KiB.
#pragma once

#include <cstdint>

#include "engine/cuda/device/aes_tables.hpp"
#include "engine/cuda/device/portability.hpp"

namespace warp::cuda::device {

struct Gf128 {
    std::uint32_t w[4];  // big-endian words; see above
};

WARP_HD WARP_INLINE constexpr Gf128 gf128_xor(const Gf128& a, const Gf128& b) {
    return {{a.w[0] ^ b.w[0], a.w[1] ^ b.w[1], a.w[2] ^ b.w[2], a.w[3] ^ b.w[3]}};
}

// x^128 = x^7 + x^2 + x + 1, as it is added to w[0] when a bit falls off the end.
inline constexpr std::uint32_t kGf128Reduction = 0xe1000000u;

// x * y, constant time (SP 800-38D, 6.3, Algorithm 1).
WARP_HD constexpr Gf128 gf128_mul_bitwise(const Gf128& x, const Gf128& y) {
    Gf128 z{};
    Gf128 v = y;
    WARP_UNROLL
    for (unsigned word = 0; word < 4; ++word) {  // unrolled: x stays in registers on the GPU
        std::uint32_t bits = x.w[word];
        for (unsigned i = 0; i < 32; ++i) {
            const std::uint32_t take = 0u - (bits >> 31);  // x's coefficient of x^(32 word + i)
            bits <<= 1;
            for (unsigned k = 0; k < 4; ++k) z.w[k] ^= v.w[k] & take;
            const std::uint32_t carry = 0u - (v.w[3] & 1u);
            v.w[3] = (v.w[3] >> 1) | (v.w[2] << 31);
            v.w[2] = (v.w[2] >> 1) | (v.w[1] << 31);
            v.w[1] = (v.w[1] >> 1) | (v.w[0] << 31);
            v.w[0] = (v.w[0] >> 1) ^ (kGf128Reduction & carry);
        }
    }
    return z;
}

// The 4-bit polynomial v (bit 3 = coefficient of x^0) times x^(4i), as an element: v in the
// i-th nibble of w[0] from the top.
WARP_HD constexpr Gf128 gf128_nibble(std::uint32_t v, unsigned i) {
    return {{v << (28 - 4 * i), 0, 0, 0}};
}

// A block loaded by load_block_aligned (little-endian words) as an element, and back.
WARP_HD WARP_INLINE Gf128 gf128_from_block(const Words4& b) {
    return {{byte_swap32(b.w[0]), byte_swap32(b.w[1]), byte_swap32(b.w[2]), byte_swap32(b.w[3])}};
}
WARP_HD WARP_INLINE Words4 gf128_to_block(const Gf128& x) {
    return {{byte_swap32(x.w[0]), byte_swap32(x.w[1]), byte_swap32(x.w[2]), byte_swap32(x.w[3])}};
}

// Shared-memory layout of the positioned nibble tables (see the top of the file).
inline constexpr std::uint32_t kNibbleEntries = 16;
inline constexpr std::uint32_t kNibblePositions = 4;  // nibbles of a halfword
inline constexpr std::uint32_t kNibbleTableWords = kNibbleEntries * kLanes * 4;      // 8 KiB
inline constexpr std::uint32_t kPositionTablesWords = kNibblePositions * kNibbleTableWords;

WARP_HD WARP_INLINE constexpr std::uint32_t nibble_slot(std::uint32_t position,
                                                        std::uint32_t entry, std::uint32_t lane) {
    // first word of lane `lane`'s copy of P_position[entry]
    return position * kNibbleTableWords + (entry * kLanes + lane) * 4;
}

WARP_HD WARP_INLINE Gf128 nibble_lookup(const std::uint32_t* tables, std::uint32_t position,
                                        std::uint32_t entry, std::uint32_t lane) {
    const Words4 m = load_words4(tables + nibble_slot(position, entry, lane));
    return {{m.w[0], m.w[1], m.w[2], m.w[3]}};
}

// nibble_lookup(tables, position, the nibble at bits [pos, pos + 4) of `word`, lane) in fewer
// instructions: lane L's copy of P_i[v] starts at byte i * 8192 + v * 512 + L * 16, so one
// shift puts the nibble at bit 9 and one LOP3 keeps it and adds the lane's part (lane16 =
// lane * 16, computed once); i * 8192 is the load's constant offset once the caller's loop is
// unrolled. The layout, and so lane L reading banks 4L % 32 .. 4L % 32 + 3 only, is unchanged.
WARP_HD WARP_INLINE Gf128 nibble_lookup_of(const std::uint32_t* tables, std::uint32_t position,
                                           std::uint32_t word, int pos, std::uint32_t lane16) {
    // A right shift as mul_high, on the FMA pipe instead of the ALU pipe.
    const std::uint32_t moved = pos >= 12 ? mul_high(word, 1u << (41 - pos))
                                : pos >= 9 ? word >> (pos - 9)
                                           : word << (9 - pos);
    const Words4 m =
        load_words4(at_byte(tables + position * kNibbleTableWords, (moved & (0xfu << 9)) | lane16));
    return {{m.w[0], m.w[1], m.w[2], m.w[3]}};
}

// Y·H^T for the halfword Y at bits [16 * high, 16 * high + 16) of `word`: the XOR of its four
// nibbles' lookups. Nibble i (x^(4i) .. x^(4i+3)) is the i-th from the halfword's top.
WARP_HD WARP_INLINE Gf128 halfword_times_ht(const std::uint32_t* tables, std::uint32_t word,
                                            bool high, std::uint32_t lane16) {
    const int top = high ? 28 : 12;  // bit position of nibble 0
    Gf128 sum = nibble_lookup_of(tables, 0, word, top, lane16);
    WARP_UNROLL
    for (std::uint32_t i = 1; i < kNibblePositions; ++i)
        sum = gf128_xor(sum, nibble_lookup_of(tables, i, word, top - 4 * static_cast<int>(i),
                                              lane16));
    return sum;
}

// z·x^16: the 128-bit value shifted by 16 bits towards w[3], and the 16 bits that fall off
// w[3] (x^128 .. x^143) folded back by x^128 = 1 + x + x^2 + x^7: as bits of w[0] they are
// t = w[3] << 16 (x^0 .. x^15), and t·(1 + x + x^2 + x^7) reaches x^22 at most, inside w[0].
WARP_HD WARP_INLINE Gf128 gf128_times_x16(const Gf128& z) {
    const std::uint32_t t = z.w[3] << 16;
    return {{(z.w[0] >> 16) ^ t ^ (t >> 1) ^ (t >> 2) ^ (t >> 7), (z.w[1] >> 16) | (z.w[0] << 16),
             (z.w[2] >> 16) | (z.w[1] << 16), (z.w[3] >> 16) | (z.w[2] << 16)}};
}

// x * H^T with the positioned tables of H^T (see the top of the file), halfword 7 (the last,
// low half of w[3]) first. Fully unrolled: every shift amount is a constant.
WARP_HD WARP_INLINE Gf128 gf128_mul_fixed(const Gf128& x, const std::uint32_t* tables,
                                          std::uint32_t lane) {
    const std::uint32_t lane16 = lane * 16;
    Gf128 z = halfword_times_ht(tables, x.w[3], false, lane16);
    WARP_UNROLL
    for (int h = 6; h >= 0; --h)
        z = gf128_xor(gf128_times_x16(z), halfword_times_ht(tables, x.w[h / 2], h % 2 == 0, lane16));
    return z;
}

}  // namespace warp::cuda::device
