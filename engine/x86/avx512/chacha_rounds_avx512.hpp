// ChaCha20 (RFC 8439 2.3) on sixteen blocks at once in ZMM registers, "vertical" as the AVX2
// kernel (avx2/chacha20_avx2.cpp): register i holds word i of sixteen consecutive blocks, one
// block per 32-bit lane, so every quarter round is lane-wise add, xor and rotate, and only the
// finished keystream is transposed back to block order (a 16x16 transpose of 32-bit words).
//
// What AVX-512 changes against AVX2: every rotation is one instruction (vprold) instead of a
// byte shuffle or shift-shift-or, and the 16 state rows fit in the 32 ZMM registers with room
// for the stitched Poly1305 beside them, so no row is spilled and no asm is needed for the
// register plan (compare avx2/chacha_double_round_asm.hpp).
//
// Every function carries WARP_TARGET_AVX512_IFMA and is static inline: each includer gets its
// own copy and nothing leaks into baseline code. Nothing branches on or indexes by secret data.
#pragma once

#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "engine/scalar/chacha/chacha_input.hpp"
#include "engine/x86/isa.hpp"

namespace warp::x86::avx512 {

using scalar::ChaChaInput;

inline constexpr int kDoubleRounds = 10;
inline constexpr std::size_t kBlocks16 = 16;
inline constexpr std::size_t kBlock16Bytes = kBlocks16 * 64;

// Unmasked rotates, unpacks and lane shuffles start from _mm512_undefined_epi32() in GCC 12,
// which -Wuninitialized reports at every use; the zero-masking forms with every lane selected
// are the same instructions.
constexpr __mmask16 kAll32 = 0xffff;
constexpr __mmask8 kAll64 = 0xff;

template <int Bits>
[[gnu::always_inline]] WARP_TARGET_AVX512_IFMA static inline __m512i rotl(__m512i x) {
    return _mm512_maskz_rol_epi32(kAll32, x, Bits);
}

[[gnu::always_inline]] WARP_TARGET_AVX512_IFMA static inline void quarter_round(
    __m512i& a, __m512i& b, __m512i& c, __m512i& d) {
    a = _mm512_add_epi32(a, b); d = rotl<16>(_mm512_xor_si512(d, a));
    c = _mm512_add_epi32(c, d); b = rotl<12>(_mm512_xor_si512(b, c));
    a = _mm512_add_epi32(a, b); d = rotl<8>(_mm512_xor_si512(d, a));
    c = _mm512_add_epi32(c, d); b = rotl<7>(_mm512_xor_si512(b, c));
}

[[gnu::always_inline]] WARP_TARGET_AVX512_IFMA static inline void double_round(__m512i (&x)[16]) {
    quarter_round(x[0], x[4], x[8], x[12]);
    quarter_round(x[1], x[5], x[9], x[13]);
    quarter_round(x[2], x[6], x[10], x[14]);
    quarter_round(x[3], x[7], x[11], x[15]);
    quarter_round(x[0], x[5], x[10], x[15]);
    quarter_round(x[1], x[6], x[11], x[12]);
    quarter_round(x[2], x[7], x[8], x[13]);
    quarter_round(x[3], x[4], x[9], x[14]);
}


// Word `word` of blocks counter .. counter+15: the input word in every lane, the block
// counter (wrapping modulo 2^32, as the scalar code) in word 12.
[[gnu::always_inline]] WARP_TARGET_AVX512_IFMA static inline __m512i input_row(
    const ChaChaInput& input, std::uint32_t counter, int word) {
    if (word != 12) return _mm512_set1_epi32(static_cast<int>(input.word[word]));
    return _mm512_add_epi32(_mm512_set1_epi32(static_cast<int>(counter)),
                            _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14,
                                              15));
}

