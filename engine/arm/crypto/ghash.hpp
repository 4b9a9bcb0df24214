// GHASH (SP 800-38D, 6.4) with PMULL/PMULL2 on 128-bit NEON registers.
//
// The same representation and algorithm as the x86 kernel (engine/x86/aesni/ghash.hpp, which
// explains them in full), so both are easy to compare:
// - A block is byte-reversed (one TBL) into a 128-bit value whose bit 127 is x^0: the
//   polynomial bit-reflected. The key is kept as H' = H*x, which cancels the one-bit offset of
//   a carry-less product of reflected values, so reduce(clmul(A, H')) = A*H.
// - Reduction modulo x^128 + x^7 + x^2 + x + 1 folds the low half twice by 0xc2 << 56 (PMULL of
//   the low qword, plus a half swap for the x^128 = 1 part), then adds the high half.
// - Aggregation over eight blocks: Y' = (Y + C_0) H^8 + C_1 H^7 + ... + C_7 H^1. The eight
//   Karatsuba products (three PMULL each, hi ^ lo of every key power precomputed) are summed
//   unreduced and reduced ONCE per group, so the multiplications never wait on each other.
//
// Values in the reflected form are uint64x2_t (lane 0 = low qword); bytes are uint8x16_t.
#pragma once

#include <arm_neon.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "engine/arm/isa.hpp"

