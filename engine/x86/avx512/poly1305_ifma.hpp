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

// The multipliers, per chunk (r is the chunk's): r^8 for the Horner steps, and r^(8-j) in lane
// j for leaving. Each as limbs r0, r1, r2, then 20 r1, 20 r2. Key material: the driver wipes
// it with the chunk.
struct IfmaPowers {
    alignas(64) std::uint64_t last[5][kPolyLanes];
    std::uint64_t step[5];
    bool ready = false;
};

// Fills `powers` from the clamped r = r0 + r1 2^64 (chacha20_poly1305.cpp; scalar, once per
// chunk that has a vector group).
void compute_ifma_powers(IfmaPowers& powers, std::uint64_t r0, std::uint64_t r1);

struct Limbs8 {
    __m512i l0, l1, l2;
};

struct Multiplier8 {
    __m512i r0, r1, r2, s1, s2;  // s1 = 20 r1, s2 = 20 r2
};

inline constexpr std::uint64_t kMask44 = (std::uint64_t{1} << 44) - 1;
inline constexpr std::uint64_t kMask42 = (std::uint64_t{1} << 42) - 1;

WARP_TARGET_AVX512_IFMA static inline __m512i splat(std::uint64_t x) {
    return _mm512_set1_epi64(static_cast<long long>(x));
}

// Shifts through their zero-masking forms with every lane selected (the same instructions):
// GCC 12's unmasked ones start from _mm512_undefined_epi32(), which -Wuninitialized reports.
constexpr __mmask8 kAllLanes = 0xff;

template <unsigned kBits>
WARP_TARGET_AVX512_IFMA static inline __m512i shl(__m512i x) {
    return _mm512_maskz_slli_epi64(kAllLanes, x, kBits);
}

template <unsigned kBits>
WARP_TARGET_AVX512_IFMA static inline __m512i shr(__m512i x) {
    return _mm512_maskz_srli_epi64(kAllLanes, x, kBits);
}

// The sum of the eight lanes.
WARP_TARGET_AVX512_IFMA static inline std::uint64_t lane_sum(__m512i x) {
    const __m256i halves = _mm256_add_epi64(_mm512_maskz_extracti64x4_epi64(0xf, x, 0),
                                            _mm512_maskz_extracti64x4_epi64(0xf, x, 1));
    const __m128i quarters = _mm_add_epi64(_mm256_castsi256_si128(halves),
                                           _mm256_extracti128_si256(halves, 1));
    return static_cast<std::uint64_t>(_mm_cvtsi128_si64(quarters)) +
           static_cast<std::uint64_t>(_mm_extract_epi64(quarters, 1));
}

WARP_TARGET_AVX512_IFMA static inline Multiplier8 step_multiplier(const IfmaPowers& p) {
    return {splat(p.step[0]), splat(p.step[1]), splat(p.step[2]), splat(p.step[3]),
            splat(p.step[4])};
}

WARP_TARGET_AVX512_IFMA static inline Multiplier8 last_multiplier(const IfmaPowers& p) {
    return {_mm512_load_si512(p.last[0]), _mm512_load_si512(p.last[1]),
            _mm512_load_si512(p.last[2]), _mm512_load_si512(p.last[3]),
            _mm512_load_si512(p.last[4])};
}