// rows[w] holds word w of blocks 0..15; afterwards rows[b] holds words 0..15 of block b.
[[gnu::always_inline]] WARP_TARGET_AVX512_IFMA static inline void transpose16x16(
    __m512i (&rows)[16]) {
    // Per group of four words, a 4x4 transpose inside each 128-bit lane: quad[g][i] holds, in
    // lane L, words 4g..4g+3 of block 4L + i.
    __m512i quad[4][4];
    for (int g = 0; g < 4; ++g) {
        const __m512i* w = &rows[4 * g];
        const __m512i lo01 = _mm512_maskz_unpacklo_epi32(kAll32, w[0], w[1]);
        const __m512i hi01 = _mm512_maskz_unpackhi_epi32(kAll32, w[0], w[1]);
        const __m512i lo23 = _mm512_maskz_unpacklo_epi32(kAll32, w[2], w[3]);
        const __m512i hi23 = _mm512_maskz_unpackhi_epi32(kAll32, w[2], w[3]);
        quad[g][0] = _mm512_maskz_unpacklo_epi64(kAll64, lo01, lo23);
        quad[g][1] = _mm512_maskz_unpackhi_epi64(kAll64, lo01, lo23);
        quad[g][2] = _mm512_maskz_unpacklo_epi64(kAll64, hi01, hi23);
        quad[g][3] = _mm512_maskz_unpackhi_epi64(kAll64, hi01, hi23);
    }
    // Then a 4x4 transpose of 128-bit lanes: block 4L + i gathers lane L of quad[0..3][i].
    for (int i = 0; i < 4; ++i) {
        const __m512i g01_low = _mm512_maskz_shuffle_i32x4(kAll32, quad[0][i], quad[1][i], 0x44);
        const __m512i g01_high = _mm512_maskz_shuffle_i32x4(kAll32, quad[0][i], quad[1][i], 0xee);
        const __m512i g23_low = _mm512_maskz_shuffle_i32x4(kAll32, quad[2][i], quad[3][i], 0x44);
        const __m512i g23_high = _mm512_maskz_shuffle_i32x4(kAll32, quad[2][i], quad[3][i], 0xee);
        rows[i] = _mm512_maskz_shuffle_i32x4(kAll32, g01_low, g23_low, 0x88);
        rows[4 + i] = _mm512_maskz_shuffle_i32x4(kAll32, g01_low, g23_low, 0xdd);
        rows[8 + i] = _mm512_maskz_shuffle_i32x4(kAll32, g01_high, g23_high, 0x88);
        rows[12 + i] = _mm512_maskz_shuffle_i32x4(kAll32, g01_high, g23_high, 0xdd);
    }
}

// Sixteen blocks from `counter`: out = in ^ keystream, 1024 bytes (out == in allowed).
// between(round) runs after each double round (0..9) and once more after the last (10),
// before the keystream is transposed and stored: a stitched kernel puts its MAC there, so
// that it runs while these rounds keep the other vector port busy. Every call comes before
// this function's stores, so `between` may read `in` even when out == in. Between is a class
// whose call operator carries WARP_TARGET_AVX512_IFMA (a lambda's could not).
template <typename Between>
[[gnu::always_inline]] WARP_TARGET_AVX512_IFMA static inline void xor16_with(
    const ChaChaInput& input, std::uint32_t counter, const std::uint8_t* in, std::uint8_t* out,
    Between& between) {
    __m512i x[16];
    for (int w = 0; w < 16; ++w) x[w] = input_row(input, counter, w);
#pragma GCC unroll 10  // straight-line: `between` is compile-time code per round
    for (int round = 0; round < kDoubleRounds; ++round) {
        double_round(x);
        between(round);
    }
    between(kDoubleRounds);
    for (int w = 0; w < 16; ++w) x[w] = _mm512_add_epi32(x[w], input_row(input, counter, w));
    transpose16x16(x);
    for (std::size_t b = 0; b < kBlocks16; ++b) {
        const __m512i data = _mm512_loadu_si512(in + 64 * b);
        _mm512_storeu_si512(out + 64 * b, _mm512_xor_si512(data, x[b]));
    }
}

}  // namespace warp::x86::avx512
