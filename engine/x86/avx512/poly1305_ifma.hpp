// Poly1305 on eight lanes with AVX-512 IFMA (vpmadd52luq/vpmadd52huq), for the stitched
// ChaCha20-Poly1305 of chacha20_poly1305.cpp.
//
// Radix 2^44: a number mod p = 2^130 - 5 is three limbs of 44, 44 and 42 bits, one number per
// 64-bit lane. IFMA multiplies the low 52 bits of two lanes and adds the low (luq) or high
// (huq) 52 bits of the 104-bit product to a 64-bit accumulator, so every limb must stay below
// 2^52 when multiplied; the carries below keep them at 44-46 bits. Products that land at
// 2^132 and above fold back as 2^132 = 4 * 2^130 = 20 (mod p): the multiplier carries 20 r1
// and 20 r2 beside r0, r1, r2.
//
// Eight lanes run Horner with the multiplier r^8, lane j taking every eighth block from j.
// The state U is kept such that the value absorbed so far is h = sum_j U_j r^(8-j):
//   absorbing eight blocks M:  U <- U r^8 + M   (h r^8 + sum_j M_j r^(8-j), as Horner wants)
//   or sixteen, M then M':     U <- U r^16 + M r^8 + M'  (both products in the same columns,
//                              one carry for the two: a fifth fewer instructions per block)
//   entering from a scalar h:  U <- M + (h in lane 0)  (the first eight blocks)
//   leaving to a scalar h:     h = sum_j (U r^(8-j))_j, one multiply by a per-lane multiplier
// so a stitched step enters from the driver's radix-2^64 state and leaves to it, and nothing
// about the lanes outlives the step.
//
// Constant time: multiplies, adds, shifts and masks; how many groups run depends on the length
// only (public).
#pragma once

#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "engine/x86/avx2/poly1305_scalar.hpp"
#include "engine/x86/isa.hpp"

