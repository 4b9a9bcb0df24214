// GHASH on VPCLMULQDQ, two blocks per 256-bit vector, aggregated over up to 16 blocks with one
// reduction (the method of the Linux kernel's aes-gcm-vaes-avx2.S, written here in C++).
//
// Representation. GCM's polynomials are "bit-reflected": bit 7 of byte 0 is the coefficient of
// x^0. Byte-reversing a block (one VPSHUFB) turns it into a 128-bit integer whose bit 127 holds
// x^0, i.e. fully reversed order. A carry-less product of two reversed operands is the reversed
// product shifted by one bit; instead of shifting every product back, the hash key is stored
// pre-multiplied by x (init_ghash_key), which absorbs the shift once. Reduction modulo
// x^128 + x^7 + x^2 + x + 1 in this order becomes two folds by the constant
// 0xc2000000_00000000 (x^63 + x^62 + x^57 reversed): fold the low 64 bits into the middle,
// then the middle into the high half; each fold is one CLMUL plus a 64-bit half swap.
//
// Aggregation. Hashing blocks C_1..C_n into accumulator X is
//   X' = (X + C_1) H^n + C_2 H^(n-1) + ... + C_n H,
// so n independent products can be summed unreduced (lo, mid, hi) and reduced once. With 16
// powers stored that is one reduction per 256 bytes. The middle term uses Karatsuba:
//   mid = (a_lo + a_hi)(b_lo + b_hi) + lo + hi, with (b_lo + b_hi) precomputed per power.
#pragma once

#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "engine/x86/isa.hpp"

namespace warp::x86::vaes {

inline constexpr int kGhashPowers = 16;
inline constexpr std::size_t kGhashStepBytes = 16 * kGhashPowers;

// powers[k] = H^(16-k) (k = 0..15) so that a 32-byte load at powers[16 - n + 2v] yields the
// powers for blocks 2v and 2v+1 of an n-block run; powers[16] = 0 pads a run of odd length.
// folded[k]: both 64-bit halves hold hi(powers[k]) ^ lo(powers[k]), Karatsuba's middle factor.
struct GhashKey {
    alignas(32) std::uint8_t powers[kGhashPowers + 1][16];
    alignas(32) std::uint8_t folded[kGhashPowers + 1][16];
};

// H = E_K(0^128) as the cipher produced it (normal byte order).
void init_ghash_key(GhashKey& key, __m128i h);

// X <- GHASH_H(X, data zero-padded to a whole block), any length (0 allowed).
__m128i ghash_update(const GhashKey& key, __m128i acc, const std::uint8_t* data, std::size_t len);

WARP_TARGET_VAES_AVX2 inline __m128i byte_reverse_mask128() {
    return _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
}
WARP_TARGET_VAES_AVX2 inline __m256i byte_reverse_mask256() {
    return _mm256_broadcastsi128_si256(byte_reverse_mask128());
}

WARP_TARGET_VAES_AVX2 inline __m128i reduction_constant128() {
    return _mm_set_epi64x(static_cast<long long>(0xc200000000000000ULL), 1);
}

// (lo, mid, hi) unreduced 256-bit product -> reduced 128-bit result (two folds).
WARP_TARGET_VAES_AVX2 inline __m128i ghash_reduce(__m128i lo, __m128i mid, __m128i hi) {
    const __m128i poly = reduction_constant128();
    mid = _mm_xor_si128(mid, _mm_clmulepi64_si128(poly, lo, 0x01));
    mid = _mm_xor_si128(mid, _mm_shuffle_epi32(lo, 0x4e));
    hi = _mm_xor_si128(hi, _mm_clmulepi64_si128(poly, mid, 0x01));
    return _mm_xor_si128(hi, _mm_shuffle_epi32(mid, 0x4e));
}

// a * b in the stored representation (schoolbook; setup and one-block paths only).
WARP_TARGET_VAES_AVX2 inline __m128i ghash_mul(__m128i a, __m128i b) {
    const __m128i lo = _mm_clmulepi64_si128(a, b, 0x00);
    const __m128i mid = _mm_xor_si128(_mm_clmulepi64_si128(a, b, 0x01),
                                      _mm_clmulepi64_si128(a, b, 0x10));
    const __m128i hi = _mm_clmulepi64_si128(a, b, 0x11);
    return ghash_reduce(lo, mid, hi);
}

// Unreduced sums of products, two blocks per lane pair.
struct GhashSums {
    __m256i lo, mid, hi;
};

WARP_TARGET_VAES_AVX2 inline GhashSums ghash_sums_zero() {
    return {_mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256()};
}

// Adds data * powers to the sums; `data` already byte-reversed (and holding the accumulator,
// if this is the first vector of a run). power_index: see GhashKey.
WARP_TARGET_VAES_AVX2 inline void ghash_accumulate(GhashSums& s, const GhashKey& key,
                                                   __m256i data, int power_index) {
    const __m256i h = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(key.powers[power_index]));
    const __m256i hf = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(key.folded[power_index]));
    const __m256i data_folded = _mm256_xor_si256(data, _mm256_shuffle_epi32(data, 0x4e));
    s.lo = _mm256_xor_si256(s.lo, _mm256_clmulepi64_epi128(data, h, 0x00));
    s.hi = _mm256_xor_si256(s.hi, _mm256_clmulepi64_epi128(data, h, 0x11));
    s.mid = _mm256_xor_si256(s.mid, _mm256_clmulepi64_epi128(data_folded, hf, 0x00));
}

