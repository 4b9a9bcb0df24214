// warp::arm::kAesGcmCrypto: AES-GCM (SP 800-38D) with the ARMv8 crypto extensions (AESE/AESMC,
// PMULL/PMULL2).
//
// The body is engine/aes_128bit_vector/gcm.hpp, shared with AES-NI; this file supplies its primitives.
// The one essential difference from AES-NI is inside the rounds: AESE adds the round key
// BEFORE SubBytes and ShiftRows (AES-NI's aesenc adds it after MixColumns), so a full
// encryption is AESMC(AESE(., k0)), ..., AESMC(AESE(., k[Nr-2])), AESE(., k[Nr-1]), ^ k[Nr]
// (aes_rounds.hpp). Reflected GHASH values are uint64x2_t (lane 0 = low qword), blocks
// uint8x16_t.
#include <arm_neon.h>

#include <cstdint>

#include "engine/arm/arm.hpp"
#include "engine/arm/crypto/aes_rounds.hpp"
#include "engine/arm/isa.hpp"
#include "engine/aes_128bit_vector/gcm.hpp"

namespace warp::arm {
namespace crypto {
namespace {

// AesPrimitives (aes_rounds.hpp) and what GCM adds to them.
struct Primitives : AesPrimitives {
    using Field = uint64x2_t;

    // Every key size has at least ten rounds, so full rounds 0..7 all exist.
    template <typename Between>
    WARP_TARGET_ARM_CRYPTO static inline void encrypt8_with(const RoundKeys& keys,
                                                            Block (&blocks)[aes_128bit_vector::kWide],
                                                            const Between& between) {
#pragma GCC unroll 8
        for (std::size_t i = 0; i < aes_128bit_vector::kWide; ++i) {
            const uint8x16_t round_key = keys.key[i];
#pragma GCC unroll 8
            for (std::size_t b = 0; b < aes_128bit_vector::kWide; ++b)
                blocks[b] = vaesmcq_u8(vaeseq_u8(blocks[b], round_key));
            between(i);
        }
        const unsigned rounds = keys.rounds;
        for (unsigned r = aes_128bit_vector::kWide; r + 1 < rounds; ++r) {
            const uint8x16_t round_key = keys.key[r];
#pragma GCC unroll 8
            for (std::size_t b = 0; b < aes_128bit_vector::kWide; ++b)
                blocks[b] = vaesmcq_u8(vaeseq_u8(blocks[b], round_key));
        }
        const uint8x16_t penultimate = keys.key[rounds - 1];
        const uint8x16_t last = keys.key[rounds];
#pragma GCC unroll 8
        for (std::size_t b = 0; b < aes_128bit_vector::kWide; ++b)
            blocks[b] = veorq_u8(vaeseq_u8(blocks[b], penultimate), last);
    }

    static inline Field add_counter(Field counter, std::uint32_t n) {
        const uint32x4_t step = vsetq_lane_u32(n, vdupq_n_u32(0), 0);
        return vreinterpretq_u64_u32(vaddq_u32(vreinterpretq_u32_u64(counter), step));
    }

    // The eight steps come from one table in two four-register loads (LD1), not one literal
    // load each.
    static inline void counter_blocks(Field counter, Block (&blocks)[aes_128bit_vector::kWide]) {
        alignas(16) static constexpr std::uint32_t kSteps[aes_128bit_vector::kWide][4] = {
            {0, 0, 0, 0}, {1, 0, 0, 0}, {2, 0, 0, 0}, {3, 0, 0, 0},
            {4, 0, 0, 0}, {5, 0, 0, 0}, {6, 0, 0, 0}, {7, 0, 0, 0}};
        const uint32x4x4_t first = vld1q_u32_x4(kSteps[0]);
        const uint32x4x4_t second = vld1q_u32_x4(kSteps[4]);
        const uint32x4_t base = vreinterpretq_u32_u64(counter);
#pragma GCC unroll 4
        for (std::size_t i = 0; i < 4; ++i) {
            blocks[i] = unreflect(vreinterpretq_u64_u32(vaddq_u32(base, first.val[i])));
            blocks[i + 4] = unreflect(vreinterpretq_u64_u32(vaddq_u32(base, second.val[i])));
        }
    }

    static inline Block xor_blocks(Block a, Block b) { return veorq_u8(a, b); }

    // Reflecting is a byte reversal (one TBL), its own inverse.
    static inline uint8x16_t byte_reverse(uint8x16_t block) {
        static constexpr std::uint8_t kReverse[16] = {15, 14, 13, 12, 11, 10, 9, 8,
                                                      7,  6,  5,  4,  3,  2,  1, 0};
        return vqtbl1q_u8(block, vld1q_u8(kReverse));
    }
    static inline Field reflect(Block b) { return vreinterpretq_u64_u8(byte_reverse(b)); }
    static inline Block unreflect(Field v) { return byte_reverse(vreinterpretq_u8_u64(v)); }

    static inline Field xor_fields(Field a, Field b) { return veorq_u64(a, b); }
    static inline Field zero_field() { return vdupq_n_u64(0); }
    static inline Field field(std::uint64_t low, std::uint64_t high) {
        return vcombine_u64(vcreate_u64(low), vcreate_u64(high));
    }
    static inline Field swap_halves(Field v) { return vextq_u64(v, v, 1); }
    static inline Field shift_up(Field v) { return vextq_u64(vdupq_n_u64(0), v, 1); }
    static inline Field shift_down(Field v) { return vextq_u64(v, vdupq_n_u64(0), 1); }

    // Carry-less products of the low qwords (PMULL) and of the high qwords (PMULL2).
    WARP_TARGET_ARM_CRYPTO static inline Field clmul_low(Field a, Field b) {
        return vreinterpretq_u64_p128(vmull_p64(vgetq_lane_p64(vreinterpretq_p64_u64(a), 0),
                                                vgetq_lane_p64(vreinterpretq_p64_u64(b), 0)));
    }
    WARP_TARGET_ARM_CRYPTO static inline Field clmul_high(Field a, Field b) {
        return vreinterpretq_u64_p128(
            vmull_high_p64(vreinterpretq_p64_u64(a), vreinterpretq_p64_u64(b)));
    }
    WARP_TARGET_ARM_CRYPTO static inline Field clmul_low_by_reduction(Field v) {
        const poly64_t constant = static_cast<poly64_t>(aes_128bit_vector::kReductionHigh);
        return vreinterpretq_u64_p128(
            vmull_p64(vgetq_lane_p64(vreinterpretq_p64_u64(v), 0), constant));
    }

    // v * x: shift the 128-bit value left by one (the low qword's top bit moves into the high
    // qword) and, when bit 127 falls off (the high qword's sign, broadcast), add the
    // polynomial's reflected low terms (the 1 in the low qword is the x^128 = 1 bit fed back).
    static inline Field times_x(Field v) {
        const uint64x2_t carries = vextq_u64(vdupq_n_u64(0), vshrq_n_u64(v, 63), 1);
        const uint64x2_t overflow = vreinterpretq_u64_s64(
            vshrq_n_s64(vreinterpretq_s64_u64(vdupq_laneq_u64(v, 1)), 63));
        return veorq_u64(veorq_u64(vshlq_n_u64(v, 1), carries),
                         vandq_u64(overflow, field(1, aes_128bit_vector::kReductionHigh)));
    }
};

using Gcm = aes_128bit_vector::Gcm<Primitives>;
static_assert(alignof(Gcm::State) <= kStateAlignment);

}  // namespace
}  // namespace crypto

const AeadImpl* const kAesGcmCrypto = &crypto::Gcm::kTable;

}  // namespace warp::arm
