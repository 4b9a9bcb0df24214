// GHASH on VPCLMULQDQ, W::kBlocks blocks per vector, aggregated over a whole step of
// kGhashVectors vectors with one reduction (the method of the Linux kernel's
// aes-gcm-vaes-avx2.S and aes-gcm-avx10-x86_64.S, which build both widths from one macro
// body; here templates on the width W: vector256.hpp's Ymm and avx512/vector512.hpp's Zmm).
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
// so n independent products can be summed unreduced (lo, mid, hi) and reduced once. With a
// step's worth of powers stored (16 at 256 bits) that is one reduction per step. The middle
// term uses Karatsuba: mid = (a_lo + a_hi)(b_lo + b_hi) + lo + hi, with (b_lo + b_hi)
// precomputed per power.
//
// Every width-generic function carries WARP_VAES_TARGET, the including file's target
// attribute for its width (gcm.cpp); the 128-bit helpers carry the AVX2 one, which every
// wider target includes.
#pragma once

#ifndef WARP_VAES_TARGET
#error "define WARP_VAES_TARGET (the target attribute of the vector width) before ghash_vaes.hpp"
#endif

#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "engine/x86/isa.hpp"

namespace warp::x86::vaes {

inline constexpr int kGhashVectors = 8;  // vectors per aggregated step

template <typename W>
inline constexpr int kGhashPowers = W::kBlocks * kGhashVectors;  // blocks per step
template <typename W>
inline constexpr std::size_t kGhashStepBytes = 16 * kGhashPowers<W>;

// powers[k] = H^(P-k) (k = 0..P-1, P = kGhashPowers) so that a vector load at
// powers[P - n + B v] yields the powers for blocks B v .. B v + B-1 of an n-block run (B =
// W::kBlocks); the zero entries after them pad a run whose length is not a multiple of B.
// folded[k]: both 64-bit halves hold hi(powers[k]) ^ lo(powers[k]), Karatsuba's middle factor.
template <typename W>
struct GhashKey {
    alignas(64) std::uint8_t powers[kGhashPowers<W> + W::kBlocks - 1][16];
    alignas(64) std::uint8_t folded[kGhashPowers<W> + W::kBlocks - 1][16];
};

WARP_TARGET_VAES_AVX2 inline __m128i byte_reverse_mask128() {
    return _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
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

// Multiplies the byte-reversed H by x (in the reversed order: a left shift by one with the
// carry out of bit 127 folded back by the reduction constant). Without a branch: H is secret.
WARP_TARGET_VAES_AVX2 inline __m128i ghash_times_x(__m128i h) {
    const auto lo = static_cast<std::uint64_t>(_mm_cvtsi128_si64(h));
    const auto hi = static_cast<std::uint64_t>(_mm_extract_epi64(h, 1));
    const std::uint64_t overflow = 0 - (hi >> 63);
    const std::uint64_t new_hi = ((hi << 1) | (lo >> 63)) ^ (overflow & 0xc200000000000000ULL);
    const std::uint64_t new_lo = (lo << 1) ^ (overflow & 1);
    return _mm_set_epi64x(static_cast<long long>(new_hi), static_cast<long long>(new_lo));
}

// H = E_K(0^128) as the cipher produced it (normal byte order).
template <typename W>
WARP_VAES_TARGET void init_ghash_key(GhashKey<W>& key, __m128i h) {
    constexpr int kPowers = kGhashPowers<W>;
    const __m128i h1 = ghash_times_x(_mm_shuffle_epi8(h, byte_reverse_mask128()));
    __m128i power = h1;
    for (int n = 1; n <= kPowers; ++n) {
        const int k = kPowers - n;
        _mm_store_si128(reinterpret_cast<__m128i*>(key.powers[k]), power);
        _mm_store_si128(reinterpret_cast<__m128i*>(key.folded[k]),
                        _mm_xor_si128(power, _mm_shuffle_epi32(power, 0x4e)));
        power = ghash_mul(power, h1);
    }
    for (int k = kPowers; k < kPowers + W::kBlocks - 1; ++k) {
        std::memset(key.powers[k], 0, 16);
        std::memset(key.folded[k], 0, 16);
    }
}

// Unreduced sums of products, W::kBlocks blocks per lane set.
template <typename W>
struct GhashSums {
    typename W::V lo, mid, hi;
};

// A function, not default member initializers: those would be compiled without the width's
// target attribute.
template <typename W>
WARP_VAES_TARGET inline GhashSums<W> ghash_sums_zero() {
    return {W::zero(), W::zero(), W::zero()};
}

template <typename W>
WARP_VAES_TARGET inline typename W::V load_powers(const GhashKey<W>& key, int index) {
    return W::load(key.powers[index]);
}
template <typename W>
WARP_VAES_TARGET inline typename W::V load_folded(const GhashKey<W>& key, int index) {
    return W::load(key.folded[index]);
}

// Adds data * powers to the sums; `data` already byte-reversed (and holding the accumulator,
// if this is the first vector of a run). power_index: see GhashKey.
template <typename W>
WARP_VAES_TARGET inline void ghash_accumulate(GhashSums<W>& s, const GhashKey<W>& key,
                                              typename W::V data, int power_index) {
    const typename W::V h = load_powers(key, power_index);
    const typename W::V data_folded = W::xor_(data, W::swap_qwords(data));
    s.lo = W::xor_(s.lo, W::template clmul<0x00>(data, h));
    s.hi = W::xor_(s.hi, W::template clmul<0x11>(data, h));
    s.mid = W::xor_(s.mid, W::template clmul<0x00>(data_folded, load_folded(key, power_index)));
}

// One of ghash_reduce's two folds in every 128-bit lane: `low`'s low half, times the
// reduction constant `poly` (broadcast), and its halves swapped, added into `high`.
template <typename W>
WARP_VAES_TARGET inline typename W::V ghash_fold(typename W::V low, typename W::V high,
                                                 typename W::V poly) {
    return W::xor3(high, W::swap_qwords(low), W::template clmul<0x01>(poly, low));
}

// ghash_reduce in every 128-bit lane at once.
template <typename W>
WARP_VAES_TARGET inline typename W::V ghash_reduce_lanes(typename W::V lo, typename W::V mid,
                                                         typename W::V hi) {
    const typename W::V poly = W::broadcast(reduction_constant128());
    return ghash_fold<W>(ghash_fold<W>(lo, mid, poly), hi, poly);
}

// Sums -> reduced accumulator: finish Karatsuba, reduce every lane, add the lanes. Reduction
// is linear, so reducing the lanes before adding them gives the same result as adding first,
// and adds one set of lanes instead of three: at 512 bits, 3 lane extractions and 3 XORs per
// step instead of 9 and 9, on the vector port that the AES unit does not use
// (docs/performance.md, "AES-256-GCM on AVX-512").
template <typename W>
WARP_VAES_TARGET inline __m128i ghash_finish(const GhashSums<W>& s) {
    const typename W::V mid = W::xor_(s.mid, W::xor_(s.lo, s.hi));
    return W::fold_lanes(ghash_reduce_lanes<W>(s.lo, mid, s.hi));
}

template <typename W>
WARP_VAES_TARGET inline typename W::V load_reversed(const std::uint8_t* p) {
    return W::byte_reverse(W::load(p));
}

// Hashes exactly one step (kGhashPowers blocks) at p.
template <typename W>
WARP_VAES_TARGET inline __m128i ghash_step(const GhashKey<W>& key, __m128i acc,
                                           const std::uint8_t* p) {
    GhashSums<W> s = ghash_sums_zero<W>();
#pragma GCC unroll 8
    for (int v = 0; v < kGhashVectors; ++v) {
        typename W::V d = load_reversed<W>(p + 16 * W::kBlocks * v);
        if (v == 0) d = W::add_to_first_block(d, acc);
        ghash_accumulate(s, key, d, W::kBlocks * v);
    }
    return ghash_finish(s);
}

// Hashes 1..kGhashStepBytes bytes (the last block zero-padded) with one reduction.
template <typename W>
WARP_VAES_TARGET inline __m128i ghash_run(const GhashKey<W>& key, __m128i acc,
                                          const std::uint8_t* p, std::size_t len) {
    constexpr std::size_t kVectorBytes = 16 * W::kBlocks;
    const int blocks = static_cast<int>((len + 15) / 16);
    int power_index = kGhashPowers<W> - blocks;
    GhashSums<W> s = ghash_sums_zero<W>();
    __m128i first = acc;
    for (; len >= kVectorBytes; len -= kVectorBytes, p += kVectorBytes, power_index += W::kBlocks) {
        ghash_accumulate(s, key, W::add_to_first_block(load_reversed<W>(p), first), power_index);
        first = _mm_setzero_si128();
    }
    if (len > 0) {
        alignas(64) std::uint8_t last[kVectorBytes] = {};
        std::memcpy(last, p, len);
        ghash_accumulate(s, key, W::add_to_first_block(load_reversed<W>(last), first),
                         power_index);
    }
    return ghash_finish(s);
}

// X <- GHASH_H(X, data zero-padded to a whole block), any length (0 allowed).
template <typename W>
WARP_VAES_TARGET __m128i ghash_update(const GhashKey<W>& key, __m128i acc,
                                      const std::uint8_t* data, std::size_t len) {
    for (; len >= kGhashStepBytes<W>; len -= kGhashStepBytes<W>, data += kGhashStepBytes<W>)
        acc = ghash_step(key, acc, data);
    if (len > 0) acc = ghash_run(key, acc, data, len);
    return acc;
}

}  // namespace warp::x86::vaes
