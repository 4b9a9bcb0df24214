// warp::x86::kAesGcmAesni: AES-GCM (SP 800-38D) with AES-NI and PCLMULQDQ on 128-bit
// registers, for CPUs without VAES (Westmere .. Skylake); SSE4.1 at most, no AVX.
//
// The body is engine/aes_128bit_vector/gcm.hpp, shared with the ARMv8 crypto extensions; this file
// supplies its primitives. AES-NI's round adds the round key after SubBytes, ShiftRows and
// MixColumns, so a full encryption is key 0 XORed in, aesenc with keys 1 .. Nr-1, then
// aesenclast with key Nr.
//
// Measured on the AMD EPYC build machine (Zen with VAES, no AVX-512): aesenc and pclmulqdq
// compete for the same pipes there, so the interleaving buys little and GCM costs about CTR +
// GHASH; the three multiplications per block (Karatsuba) and two per eight blocks for the
// reduction are the floor. (A shift-based reduction instead of the two pclmulqdq measured no
// faster.)
#include <immintrin.h>

#include <cstdint>

#include "engine/x86/aesni/aes_rounds.hpp"
#include "engine/x86/isa.hpp"
#include "engine/x86/x86.hpp"
#include "engine/aes_128bit_vector/gcm.hpp"

namespace warp::x86 {
namespace aesni {
namespace {

// AesPrimitives (aes_rounds.hpp) and what GCM adds to them.
struct Primitives : AesPrimitives {
    using Field = __m128i;

    // Every key size has at least ten rounds, so rounds 1..8 all exist.
    template <typename Between>
    WARP_TARGET_AESNI static inline void encrypt8_with(const RoundKeys& keys,
                                                       Block (&blocks)[aes_128bit_vector::kWide],
                                                       const Between& between) {
        for (std::size_t b = 0; b < aes_128bit_vector::kWide; ++b)
            blocks[b] = _mm_xor_si128(blocks[b], keys.key[0]);
#pragma GCC unroll 8
        for (std::size_t i = 0; i < aes_128bit_vector::kWide; ++i) {
            const __m128i round_key = keys.key[i + 1];
            for (std::size_t b = 0; b < aes_128bit_vector::kWide; ++b)
                blocks[b] = _mm_aesenc_si128(blocks[b], round_key);
            between(i);
        }
        for (unsigned r = aes_128bit_vector::kWide + 1; r < keys.rounds; ++r) {
            const __m128i round_key = keys.key[r];
            for (std::size_t b = 0; b < aes_128bit_vector::kWide; ++b)
                blocks[b] = _mm_aesenc_si128(blocks[b], round_key);
        }
        const __m128i last = keys.key[keys.rounds];
        for (std::size_t b = 0; b < aes_128bit_vector::kWide; ++b)
            blocks[b] = _mm_aesenclast_si128(blocks[b], last);
    }

    WARP_TARGET_AESNI static inline Field add_counter(Field counter, std::uint32_t n) {
        return _mm_add_epi32(counter, _mm_setr_epi32(static_cast<int>(n), 0, 0, 0));
    }

    WARP_TARGET_AESNI static inline void counter_blocks(Field counter,
                                                        Block (&blocks)[aes_128bit_vector::kWide]) {
        for (std::size_t i = 0; i < aes_128bit_vector::kWide; ++i)
            blocks[i] = unreflect(add_counter(counter, static_cast<std::uint32_t>(i)));
    }

    WARP_TARGET_AESNI static inline Block xor_blocks(Block a, Block b) {
        return _mm_xor_si128(a, b);
    }

    // Reflecting is a byte reversal (one pshufb), its own inverse.
    WARP_TARGET_AESNI static inline Field reflect(Block b) {
        const __m128i reverse = _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
        return _mm_shuffle_epi8(b, reverse);
    }
    WARP_TARGET_AESNI static inline Block unreflect(Field v) { return reflect(v); }

    WARP_TARGET_AESNI static inline Field xor_fields(Field a, Field b) {
        return _mm_xor_si128(a, b);
    }
    WARP_TARGET_AESNI static inline Field zero_field() { return _mm_setzero_si128(); }
    WARP_TARGET_AESNI static inline Field field(std::uint64_t low, std::uint64_t high) {
        return _mm_set_epi64x(static_cast<long long>(high), static_cast<long long>(low));
    }
    WARP_TARGET_AESNI static inline Field swap_halves(Field v) {
        return _mm_shuffle_epi32(v, 0x4e);
    }
    WARP_TARGET_AESNI static inline Field shift_up(Field v) { return _mm_slli_si128(v, 8); }
    WARP_TARGET_AESNI static inline Field shift_down(Field v) { return _mm_srli_si128(v, 8); }

    WARP_TARGET_AESNI static inline Field clmul_low(Field a, Field b) {
        return _mm_clmulepi64_si128(a, b, 0x00);
    }
    WARP_TARGET_AESNI static inline Field clmul_high(Field a, Field b) {
        return _mm_clmulepi64_si128(a, b, 0x11);
    }
    // imm 0x10: v's low qword times the constant's high qword (0xc2 << 56).
    WARP_TARGET_AESNI static inline Field clmul_low_by_reduction(Field v) {
        return _mm_clmulepi64_si128(v, field(1, aes_128bit_vector::kReductionHigh), 0x10);
    }

    // v * x: shift the 128-bit value left by one (each dword's top bit moves into the next
    // dword) and, when bit 127 falls off, add the polynomial's reflected low terms (the 1 in
    // the low qword is the x^128 = 1 bit fed back).
    WARP_TARGET_AESNI static inline Field times_x(Field v) {
        const __m128i carries = _mm_slli_si128(_mm_srli_epi32(v, 31), 4);
        const __m128i overflow = _mm_srai_epi32(_mm_shuffle_epi32(v, 0xff), 31);
        return _mm_xor_si128(_mm_xor_si128(_mm_slli_epi32(v, 1), carries),
                             _mm_and_si128(overflow, field(1, aes_128bit_vector::kReductionHigh)));
    }
};

using Gcm = aes_128bit_vector::Gcm<Primitives>;
static_assert(alignof(Gcm::State) <= kStateAlignment);

}  // namespace
}  // namespace aesni

const AeadImpl* const kAesGcmAesni = &aesni::Gcm::kTable;

}  // namespace warp::x86