namespace warp::x86::avx512 {

using avx2::poly_scalar::Value;

inline constexpr std::size_t kPolyLanes = 8;
inline constexpr std::size_t kPolyGroupBytes = kPolyLanes * 16;

// The multipliers, per chunk (r is the chunk's): r^8 and r^16 for the Horner steps, and
// r^(8-j) in lane j for leaving. Each as limbs r0, r1, r2, then 20 r1, 20 r2. Key material:
// the driver wipes it with the chunk.
struct IfmaPowers {
    alignas(64) std::uint64_t last[5][kPolyLanes];
    std::uint64_t step[5];         // r^8
    std::uint64_t double_step[5];  // r^16
    std::size_t highest = 0;       // the powers filled: r^1 .. r^highest
};

// Fills `powers` up to r^highest (8 or 16) from the clamped r = r0 + r1 2^64
// (chacha20_poly1305.cpp; scalar, once per chunk, and only as far as its groups need).
void compute_ifma_powers(IfmaPowers& powers, std::uint64_t r0, std::uint64_t r1,
                         std::size_t highest);

struct Limbs8 {
    __m512i l0, l1, l2;
};

struct Multiplier8 {
    __m512i r0, r1, r2, s1, s2;  // s1 = 20 r1, s2 = 20 r2
};

inline constexpr std::uint64_t kMask44 = (std::uint64_t{1} << 44) - 1;
inline constexpr std::uint64_t kMask42 = (std::uint64_t{1} << 42) - 1;

[[gnu::always_inline]] WARP_TARGET_AVX512_IFMA static inline __m512i splat(std::uint64_t x) {
    return _mm512_set1_epi64(static_cast<long long>(x));
}

// Shifts through their zero-masking forms with every lane selected (the same instructions):
// GCC 12's unmasked ones start from _mm512_undefined_epi32(), which -Wuninitialized reports.
constexpr __mmask8 kAllLanes = 0xff;

template <unsigned kBits>
[[gnu::always_inline]] WARP_TARGET_AVX512_IFMA static inline __m512i shl(__m512i x) {
    return _mm512_maskz_slli_epi64(kAllLanes, x, kBits);
}

template <unsigned kBits>
[[gnu::always_inline]] WARP_TARGET_AVX512_IFMA static inline __m512i shr(__m512i x) {
    return _mm512_maskz_srli_epi64(kAllLanes, x, kBits);
}

// The sum of the eight lanes.
[[gnu::always_inline]] WARP_TARGET_AVX512_IFMA static inline std::uint64_t lane_sum(__m512i x) {
    const __m256i halves = _mm256_add_epi64(_mm512_maskz_extracti64x4_epi64(0xf, x, 0),
                                            _mm512_maskz_extracti64x4_epi64(0xf, x, 1));
    const __m128i quarters = _mm_add_epi64(_mm256_castsi256_si128(halves),
                                           _mm256_extracti128_si256(halves, 1));
    return static_cast<std::uint64_t>(_mm_cvtsi128_si64(quarters)) +
           static_cast<std::uint64_t>(_mm_extract_epi64(quarters, 1));
}

// A Horner step's multiplier: the same limbs in every lane.
[[gnu::always_inline]] WARP_TARGET_AVX512_IFMA static inline Multiplier8 splat_multiplier(
    const std::uint64_t (&limbs)[5]) {
    return {splat(limbs[0]), splat(limbs[1]), splat(limbs[2]), splat(limbs[3]), splat(limbs[4])};
}

[[gnu::always_inline]] WARP_TARGET_AVX512_IFMA static inline Multiplier8 last_multiplier(
    const IfmaPowers& p) {
    return {_mm512_load_si512(p.last[0]), _mm512_load_si512(p.last[1]),
            _mm512_load_si512(p.last[2]), _mm512_load_si512(p.last[3]),
            _mm512_load_si512(p.last[4])};
}

// Eight 16-byte blocks (128 bytes) as limbs, block j in lane j, with the 2^128 bit of a full
// block (2^40 in limb 2).
[[gnu::always_inline]] WARP_TARGET_AVX512_IFMA static inline Limbs8 message_limbs(
    const std::uint8_t* src) {
    const __m512i first = _mm512_loadu_si512(src);        // blocks 0..3: low, high, low, ...
    const __m512i second = _mm512_loadu_si512(src + 64);  // blocks 4..7
    const __m512i low = _mm512_permutex2var_epi64(
        first, _mm512_setr_epi64(0, 2, 4, 6, 8, 10, 12, 14), second);
    const __m512i high = _mm512_permutex2var_epi64(
        first, _mm512_setr_epi64(1, 3, 5, 7, 9, 11, 13, 15), second);
    const __m512i mask44 = splat(kMask44);
    return {_mm512_and_si512(low, mask44),
            _mm512_and_si512(
                _mm512_or_si512(shr<44>(low), shl<20>(high)),
                mask44),
            _mm512_or_si512(shr<24>(high), splat(std::uint64_t{1} << 40))};
}

// A radix-2^64 value (h2 small) as radix-2^44 limbs: bits 0..43, 44..87, and 88 up.
struct Limbs44 {
    std::uint64_t l0, l1, l2;
};

inline Limbs44 limbs44(const Value& h) {
    return {h.h0 & kMask44, ((h.h0 >> 44) | (h.h1 << 20)) & kMask44, (h.h1 >> 24) | (h.h2 << 40)};
}

// A radix-2^64 value (h2 small) as limbs in lane 0, the other lanes zero.
[[gnu::always_inline]] WARP_TARGET_AVX512_IFMA static inline Limbs8 lane0_limbs(const Value& h) {
    const Limbs44 l = limbs44(h);
    const __mmask8 lane0 = 1;
    return {_mm512_maskz_set1_epi64(lane0, static_cast<long long>(l.l0)),
            _mm512_maskz_set1_epi64(lane0, static_cast<long long>(l.l1)),
            _mm512_maskz_set1_epi64(lane0, static_cast<long long>(l.l2))};
}

[[gnu::always_inline]] WARP_TARGET_AVX512_IFMA static inline Limbs8 add(
    const Limbs8& a, const Limbs8& b) {
    return {_mm512_add_epi64(a.l0, b.l0), _mm512_add_epi64(a.l1, b.l1),
            _mm512_add_epi64(a.l2, b.l2)};
}

// Products accumulate in six columns before one carry: d (the low halves) and h (the high
// halves) of each limb, limb i at 2^(44 i):
//   limb 0 at 2^0:   u0 r0 + u1 (20 r2) + u2 (20 r1)
//   limb 1 at 2^44:  u0 r1 + u1 r0 + u2 (20 r2)
//   limb 2 at 2^88:  u0 r2 + u1 r1 + u2 r0
// The high halves of limb i's products sit 52 bits up: 8 bits into limb i+1, and limb 2's at
// 2^140 = 2^10 2^130 = 5 2^10 (mod p).
struct Columns {
    __m512i d0, d1, d2, h0, h1, h2;
};

// Columns holding m (added to the low halves: the message costs no instruction of its own).
[[gnu::always_inline]] WARP_TARGET_AVX512_IFMA static inline Columns columns_of(const Limbs8& m) {
    const __m512i zero = _mm512_setzero_si512();
    return {m.l0, m.l1, m.l2, zero, zero, zero};
}

// c += u * r, lane by lane.
[[gnu::always_inline]] WARP_TARGET_AVX512_IFMA static inline void accumulate(Columns& c,
                                                                           const Limbs8& u,
                                                                           const Multiplier8& r) {
    c.d0 = _mm512_madd52lo_epu64(c.d0, u.l0, r.r0);
    c.h0 = _mm512_madd52hi_epu64(c.h0, u.l0, r.r0);
    c.d1 = _mm512_madd52lo_epu64(c.d1, u.l0, r.r1);
    c.h1 = _mm512_madd52hi_epu64(c.h1, u.l0, r.r1);
    c.d2 = _mm512_madd52lo_epu64(c.d2, u.l0, r.r2);
    c.h2 = _mm512_madd52hi_epu64(c.h2, u.l0, r.r2);
    c.d0 = _mm512_madd52lo_epu64(c.d0, u.l1, r.s2);
    c.h0 = _mm512_madd52hi_epu64(c.h0, u.l1, r.s2);
    c.d1 = _mm512_madd52lo_epu64(c.d1, u.l1, r.r0);
    c.h1 = _mm512_madd52hi_epu64(c.h1, u.l1, r.r0);
    c.d2 = _mm512_madd52lo_epu64(c.d2, u.l1, r.r1);
    c.h2 = _mm512_madd52hi_epu64(c.h2, u.l1, r.r1);
    c.d0 = _mm512_madd52lo_epu64(c.d0, u.l2, r.s1);
    c.h0 = _mm512_madd52hi_epu64(c.h0, u.l2, r.s1);
    c.d1 = _mm512_madd52lo_epu64(c.d1, u.l2, r.s2);
    c.h1 = _mm512_madd52hi_epu64(c.h1, u.l2, r.s2);
    c.d2 = _mm512_madd52lo_epu64(c.d2, u.l2, r.r0);
    c.h2 = _mm512_madd52hi_epu64(c.h2, u.l2, r.r0);
}

// The columns' value mod p as limbs of at most 44, 45 and 42 bits. Bounds, for at most two
// products of multiplicands below 2^46 by fully reduced powers (limbs below 2^44, 2^44, 2^42,
// so 20 r1 < 2^49 and 20 r2 < 2^47), and a message: six low halves below 2^52, so d < 2^55;
// six high halves below 2^(46+49-52) = 2^43, so h < 2^46; h << 8 < 2^54; the fold from 2^130
// up, over, below 2^57 and 5 over below 2^60: every column and limb 0 before its last carry
// stay below 2^64.
[[gnu::always_inline]] WARP_TARGET_AVX512_IFMA static inline Limbs8 carry(const Columns& c) {
    const __m512i mask44 = splat(kMask44);
    __m512i t0 = c.d0;
    __m512i t1 = _mm512_add_epi64(c.d1, shl<8>(c.h0));
    __m512i t2 = _mm512_add_epi64(c.d2, shl<8>(c.h1));
    t1 = _mm512_add_epi64(t1, shr<44>(t0));
    t0 = _mm512_and_si512(t0, mask44);
    t2 = _mm512_add_epi64(t2, shr<44>(t1));
    t1 = _mm512_and_si512(t1, mask44);
    // Everything from 2^130 up, times 5, back into limb 0.
    const __m512i over = _mm512_add_epi64(shr<42>(t2), shl<10>(c.h2));
    t2 = _mm512_and_si512(t2, splat(kMask42));
    t0 = _mm512_add_epi64(t0, _mm512_add_epi64(over, shl<2>(over)));
    t1 = _mm512_add_epi64(t1, shr<44>(t0));
    t0 = _mm512_and_si512(t0, mask44);
    return {t0, t1, t2};
}

// u * r + m (mod p) in every lane.
[[gnu::always_inline]] WARP_TARGET_AVX512_IFMA static inline Limbs8 multiply_add(
    const Limbs8& u, const Multiplier8& r, const Limbs8& m) {
    Columns c = columns_of(m);
    accumulate(c, u, r);
    return carry(c);
}

// sum_j (U r^(8-j))_j: the value the lanes hold, in radix 2^64 with h2 <= 4.
[[gnu::always_inline]] WARP_TARGET_AVX512_IFMA static inline Value leave_lanes(const Limbs8& u,
                                                        const Multiplier8& last) {
    const __m512i zero = _mm512_setzero_si512();
    const Limbs8 v = multiply_add(u, last, {zero, zero, zero});
    // Eight lanes of limbs below 2^45: sums below 2^48.
    const std::uint64_t s0 = lane_sum(v.l0), s1 = lane_sum(v.l1), s2 = lane_sum(v.l2);
    using namespace avx2::poly_scalar;
    const U128 low = U128{s0} + (U128{s1} << 44);  // below 2^92
    const U128 high = U128{high64(low)} + (U128{s2} << 24);  // s2 2^88 = (s2 2^24) 2^64
    return fold_above_2_130(low64(low), low64(high), high64(high));
}

}  // namespace warp::x86::avx512
