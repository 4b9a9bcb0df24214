// The 256-bit instantiation of the width-generic VAES GCM driver (gcm_driver.hpp, gcm_ctr.hpp,
// ghash_vaes.hpp): two AES blocks per YMM register. Everything the driver does with a vector
// goes through these primitives; the 512-bit instantiation is avx512/vector512.hpp's Zmm, a
// struct of the same shape.
#pragma once

#include <immintrin.h>

#include <cstdint>

#include "engine/x86/isa.hpp"
#include "engine/x86/vaes/aes_vaes.hpp"

namespace warp::x86::vaes {

struct Ymm {
    using V = __m256i;
    static constexpr int kBlocks = 2;  // 16-byte blocks per vector

    WARP_TARGET_VAES_AVX2 static inline V load(const std::uint8_t* p) {
        return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
    }
    WARP_TARGET_VAES_AVX2 static inline void store(std::uint8_t* p, V v) {
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v);
    }
    static constexpr bool kSchoolbookStep = false;  // Zen 3's schedule: gcm_ctr.hpp
    WARP_TARGET_VAES_AVX2 static inline V zero() { return _mm256_setzero_si256(); }
    WARP_TARGET_VAES_AVX2 static inline V broadcast(__m128i v) {
        return _mm256_broadcastsi128_si256(v);
    }
    WARP_TARGET_VAES_AVX2 static inline V xor_(V a, V b) { return _mm256_xor_si256(a, b); }
    // Three-way XOR: two instructions here (AVX2 has no VPTERNLOG), one at 512 bits.
    WARP_TARGET_VAES_AVX2 static inline V xor3(V a, V b, V c) { return xor_(a, xor_(b, c)); }

    // Round key i in every lane: the schedule is stored pre-broadcast to 32 bytes.
    WARP_TARGET_VAES_AVX2 static inline V round_key(const RoundKeys& k, int i) {
        return round_key256(k, i);
    }
    WARP_TARGET_VAES_AVX2 static inline V aesenc(V v, V key) {
        return _mm256_aesenc_epi128(v, key);
    }
    WARP_TARGET_VAES_AVX2 static inline V aesenclast(V v, V key) {
        return _mm256_aesenclast_epi128(v, key);
    }

    // Carry-less products per 128-bit lane; Imm selects the qwords as VPCLMULQDQ does.
    template <int Imm>
    WARP_TARGET_VAES_AVX2 static inline V clmul(V a, V b) {
        return _mm256_clmulepi64_epi128(a, b, Imm);
    }
    WARP_TARGET_VAES_AVX2 static inline V swap_qwords(V v) { return _mm256_shuffle_epi32(v, 0x4e); }
    WARP_TARGET_VAES_AVX2 static inline V byte_reverse(V v) {
        const __m128i reverse = _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
        return _mm256_shuffle_epi8(v, _mm256_broadcastsi128_si256(reverse));
    }

    // Byte-reversed counters: [J0 + 1, J0 + 2] from the byte-reversed J0.
    WARP_TARGET_VAES_AVX2 static inline V first_counters(__m128i j0_reversed) {
        return _mm256_add_epi32(_mm256_broadcastsi128_si256(j0_reversed),
                                _mm256_set_epi32(0, 0, 0, 2, 0, 0, 0, 1));
    }
    // Counter blocks in normal byte order advanced by n, where the caller knows that no
    // block's last byte overflows: n added to byte 15 of each lane (dword 3's top byte).
    WARP_TARGET_VAES_AVX2 static inline V add_to_last_byte(V blocks, int n) {
        return _mm256_add_epi32(blocks, _mm256_set_epi32(n << 24, 0, 0, 0, n << 24, 0, 0, 0));
    }
    // Byte-reversed counters advanced by n in every lane (dword 0 of each lane: exactly inc32).
    WARP_TARGET_VAES_AVX2 static inline V advance_counters(V counters, int n) {
        return _mm256_add_epi32(counters, _mm256_set_epi32(0, 0, 0, n, 0, 0, 0, n));
    }

    // The 128-bit accumulator added into block 0 (the low lane), the other lanes unchanged.
    WARP_TARGET_VAES_AVX2 static inline V add_to_first_block(V v, __m128i acc) {
        return _mm256_xor_si256(v, _mm256_zextsi128_si256(acc));
    }
    // The XOR of all 128-bit lanes.
    WARP_TARGET_VAES_AVX2 static inline __m128i fold_lanes(V v) {
        return _mm_xor_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    }
};

}  // namespace warp::x86::vaes
