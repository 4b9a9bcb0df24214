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
//   of a thread's GHASH Horner loop needs, Shoup's 4-bit method: the 16 multiples
//   M[v] = v(x)·H^T of the 4-bit polynomials v are precomputed per key (GcmKeyTables::
//   h_t_nibbles), and X·H^T = sum over X's 32 nibbles n_k of M[n_k]·x^(4k), evaluated by Horner
//   from the last nibble: Z = Z·x^4 + M[n_k]. Z·x^4 shifts four bits out of w[3]; their
//   reduction is the 16-entry table R below. Both tables are indexed by secret nibbles, so the
//   kernels keep them in shared memory replicated per lane exactly as the AES tables
//   (aes_tables.hpp: no bank conflict, so no timing that depends on the index):
//   M as [entry][lane][4 words] (lane L's 16-byte entry is one 128-bit load, and the eight
//   lanes served together by a 128-bit shared access cover all 32 banks), R as word
//   r * 32 + lane.
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

// The 4-bit polynomial v (bit 3 = coefficient of x^0) as an element: v in the top nibble.
WARP_HD constexpr Gf128 gf128_nibble(std::uint32_t v) { return {{v << 28, 0, 0, 0}}; }

// R[r]: what the four bits r shifted out of w[3] by Z·x^4 add to w[0] (bit 3 of r was the
// coefficient of x^124, now x^128 = 0xE1 at the top; each lower bit one position further).
WARP_HD constexpr std::uint32_t gf128_reduce4_entry(std::uint32_t r) {
    return ((0xe100u & (0u - ((r >> 3) & 1u))) ^ (0x7080u & (0u - ((r >> 2) & 1u))) ^
            (0x3840u & (0u - ((r >> 1) & 1u))) ^ (0x1c20u & (0u - (r & 1u))))
           << 16;
}
static_assert(gf128_reduce4_entry(1) == 0x1c200000u && gf128_reduce4_entry(15) == 0xb5e00000u);

// A block loaded by load_block_aligned (little-endian words) as an element, and back.
WARP_HD WARP_INLINE Gf128 gf128_from_block(const Words4& b) {
    return {{byte_swap32(b.w[0]), byte_swap32(b.w[1]), byte_swap32(b.w[2]), byte_swap32(b.w[3])}};
}
WARP_HD WARP_INLINE Words4 gf128_to_block(const Gf128& x) {
    return {{byte_swap32(x.w[0]), byte_swap32(x.w[1]), byte_swap32(x.w[2]), byte_swap32(x.w[3])}};
}

// Shared-memory layout of the two GHASH tables (see the top of the file).
inline constexpr std::uint32_t kNibbleEntries = 16;
inline constexpr std::uint32_t kNibbleTableWords = kNibbleEntries * kLanes * 4;  // 8 KiB
inline constexpr std::uint32_t kReduceTableWords = kNibbleEntries * kLanes;      // 2 KiB

WARP_HD WARP_INLINE constexpr std::uint32_t nibble_slot(std::uint32_t entry, std::uint32_t lane) {
    return (entry * kLanes + lane) * 4;  // first word of lane `lane`'s copy of M[entry]
}

WARP_HD WARP_INLINE Gf128 nibble_lookup(const std::uint32_t* nibble_table, std::uint32_t entry,
                                        std::uint32_t lane) {
    const Words4 m = load_words4(nibble_table + nibble_slot(entry, lane));
    return {{m.w[0], m.w[1], m.w[2], m.w[3]}};
}

// The word at byte `offset` of a table (offsets computed as below).
WARP_HD WARP_INLINE const std::uint32_t* at_byte(const std::uint32_t* table, std::uint32_t offset) {
    return reinterpret_cast<const std::uint32_t*>(reinterpret_cast<const unsigned char*>(table) +
                                                  offset);
}

// nibble_lookup of the nibble at bits [pos, pos + 4) of `word`, in fewer instructions: lane
// L's copy of M[n] starts at byte n * 512 + L * 16, so one shift puts the nibble at bit 9 and
// one LOP3 keeps it and adds the lane's part (lane16 = lane * 16, computed once); `pos` is a
// constant once the caller's loop is unrolled. The layout,
// and so lane L reading banks 4L % 32 .. 4L % 32 + 3 only, is unchanged.
WARP_HD WARP_INLINE Gf128 nibble_lookup_of(const std::uint32_t* nibble_table, std::uint32_t word,
                                           int pos, std::uint32_t lane16) {
    // A right shift (pos >= 12 here) as mul_high, on the FMA pipe, like aes_tables' row_lookup.
    const std::uint32_t moved = pos >= 12 ? mul_high(word, 1u << (41 - pos))
                                : pos >= 9 ? word >> (pos - 9)
                                           : word << (9 - pos);
    const Words4 m = load_words4(at_byte(nibble_table, (moved & (0xfu << 9)) | lane16));
    return {{m.w[0], m.w[1], m.w[2], m.w[3]}};
}

// x * H^T with the replicated tables of H^T's multiples (nibble_table) and of R
// (reduce_table). Fully unrolled: every shift amount is a constant. Table offsets as in
// nibble_lookup_of; R's word r of lane L is at byte r * 128 + L * 4.
WARP_HD WARP_INLINE Gf128 gf128_mul_fixed(const Gf128& x, const std::uint32_t* nibble_table,
                                          const std::uint32_t* reduce_table, std::uint32_t lane) {
    const std::uint32_t lane4 = lane * 4, lane16 = lane * 16;
    Gf128 z = nibble_lookup_of(nibble_table, x.w[3], 0, lane16);  // nibble 31
    WARP_UNROLL
    for (int k = 30; k >= 0; --k) {
        const std::uint32_t r_offset = ((z.w[3] << 7) & (0xfu << 7)) | lane4;
        z.w[3] = (z.w[3] >> 4) | (z.w[2] << 28);
        z.w[2] = (z.w[2] >> 4) | (z.w[1] << 28);
        z.w[1] = (z.w[1] >> 4) | (z.w[0] << 28);
        z.w[0] = (z.w[0] >> 4) ^ *at_byte(reduce_table, r_offset);
        // Nibble k is in word k / 8; the high nibble of each byte comes first.
        z = gf128_xor(z, nibble_lookup_of(nibble_table, x.w[k / 8], 28 - 4 * (k % 8), lane16));
    }
    return z;
}

}  // namespace warp::cuda::device
