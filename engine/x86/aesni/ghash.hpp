// GHASH (SP 800-38D, 6.4) with PCLMULQDQ on 128-bit registers.
//
// Representation. GCM numbers the bits of a block from the most significant bit of byte 0,
// and that first bit is the coefficient of x^0. Byte-reversing a block (one pshufb) makes it a
// 128-bit integer whose bit 127 is x^0 and bit 0 is x^127: the polynomial bit-reflected.
// A carry-less product of two reflected 128-bit values is the reflected 255-bit product, one
// bit too low. Instead of shifting every product left by one bit, the key is stored as H*x
// ("H'", shifted once at init, reduced if a bit falls off), which cancels the shift: for any
// block A, reduce(clmul(A, H')) = A*H.  And H'*H' reduces to (H^2)', so powers stay in the
// same form.
//
// Reduction modulo x^128 + x^7 + x^2 + x + 1 in the reflected form folds the low 128 bits of
// the 256-bit product twice by the constant 0xc2 << 56 (the reflected x^7 + x^2 + x term,
// with the x^128 = 1 part done by swapping the halves), then adds the high 128 bits.
//
// Aggregation. Horner's rule Y = (Y + C_i) * H needs one multiplication and one reduction per
// block, each waiting for the one before. Unrolled over eight blocks,
//     Y' = (Y + C_0) H^8 + C_1 H^7 + ... + C_7 H^1,
// the eight products are independent and their unreduced sums can be added first, so a
// group of eight costs 24 carry-less multiplications (Karatsuba: three per block, with
// hi ^ lo of every key power precomputed) and ONE reduction.
#pragma once

#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "engine/x86/isa.hpp"

