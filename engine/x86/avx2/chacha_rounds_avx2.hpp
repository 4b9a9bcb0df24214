// The AVX2 ChaCha20 eight-block kernel (layout: see chacha20_avx2.cpp), kept apart from the
// drivers so a kernel that interleaves other work with the rounds can reuse it. Every function
// carries WARP_TARGET_AVX2 and is static inline: each includer gets its own AVX2 copy and
// nothing leaks into baseline code.
#pragma once

#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "engine/x86/avx2/chacha20_avx2.hpp"
#include "engine/x86/avx2/chacha_double_round_asm.hpp"
#include "engine/x86/isa.hpp"

namespace warp::x86::avx2::rounds {

constexpr int kDoubleRounds = 10;
constexpr std::size_t kWideBlocks = 8;
constexpr std::size_t kWideBytes = kWideBlocks * kChaChaBlockSize;

WARP_TARGET_AVX2 static inline __m256i rotl16(__m256i x) {
    const __m256i swap_halves = _mm256_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12,
                                                 13, 2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14,
                                                 15, 12, 13);
    return _mm256_shuffle_epi8(x, swap_halves);
}

WARP_TARGET_AVX2 static inline __m256i rotl8(__m256i x) {
    const __m256i rotate_bytes = _mm256_setr_epi8(3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12,
                                                  13, 14, 3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10,
                                                  15, 12, 13, 14);
    return _mm256_shuffle_epi8(x, rotate_bytes);
}

template <int Bits>
WARP_TARGET_AVX2 static inline __m256i rotl_shift(__m256i x) {
    return _mm256_or_si256(_mm256_slli_epi32(x, Bits), _mm256_srli_epi32(x, 32 - Bits));
}

WARP_TARGET_AVX2 static inline void quarter_round(__m256i& a, __m256i& b, __m256i& c,
                                                  __m256i& d) {
    a = _mm256_add_epi32(a, b); d = rotl16(_mm256_xor_si256(d, a));
    c = _mm256_add_epi32(c, d); b = rotl_shift<12>(_mm256_xor_si256(b, c));
    a = _mm256_add_epi32(a, b); d = rotl8(_mm256_xor_si256(d, a));
    c = _mm256_add_epi32(c, d); b = rotl_shift<7>(_mm256_xor_si256(b, c));
}

WARP_TARGET_AVX2 static inline __m256i broadcast(std::uint32_t word) {
    return _mm256_set1_epi32(static_cast<int>(word));
}

// Word 12 of blocks counter .. counter+7.
WARP_TARGET_AVX2 static inline __m256i block_counters(std::uint32_t counter) {
    return _mm256_add_epi32(broadcast(counter), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}

// rows[i] holds word i of blocks 0..7; afterwards rows[b] holds words 0..7 of block b.
WARP_TARGET_AVX2 static inline void transpose8x8(__m256i (&rows)[8]) {
    __m256i t[8];
    for (int i = 0; i < 8; i += 2) {  // pairs of words, interleaved per block
        t[i] = _mm256_unpacklo_epi32(rows[i], rows[i + 1]);
        t[i + 1] = _mm256_unpackhi_epi32(rows[i], rows[i + 1]);
    }
    __m256i u[8];
    for (int i = 0; i < 8; i += 4) {  // quads of words: blocks {0,4}, {1,5}, {2,6}, {3,7}
        u[i] = _mm256_unpacklo_epi64(t[i], t[i + 2]);
        u[i + 1] = _mm256_unpackhi_epi64(t[i], t[i + 2]);
        u[i + 2] = _mm256_unpacklo_epi64(t[i + 1], t[i + 3]);
        u[i + 3] = _mm256_unpackhi_epi64(t[i + 1], t[i + 3]);
    }
    for (int b = 0; b < 4; ++b) {  // words 0-3 and 4-7 of the same block meet
        rows[b] = _mm256_permute2x128_si256(u[b], u[b + 4], 0x20);
        rows[b + 4] = _mm256_permute2x128_si256(u[b], u[b + 4], 0x31);
    }
}

WARP_TARGET_AVX2 static inline void xor_store(const std::uint8_t* in, std::uint8_t* out,
                                              __m256i keystream) {
    const __m256i data = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), _mm256_xor_si256(data, keystream));
}

// Eight blocks from `counter`: out = in ^ keystream, 512 bytes (out == in allowed).
// `between(step)` runs after each double round (step 0..9) and once more after the last
// (step 10), before the keystream is transposed: a stitched kernel puts scalar work there
// (the Poly1305 of chacha20_poly1305_stitched.cpp) so that it runs on the integer ports while
// these rounds keep the vector ports busy. Every call comes before this function's stores, so
// `between` may read `in` even when out == in.
inline constexpr int kBetweenSteps = kDoubleRounds + 1;

template <typename Between>
[[gnu::always_inline]] WARP_TARGET_AVX2 static inline void xor_wide_with(const ChaChaInput& input,
                                                  std::uint32_t counter, const std::uint8_t* in,
                                                  std::uint8_t* out, Between&& between) {
    WideRows s;
    WideMemory memory;
    s.a0 = broadcast(input.word[0]);
    s.a1 = broadcast(input.word[1]);
    s.a2 = broadcast(input.word[2]);
    s.a3 = broadcast(input.word[3]);
    s.b0 = broadcast(input.word[4]);
    s.b1 = broadcast(input.word[5]);
    s.b2 = broadcast(input.word[6]);
    s.b3 = broadcast(input.word[7]);
    s.cA = broadcast(input.word[8]);
    s.cB = broadcast(input.word[9]);
    memory.c_slot[2] = broadcast(input.word[10]);
    memory.c_slot[3] = broadcast(input.word[11]);
    init_wide_memory(memory);
    s.d0 = block_counters(counter);
    s.d1 = broadcast(input.word[13]);
    s.d2 = broadcast(input.word[14]);
    s.d3 = broadcast(input.word[15]);
    for (int round = 0; round < kDoubleRounds; ++round) {
        double_round(s, memory);
        between(round);
    }
    between(kDoubleRounds);
    const __m256i x[16] = {s.a0, s.a1, s.a2, s.a3, s.b0, s.b1, s.b2, s.b3,
                           s.cA, s.cB, memory.c_slot[2], memory.c_slot[3], s.d0, s.d1, s.d2, s.d3};
    for (int half = 0; half < 2; ++half) {  // words 0-7, then words 8-15
        __m256i rows[8];
        for (int i = 0; i < 8; ++i) {
            const int word = 8 * half + i;
            // The counters again rather than kept: a 15th live YMM value would cost a spill.
            const __m256i original =
                word == 12 ? block_counters(counter) : broadcast(input.word[word]);
            rows[i] = _mm256_add_epi32(x[word], original);
        }
        transpose8x8(rows);
        const std::size_t offset = 32 * static_cast<std::size_t>(half);
        for (std::size_t b = 0; b < kWideBlocks; ++b)
            xor_store(in + b * kChaChaBlockSize + offset, out + b * kChaChaBlockSize + offset,
                      rows[b]);
    }
}

WARP_TARGET_AVX2 static inline void xor_wide(const ChaChaInput& input, std::uint32_t counter,
                                             const std::uint8_t* in, std::uint8_t* out) {
    xor_wide_with(input, counter, in, out, [](int) {});
}

}  // namespace warp::x86::avx2::rounds