// Eight 16-byte blocks (128 bytes) as limbs, block j in lane j, with the 2^128 bit of a full
// block (2^40 in limb 2).
WARP_TARGET_AVX512_IFMA static inline Limbs8 message_limbs(const std::uint8_t* src) {
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

// A radix-2^64 value (h2 small) as limbs in lane 0, the other lanes zero.
WARP_TARGET_AVX512_IFMA static inline Limbs8 lane0_limbs(const Value& h) {
    const std::uint64_t l0 = h.h0 & kMask44;
    const std::uint64_t l1 = ((h.h0 >> 44) | (h.h1 << 20)) & kMask44;
    const std::uint64_t l2 = (h.h1 >> 24) | (h.h2 << 40);
    const __mmask8 lane0 = 1;
    return {_mm512_maskz_set1_epi64(lane0, static_cast<long long>(l0)),
            _mm512_maskz_set1_epi64(lane0, static_cast<long long>(l1)),
            _mm512_maskz_set1_epi64(lane0, static_cast<long long>(l2))};
}

WARP_TARGET_AVX512_IFMA static inline Limbs8 add(const Limbs8& a, const Limbs8& b) {
    return {_mm512_add_epi64(a.l0, b.l0), _mm512_add_epi64(a.l1, b.l1),
            _mm512_add_epi64(a.l2, b.l2)};
}

// u * r + m (mod p) in every lane, carried back to limbs of at most 44, 45 and 42 bits
// (inputs: limbs below 2^46, r's powers fully reduced).
//   limb 0 at 2^0:   u0 r0 + u1 (20 r2) + u2 (20 r1)
//   limb 1 at 2^44:  u0 r1 + u1 r0 + u2 (20 r2)
//   limb 2 at 2^88:  u0 r2 + u1 r1 + u2 r0
// The high halves of limb i's products sit 52 bits up: 8 bits into limb i+1, and limb 2's at
// 2^140 = 2^10 2^130 = 5 2^10 (mod p).
WARP_TARGET_AVX512_IFMA static inline Limbs8 multiply_add(const Limbs8& u, const Multiplier8& r,
                                                          const Limbs8& m) {
    const __m512i zero = _mm512_setzero_si512();
    __m512i d0 = _mm512_madd52lo_epu64(m.l0, u.l0, r.r0);
    __m512i h0 = _mm512_madd52hi_epu64(zero, u.l0, r.r0);
    __m512i d1 = _mm512_madd52lo_epu64(m.l1, u.l0, r.r1);
    __m512i h1 = _mm512_madd52hi_epu64(zero, u.l0, r.r1);
    __m512i d2 = _mm512_madd52lo_epu64(m.l2, u.l0, r.r2);
    __m512i h2 = _mm512_madd52hi_epu64(zero, u.l0, r.r2);
    d0 = _mm512_madd52lo_epu64(d0, u.l1, r.s2);
    h0 = _mm512_madd52hi_epu64(h0, u.l1, r.s2);
    d1 = _mm512_madd52lo_epu64(d1, u.l1, r.r0);
    h1 = _mm512_madd52hi_epu64(h1, u.l1, r.r0);
    d2 = _mm512_madd52lo_epu64(d2, u.l1, r.r1);
    h2 = _mm512_madd52hi_epu64(h2, u.l1, r.r1);
    d0 = _mm512_madd52lo_epu64(d0, u.l2, r.s1);
    h0 = _mm512_madd52hi_epu64(h0, u.l2, r.s1);
    d1 = _mm512_madd52lo_epu64(d1, u.l2, r.s2);
    h1 = _mm512_madd52hi_epu64(h1, u.l2, r.s2);
    d2 = _mm512_madd52lo_epu64(d2, u.l2, r.r0);
    h2 = _mm512_madd52hi_epu64(h2, u.l2, r.r0);

    const __m512i mask44 = splat(kMask44);
    __m512i t0 = d0;
    __m512i t1 = _mm512_add_epi64(d1, shl<8>(h0));
    __m512i t2 = _mm512_add_epi64(d2, shl<8>(h1));
    t1 = _mm512_add_epi64(t1, shr<44>(t0));
    t0 = _mm512_and_si512(t0, mask44);
    t2 = _mm512_add_epi64(t2, shr<44>(t1));
    t1 = _mm512_and_si512(t1, mask44);
    // Everything from 2^130 up, times 5, back into limb 0.
    const __m512i over = _mm512_add_epi64(shr<42>(t2), shl<10>(h2));
    t2 = _mm512_and_si512(t2, splat(kMask42));
    t0 = _mm512_add_epi64(t0, _mm512_add_epi64(over, shl<2>(over)));
    t1 = _mm512_add_epi64(t1, shr<44>(t0));
    t0 = _mm512_and_si512(t0, mask44);
    return {t0, t1, t2};
}

// sum_j (U r^(8-j))_j: the value the lanes hold, in radix 2^64 with h2 <= 4.
WARP_TARGET_AVX512_IFMA static inline Value leave_lanes(const Limbs8& u,
                                                        const Multiplier8& last) {
    const __m512i zero = _mm512_setzero_si512();
    const Limbs8 v = multiply_add(u, last, {zero, zero, zero});
    // Eight lanes of limbs below 2^45: sums below 2^48.
    const std::uint64_t s0 = lane_sum(v.l0), s1 = lane_sum(v.l1), s2 = lane_sum(v.l2);
    using avx2::poly_scalar::high64;
    using avx2::poly_scalar::low64;
    using avx2::poly_scalar::U128;
    const U128 low = U128{s0} + (U128{s1} << 44);  // below 2^92
    const U128 high = U128{high64(low)} + (U128{s2} << 24);  // s2 2^88 = (s2 2^24) 2^64
    Value h{low64(low), low64(high), high64(high)};
    // Bits from 2^130 up fold back times 5: (h2 >> 2) * 5 = (h2 & ~3) + (h2 >> 2).
    const std::uint64_t fold = (h.h2 & ~std::uint64_t{3}) + (h.h2 >> 2);
    h.h2 &= 3;
    U128 t = U128{h.h0} + fold;
    h.h0 = low64(t);
    t = U128{h.h1} + high64(t);
    h.h1 = low64(t);
    h.h2 += high64(t);
    return h;
}

}  // namespace warp::x86::avx512