namespace warp::arm::crypto {

inline constexpr std::size_t kGhashAggregation = 8;

// H'^1..H'^8 and, for Karatsuba, (high qword ^ low qword) of each power in the low qword.
struct alignas(16) GhashKey {
    uint64x2_t power[kGhashAggregation];      // power[i] = (H^(i+1))'
    uint64x2_t karatsuba[kGhashAggregation];  // low qword: power[i].hi ^ power[i].lo
};

// Three unreduced partial sums of Karatsuba products: x.lo*h.lo, x.hi*h.hi and
// (x.lo^x.hi)*(h.lo^h.hi). They are added across blocks and combined only once.
struct GhashProduct {
    uint64x2_t low = vdupq_n_u64(0);
    uint64x2_t middle = vdupq_n_u64(0);
    uint64x2_t high = vdupq_n_u64(0);
};

inline uint8x16_t byte_reverse(uint8x16_t block) {
    static constexpr std::uint8_t kReverse[16] = {15, 14, 13, 12, 11, 10, 9, 8,
                                                  7,  6,  5,  4,  3,  2,  1, 0};
    return vqtbl1q_u8(block, vld1q_u8(kReverse));
}

// Bytes -> reflected value, and back.
inline uint64x2_t reflect(uint8x16_t bytes) { return vreinterpretq_u64_u8(byte_reverse(bytes)); }
inline uint8x16_t unreflect(uint64x2_t value) {
    return byte_reverse(vreinterpretq_u8_u64(value));
}

inline constexpr std::uint64_t kReductionHigh = 0xc200000000000000ULL;

// The reflected x^7 + x^2 + x term in the high qword; the 1 in the low qword is the bit the
// init shift feeds back when H's top bit falls off.
inline uint64x2_t reduction_constant() {
    return vcombine_u64(vcreate_u64(1), vcreate_u64(kReductionHigh));
}

inline uint64x2_t swap_halves(uint64x2_t v) { return vextq_u64(v, v, 1); }

// Carry-less products of the low qwords (PMULL) and of the high qwords (PMULL2).
WARP_TARGET_ARM_CRYPTO inline uint64x2_t clmul_low(uint64x2_t a, uint64x2_t b) {
    return vreinterpretq_u64_p128(vmull_p64(vgetq_lane_p64(vreinterpretq_p64_u64(a), 0),
                                            vgetq_lane_p64(vreinterpretq_p64_u64(b), 0)));
}
WARP_TARGET_ARM_CRYPTO inline uint64x2_t clmul_high(uint64x2_t a, uint64x2_t b) {
    return vreinterpretq_u64_p128(
        vmull_high_p64(vreinterpretq_p64_u64(a), vreinterpretq_p64_u64(b)));
}

// Adds x * h (both in the reflected form) to the partial sums, three PMULL.
WARP_TARGET_ARM_CRYPTO inline void multiply_accumulate(GhashProduct& sum, uint64x2_t x,
                                                       uint64x2_t h, uint64x2_t h_karatsuba) {
    sum.low = veorq_u64(sum.low, clmul_low(x, h));
    sum.high = veorq_u64(sum.high, clmul_high(x, h));
    const uint64x2_t x_karatsuba = veorq_u64(x, swap_halves(x));
    sum.middle = veorq_u64(sum.middle, clmul_low(x_karatsuba, h_karatsuba));
}

// Folds the low qword of v by the reduction constant: swap_halves(v) ^ v.lo * (0xc2 << 56).
WARP_TARGET_ARM_CRYPTO inline uint64x2_t fold(uint64x2_t v) {
    const poly64_t constant = static_cast<poly64_t>(kReductionHigh);
    const uint64x2_t product = vreinterpretq_u64_p128(
        vmull_p64(vgetq_lane_p64(vreinterpretq_p64_u64(v), 0), constant));
    return veorq_u64(swap_halves(v), product);
}

// Combines the Karatsuba sums into the 256-bit product and reduces it to 128 bits.
WARP_TARGET_ARM_CRYPTO inline uint64x2_t reduce(const GhashProduct& sum) {
    const uint64x2_t zero = vdupq_n_u64(0);
    const uint64x2_t middle = veorq_u64(sum.middle, veorq_u64(sum.low, sum.high));
    const uint64x2_t low = veorq_u64(sum.low, vextq_u64(zero, middle, 1));    // + middle.lo << 64
    const uint64x2_t high = veorq_u64(sum.high, vextq_u64(middle, zero, 1));  // + middle.hi
    return veorq_u64(fold(fold(low)), high);
}

// a * b for a (any block, reflected) and b = a power from GhashKey.
WARP_TARGET_ARM_CRYPTO inline uint64x2_t multiply(uint64x2_t a, uint64x2_t b) {
    GhashProduct sum;
    multiply_accumulate(sum, a, b, veorq_u64(b, swap_halves(b)));
    return reduce(sum);
}

// From H = E_K(0^128) as bytes: H' = H*x, then its powers.
WARP_TARGET_ARM_CRYPTO inline void init_ghash_key(GhashKey& key, uint8x16_t h_bytes) {
    uint64x2_t h = reflect(h_bytes);
    // Shift the 128-bit value left by one: the low qword's top bit moves into the high qword.
    const uint64x2_t carries = vextq_u64(vdupq_n_u64(0), vshrq_n_u64(h, 63), 1);
    // All ones when bit 127 falls off (the high qword's sign, broadcast): then add P.
    const uint64x2_t overflow = vreinterpretq_u64_s64(
        vshrq_n_s64(vreinterpretq_s64_u64(vdupq_laneq_u64(h, 1)), 63));
    h = veorq_u64(veorq_u64(vshlq_n_u64(h, 1), carries),
                  vandq_u64(overflow, reduction_constant()));
    key.power[0] = h;
    for (std::size_t i = 1; i < kGhashAggregation; ++i) {
        key.power[i] = multiply(key.power[i - 1], h);
    }
#pragma GCC unroll 8
    for (std::size_t i = 0; i < kGhashAggregation; ++i) {
        key.karatsuba[i] = veorq_u64(key.power[i], swap_halves(key.power[i]));
    }
}

// Folds eight blocks (already reflected; the running hash added to the first) into sum.
WARP_TARGET_ARM_CRYPTO inline void accumulate8(const GhashKey& key, GhashProduct& sum,
                                               const uint64x2_t (&blocks)[kGhashAggregation]) {
#pragma GCC unroll 8
    for (std::size_t i = 0; i < kGhashAggregation; ++i) {
        const std::size_t power = kGhashAggregation - 1 - i;
        multiply_accumulate(sum, blocks[i], key.power[power], key.karatsuba[power]);
    }
}

// y = GHASH_H continued over `len` bytes, the last partial block padded with zeros.
// y is in the reflected form.
WARP_TARGET_ARM_CRYPTO inline uint64x2_t ghash_update(const GhashKey& key, uint64x2_t y,
                                                      const std::uint8_t* data, std::size_t len) {
    constexpr std::size_t kGroupBytes = 16 * kGhashAggregation;
    for (; len >= kGroupBytes; len -= kGroupBytes, data += kGroupBytes) {
        uint64x2_t blocks[kGhashAggregation];
#pragma GCC unroll 8
        for (std::size_t i = 0; i < kGhashAggregation; ++i) {
            blocks[i] = reflect(vld1q_u8(data + 16 * i));
        }
        blocks[0] = veorq_u64(blocks[0], y);
        GhashProduct sum;
        accumulate8(key, sum, blocks);
        y = reduce(sum);
    }
    if (len == 0) return y;
    // Fewer than eight blocks left: (y + C_0) H^n + ... + C_{n-1} H^1, still one reduction.
    const std::size_t blocks = (len + 15) / 16;
    GhashProduct sum;
    for (std::size_t i = 0; i < blocks; ++i) {
        uint8x16_t block;
        if (len >= 16) {
            block = vld1q_u8(data);
            data += 16;
            len -= 16;
        } else {
            std::uint8_t padded[16] = {};
            std::memcpy(padded, data, len);
            block = vld1q_u8(padded);
            len = 0;
        }
        uint64x2_t value = reflect(block);
        if (i == 0) value = veorq_u64(value, y);
        const std::size_t power = blocks - 1 - i;
        multiply_accumulate(sum, value, key.power[power], key.karatsuba[power]);
    }
    return reduce(sum);
}

}  // namespace warp::arm::crypto