WARP_TARGET_VAES_AVX2 inline __m128i fold_lanes(__m256i v) {
    return _mm_xor_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
}

// Sums -> reduced accumulator: finish Karatsuba, add the two lanes, reduce once.
WARP_TARGET_VAES_AVX2 inline __m128i ghash_finish(const GhashSums& s) {
    const __m256i mid = _mm256_xor_si256(s.mid, _mm256_xor_si256(s.lo, s.hi));
    return ghash_reduce(fold_lanes(s.lo), fold_lanes(mid), fold_lanes(s.hi));
}

WARP_TARGET_VAES_AVX2 inline __m256i load_reversed(const std::uint8_t* p) {
    return _mm256_shuffle_epi8(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)),
                               byte_reverse_mask256());
}

// Puts the 128-bit accumulator into the low lane (block 2v of vector 0), zero high lane.
WARP_TARGET_VAES_AVX2 inline __m256i with_accumulator(__m256i data, __m128i acc) {
    return _mm256_xor_si256(data, _mm256_zextsi128_si256(acc));
}

// Hashes exactly 16 blocks at p.
WARP_TARGET_VAES_AVX2 inline __m128i ghash_16_blocks(const GhashKey& key, __m128i acc,
                                                     const std::uint8_t* p) {
    GhashSums s = ghash_sums_zero();
#pragma GCC unroll 8
    for (int v = 0; v < kGhashPowers / 2; ++v) {
        __m256i d = load_reversed(p + 32 * v);
        if (v == 0) d = with_accumulator(d, acc);
        ghash_accumulate(s, key, d, 2 * v);
    }
    return ghash_finish(s);
}

// Hashes 1..256 bytes (the last block zero-padded) with one reduction.
WARP_TARGET_VAES_AVX2 inline __m128i ghash_run(const GhashKey& key, __m128i acc,
                                               const std::uint8_t* p, std::size_t len) {
    const int blocks = static_cast<int>((len + 15) / 16);
    int power_index = kGhashPowers - blocks;
    GhashSums s = ghash_sums_zero();
    __m128i first = acc;
    for (; len >= 32; len -= 32, p += 32, power_index += 2) {
        ghash_accumulate(s, key, with_accumulator(load_reversed(p), first), power_index);
        first = _mm_setzero_si128();
    }
    if (len > 0) {
        alignas(32) std::uint8_t last[32] = {};
        std::memcpy(last, p, len);
        ghash_accumulate(s, key, with_accumulator(load_reversed(last), first), power_index);
    }
    return ghash_finish(s);
}

}  // namespace warp::x86::vaes
