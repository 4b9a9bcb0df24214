// The 512-bit instantiation of the width-generic VAES GCM driver (vaes/gcm_ctr.hpp,
// vaes/ghash_vaes.hpp): four AES blocks per ZMM register, VAES and VPCLMULQDQ on zmm under
// AVX512F/BW/VL. The same primitives as vaes/vector256.hpp's Ymm, one by one.
#pragma once

#include <immintrin.h>

#include <cstdint>

#include "engine/x86/isa.hpp"
#include "engine/x86/vaes/aes_vaes.hpp"

namespace warp::x86::vaes {

// Broadcast, shuffle and extract go through their zero-masking forms with every lane selected
// (the same instruction once compiled): GCC 12's unmasked ones start from
// _mm512_undefined_epi32(), which its -Wuninitialized reports at every use.
WARP_TARGET_VAES_AVX512 inline __m512i broadcast_lane(__m128i v) {
    return _mm512_maskz_broadcast_i32x4(0xffff, v);
}

struct Zmm {
    using V = __m512i;
    static constexpr int kBlocks = 4;  // 16-byte blocks per vector
    // One port for 512-bit AES, one for the rest: gcm_ctr.hpp's schoolbook step.
    static constexpr bool kSchoolbookStep = true;

    WARP_TARGET_VAES_AVX512 static inline V load(const std::uint8_t* p) {
        return _mm512_loadu_si512(p);
    }
    WARP_TARGET_VAES_AVX512 static inline void store(std::uint8_t* p, V v) {
        _mm512_storeu_si512(p, v);
    }
    WARP_TARGET_VAES_AVX512 static inline V zero() { return _mm512_setzero_si512(); }
    WARP_TARGET_VAES_AVX512 static inline V broadcast(__m128i v) { return broadcast_lane(v); }
    WARP_TARGET_VAES_AVX512 static inline V xor_(V a, V b) { return _mm512_xor_si512(a, b); }
    WARP_TARGET_VAES_AVX512 static inline V xor3(V a, V b, V c) {
        return _mm512_ternarylogic_epi64(a, b, c, 0x96);
    }

    // Round key i in every lane: one VBROADCASTI32X4 from the schedule's 16 bytes (a load-port
    // micro-op; each round key is loaded once per step and used for every vector).
    WARP_TARGET_VAES_AVX512 static inline V round_key(const RoundKeys& k, int i) {
        return broadcast_lane(round_key128(k, i));
    }
    WARP_TARGET_VAES_AVX512 static inline V aesenc(V v, V key) {
        return _mm512_aesenc_epi128(v, key);
    }
    WARP_TARGET_VAES_AVX512 static inline V aesenclast(V v, V key) {
        return _mm512_aesenclast_epi128(v, key);
    }

    template <int Imm>
    WARP_TARGET_VAES_AVX512 static inline V clmul(V a, V b) {
        return _mm512_clmulepi64_epi128(a, b, Imm);
    }
    WARP_TARGET_VAES_AVX512 static inline V swap_qwords(V v) {
        return _mm512_maskz_shuffle_epi32(0xffff, v, static_cast<_MM_PERM_ENUM>(0x4e));
    }
    WARP_TARGET_VAES_AVX512 static inline V byte_reverse(V v) {
        const __m128i reverse = _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
        return _mm512_shuffle_epi8(v, broadcast_lane(reverse));
    }

    // Byte-reversed counters [J0 + 1 .. J0 + 4].
    WARP_TARGET_VAES_AVX512 static inline V first_counters(__m128i j0_reversed) {
        return _mm512_add_epi32(broadcast_lane(j0_reversed),
                                _mm512_set_epi32(0, 0, 0, 4, 0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 1));
    }
    // Counter blocks in normal byte order advanced by n, where the caller knows that no
    // block's last byte overflows: n added to byte 15 of each lane (dword 3's top byte).
    WARP_TARGET_VAES_AVX512 static inline V add_to_last_byte(V blocks, int n) {
        const int top = n << 24;
        return _mm512_add_epi32(blocks, _mm512_set_epi32(top, 0, 0, 0, top, 0, 0, 0, top, 0, 0, 0,
                                                         top, 0, 0, 0));
    }
    // Byte-reversed counters advanced by n in every lane (dword 0 of each lane: exactly inc32,
    // as in Ymm).
    WARP_TARGET_VAES_AVX512 static inline V advance_counters(V counters, int n) {
        return _mm512_add_epi32(counters,
                                _mm512_set_epi32(0, 0, 0, n, 0, 0, 0, n, 0, 0, 0, n, 0, 0, 0, n));
    }

    WARP_TARGET_VAES_AVX512 static inline V add_to_first_block(V v, __m128i acc) {
        return _mm512_xor_si512(v, _mm512_zextsi128_si512(acc));
    }
    // The XOR of the four 128-bit lanes.
    WARP_TARGET_VAES_AVX512 static inline __m128i fold_lanes(V v) {
        const __m128i l01 = _mm_xor_si128(_mm512_maskz_extracti32x4_epi32(0xf, v, 0),
                                          _mm512_maskz_extracti32x4_epi32(0xf, v, 1));
        const __m128i l23 = _mm_xor_si128(_mm512_maskz_extracti32x4_epi32(0xf, v, 2),
                                          _mm512_maskz_extracti32x4_epi32(0xf, v, 3));
        return _mm_xor_si128(l01, l23);
    }
};

}  // namespace warp::x86::vaes