namespace warp::x86::aesni {

inline constexpr std::size_t kGhashAggregation = 8;

// H'^1..H'^8 and, for Karatsuba, (high qword ^ low qword) of each power in the low qword.
struct alignas(16) GhashKey {
    __m128i power[kGhashAggregation];      // power[i] = (H^(i+1))'
    __m128i karatsuba[kGhashAggregation];  // low qword: power[i].hi ^ power[i].lo
};

// Three unreduced partial sums of Karatsuba products: x.lo*h.lo, x.hi*h.hi and
// (x.lo^x.hi)*(h.lo^h.hi). They are added across blocks and combined only once.
struct GhashProduct {
    __m128i low = _mm_setzero_si128();
    __m128i middle = _mm_setzero_si128();
    __m128i high = _mm_setzero_si128();
};

WARP_TARGET_AESNI inline __m128i byte_reverse(__m128i block) {
    const __m128i reverse = _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    return _mm_shuffle_epi8(block, reverse);
}

// The reflected x^7 + x^2 + x term in the high qword; the 1 in the low qword is the bit the
// init shift feeds back when H's top bit falls off.
WARP_TARGET_AESNI inline __m128i reduction_constant() {
    return _mm_set_epi64x(static_cast<long long>(0xc200000000000000ULL), 1);
}

WARP_TARGET_AESNI inline __m128i swap_halves(__m128i v) { return _mm_shuffle_epi32(v, 0x4e); }

// Adds x * h (both in the reflected form) to the partial sums, three pclmulqdq.
WARP_TARGET_AESNI inline void multiply_accumulate(GhashProduct& sum, __m128i x, __m128i h,
                                                  __m128i h_karatsuba) {
    sum.low = _mm_xor_si128(sum.low, _mm_clmulepi64_si128(x, h, 0x00));
    sum.high = _mm_xor_si128(sum.high, _mm_clmulepi64_si128(x, h, 0x11));
    const __m128i x_karatsuba = _mm_xor_si128(x, swap_halves(x));
    sum.middle = _mm_xor_si128(sum.middle, _mm_clmulepi64_si128(x_karatsuba, h_karatsuba, 0x00));
}

// Combines the Karatsuba sums into the 256-bit product and reduces it to 128 bits.
WARP_TARGET_AESNI inline __m128i reduce(const GhashProduct& sum) {
    const __m128i middle = _mm_xor_si128(sum.middle, _mm_xor_si128(sum.low, sum.high));
    __m128i low = _mm_xor_si128(sum.low, _mm_slli_si128(middle, 8));
    const __m128i high = _mm_xor_si128(sum.high, _mm_srli_si128(middle, 8));
    const __m128i poly = reduction_constant();
    low = _mm_xor_si128(swap_halves(low), _mm_clmulepi64_si128(low, poly, 0x10));
    low = _mm_xor_si128(swap_halves(low), _mm_clmulepi64_si128(low, poly, 0x10));
    return _mm_xor_si128(low, high);
}

// a * b for a (any block, reflected) and b = a power from GhashKey.
WARP_TARGET_AESNI inline __m128i multiply(__m128i a, __m128i b) {
    GhashProduct sum;
    multiply_accumulate(sum, a, b, _mm_xor_si128(b, swap_halves(b)));
    return reduce(sum);
}

// From H = E_K(0^128) as bytes: H' = H*x, then its powers.
WARP_TARGET_AESNI inline void init_ghash_key(GhashKey& key, __m128i h_bytes) {
    __m128i h = byte_reverse(h_bytes);
    // Shift the 128-bit value left by one: each dword's top bit moves into the next dword.
    const __m128i carries = _mm_slli_si128(_mm_srli_epi32(h, 31), 4);
    // All ones when bit 127 falls off (broadcast the top dword, then its sign): then add P.
    const __m128i overflow = _mm_srai_epi32(_mm_shuffle_epi32(h, 0xff), 31);
    h = _mm_xor_si128(_mm_xor_si128(_mm_slli_epi32(h, 1), carries),
                      _mm_and_si128(overflow, reduction_constant()));
    key.power[0] = h;
    for (std::size_t i = 1; i < kGhashAggregation; ++i) {
        key.power[i] = multiply(key.power[i - 1], h);
    }
    for (std::size_t i = 0; i < kGhashAggregation; ++i) {
        key.karatsuba[i] = _mm_xor_si128(key.power[i], swap_halves(key.power[i]));
    }
}

// Folds eight blocks (already byte-reversed; the running hash added to the first) into sum.
WARP_TARGET_AESNI inline void accumulate8(const GhashKey& key, GhashProduct& sum,
                                          const __m128i (&blocks)[kGhashAggregation]) {
    for (std::size_t i = 0; i < kGhashAggregation; ++i) {
        const std::size_t power = kGhashAggregation - 1 - i;
        multiply_accumulate(sum, blocks[i], key.power[power], key.karatsuba[power]);
    }
}

// y = GHASH_H continued over `len` bytes, the last partial block padded with zeros.
// y is in the reflected form (byte_reverse of the hash as bytes).
WARP_TARGET_AESNI inline __m128i ghash_update(const GhashKey& key, __m128i y,
                                              const std::uint8_t* data, std::size_t len) {
    constexpr std::size_t kGroupBytes = 16 * kGhashAggregation;
    for (; len >= kGroupBytes; len -= kGroupBytes, data += kGroupBytes) {
        __m128i blocks[kGhashAggregation];
        for (std::size_t i = 0; i < kGhashAggregation; ++i) {
            blocks[i] = byte_reverse(
                _mm_loadu_si128(reinterpret_cast<const __m128i*>(data + 16 * i)));
        }
        blocks[0] = _mm_xor_si128(blocks[0], y);
        GhashProduct sum;
        accumulate8(key, sum, blocks);
        y = reduce(sum);
    }
    if (len == 0) return y;
    // Fewer than eight blocks left: (y + C_0) H^n + ... + C_{n-1} H^1, still one reduction.
    const std::size_t blocks = (len + 15) / 16;
    GhashProduct sum;
    for (std::size_t i = 0; i < blocks; ++i) {
        __m128i block;
        if (len >= 16) {
            block = _mm_loadu_si128(reinterpret_cast<const __m128i*>(data));
            data += 16;
            len -= 16;
        } else {
            alignas(16) std::uint8_t padded[16] = {};
            std::memcpy(padded, data, len);
            block = _mm_load_si128(reinterpret_cast<const __m128i*>(padded));
            len = 0;
        }
        block = byte_reverse(block);
        if (i == 0) block = _mm_xor_si128(block, y);
        const std::size_t power = blocks - 1 - i;
        multiply_accumulate(sum, block, key.power[power], key.karatsuba[power]);
    }
    return reduce(sum);
}

}  // namespace warp::x86::aesni
