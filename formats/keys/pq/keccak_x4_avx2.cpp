// Keccak-f[1600] on four states at once with AVX2 (keccak_x4.hpp; FIPS 202, section 3.3):
// sha3.cpp's written-out round with each 64-bit lane widened to a __m256i holding that lane of
// the four states. x86-64 builds only; chosen at run time by mlkem_dispatch.cpp. No branch or
// memory index depends on the data.
#include <immintrin.h>

#include "engine/x86/isa.hpp"
#include "formats/keys/pq/keccak_lanes.hpp"
#include "formats/keys/pq/keccak_x4.hpp"

namespace warp::formats::pq {
namespace {

// Rotations by whole bytes are one byte shuffle instead of two shifts and an OR.
template <int n>
WARP_TARGET_AVX2 inline __m256i rotl(__m256i x) {
    if constexpr (n == 8) {
        const __m256i rotate8 = _mm256_setr_epi8(7, 0, 1, 2, 3, 4, 5, 6, 15, 8, 9, 10, 11, 12, 13,
                                                 14, 7, 0, 1, 2, 3, 4, 5, 6, 15, 8, 9, 10, 11, 12,
                                                 13, 14);
        return _mm256_shuffle_epi8(x, rotate8);
    } else if constexpr (n == 56) {
        const __m256i rotate56 = _mm256_setr_epi8(1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14,
                                                  15, 8, 1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12,
                                                  13, 14, 15, 8);
        return _mm256_shuffle_epi8(x, rotate56);
    } else {
        return _mm256_or_si256(_mm256_slli_epi64(x, n), _mm256_srli_epi64(x, 64 - n));
    }
}

WARP_TARGET_AVX2 inline __m256i bit_xor(__m256i a, __m256i b) { return _mm256_xor_si256(a, b); }

WARP_TARGET_AVX2 inline __m256i xor5(__m256i a, __m256i b, __m256i c, __m256i d, __m256i e) {
    return bit_xor(bit_xor(bit_xor(a, b), bit_xor(c, d)), e);
}

// ~a & b, chi's term.
WARP_TARGET_AVX2 inline __m256i and_not(__m256i a, __m256i b) { return _mm256_andnot_si256(a, b); }

}  // namespace

WARP_TARGET_AVX2 void keccak_f1600_x4_avx2(KeccakX4& state) noexcept {
    auto* const lanes = reinterpret_cast<__m256i*>(state.lanes.data());
    __m256i a0 = _mm256_load_si256(lanes + 0);
    __m256i a1 = _mm256_load_si256(lanes + 1);
    __m256i a2 = _mm256_load_si256(lanes + 2);
    __m256i a3 = _mm256_load_si256(lanes + 3);
    __m256i a4 = _mm256_load_si256(lanes + 4);
    __m256i a5 = _mm256_load_si256(lanes + 5);
    __m256i a6 = _mm256_load_si256(lanes + 6);
    __m256i a7 = _mm256_load_si256(lanes + 7);
    __m256i a8 = _mm256_load_si256(lanes + 8);
    __m256i a9 = _mm256_load_si256(lanes + 9);
    __m256i a10 = _mm256_load_si256(lanes + 10);
    __m256i a11 = _mm256_load_si256(lanes + 11);
    __m256i a12 = _mm256_load_si256(lanes + 12);
    __m256i a13 = _mm256_load_si256(lanes + 13);
    __m256i a14 = _mm256_load_si256(lanes + 14);
    __m256i a15 = _mm256_load_si256(lanes + 15);
    __m256i a16 = _mm256_load_si256(lanes + 16);
    __m256i a17 = _mm256_load_si256(lanes + 17);
    __m256i a18 = _mm256_load_si256(lanes + 18);
    __m256i a19 = _mm256_load_si256(lanes + 19);
    __m256i a20 = _mm256_load_si256(lanes + 20);
    __m256i a21 = _mm256_load_si256(lanes + 21);
    __m256i a22 = _mm256_load_si256(lanes + 22);
    __m256i a23 = _mm256_load_si256(lanes + 23);
    __m256i a24 = _mm256_load_si256(lanes + 24);
    for (const std::uint64_t round_constant : kKeccakRoundConstants) {
        const __m256i c0 = xor5(a0, a5, a10, a15, a20);
        const __m256i c1 = xor5(a1, a6, a11, a16, a21);
        const __m256i c2 = xor5(a2, a7, a12, a17, a22);
        const __m256i c3 = xor5(a3, a8, a13, a18, a23);
        const __m256i c4 = xor5(a4, a9, a14, a19, a24);
        const __m256i d0 = bit_xor(c4, rotl<1>(c1));
        const __m256i d1 = bit_xor(c0, rotl<1>(c2));
        const __m256i d2 = bit_xor(c1, rotl<1>(c3));
        const __m256i d3 = bit_xor(c2, rotl<1>(c4));
        const __m256i d4 = bit_xor(c3, rotl<1>(c0));
        const __m256i b0 = bit_xor(a0, d0);
        const __m256i b10 = rotl<1>(bit_xor(a1, d1));
        const __m256i b20 = rotl<62>(bit_xor(a2, d2));
        const __m256i b5 = rotl<28>(bit_xor(a3, d3));
        const __m256i b15 = rotl<27>(bit_xor(a4, d4));
        const __m256i b16 = rotl<36>(bit_xor(a5, d0));
        const __m256i b1 = rotl<44>(bit_xor(a6, d1));
        const __m256i b11 = rotl<6>(bit_xor(a7, d2));
        const __m256i b21 = rotl<55>(bit_xor(a8, d3));
        const __m256i b6 = rotl<20>(bit_xor(a9, d4));
        const __m256i b7 = rotl<3>(bit_xor(a10, d0));
        const __m256i b17 = rotl<10>(bit_xor(a11, d1));
        const __m256i b2 = rotl<43>(bit_xor(a12, d2));
        const __m256i b12 = rotl<25>(bit_xor(a13, d3));
        const __m256i b22 = rotl<39>(bit_xor(a14, d4));
        const __m256i b23 = rotl<41>(bit_xor(a15, d0));
        const __m256i b8 = rotl<45>(bit_xor(a16, d1));
        const __m256i b18 = rotl<15>(bit_xor(a17, d2));
        const __m256i b3 = rotl<21>(bit_xor(a18, d3));
        const __m256i b13 = rotl<8>(bit_xor(a19, d4));
        const __m256i b14 = rotl<18>(bit_xor(a20, d0));
        const __m256i b24 = rotl<2>(bit_xor(a21, d1));
        const __m256i b9 = rotl<61>(bit_xor(a22, d2));
        const __m256i b19 = rotl<56>(bit_xor(a23, d3));
        const __m256i b4 = rotl<14>(bit_xor(a24, d4));
        a0 = bit_xor(b0, and_not(b1, b2));
        a1 = bit_xor(b1, and_not(b2, b3));
        a2 = bit_xor(b2, and_not(b3, b4));
        a3 = bit_xor(b3, and_not(b4, b0));
        a4 = bit_xor(b4, and_not(b0, b1));
        a5 = bit_xor(b5, and_not(b6, b7));
        a6 = bit_xor(b6, and_not(b7, b8));
        a7 = bit_xor(b7, and_not(b8, b9));
        a8 = bit_xor(b8, and_not(b9, b5));
        a9 = bit_xor(b9, and_not(b5, b6));
        a10 = bit_xor(b10, and_not(b11, b12));
        a11 = bit_xor(b11, and_not(b12, b13));
        a12 = bit_xor(b12, and_not(b13, b14));
        a13 = bit_xor(b13, and_not(b14, b10));
        a14 = bit_xor(b14, and_not(b10, b11));
        a15 = bit_xor(b15, and_not(b16, b17));
        a16 = bit_xor(b16, and_not(b17, b18));
        a17 = bit_xor(b17, and_not(b18, b19));
        a18 = bit_xor(b18, and_not(b19, b15));
        a19 = bit_xor(b19, and_not(b15, b16));
        a20 = bit_xor(b20, and_not(b21, b22));
        a21 = bit_xor(b21, and_not(b22, b23));
        a22 = bit_xor(b22, and_not(b23, b24));
        a23 = bit_xor(b23, and_not(b24, b20));
        a24 = bit_xor(b24, and_not(b20, b21));
        a0 = _mm256_xor_si256(a0, _mm256_set1_epi64x(static_cast<long long>(round_constant)));
    }
    _mm256_store_si256(lanes + 0, a0);
    _mm256_store_si256(lanes + 1, a1);
    _mm256_store_si256(lanes + 2, a2);
    _mm256_store_si256(lanes + 3, a3);
    _mm256_store_si256(lanes + 4, a4);
    _mm256_store_si256(lanes + 5, a5);
    _mm256_store_si256(lanes + 6, a6);
    _mm256_store_si256(lanes + 7, a7);
    _mm256_store_si256(lanes + 8, a8);
    _mm256_store_si256(lanes + 9, a9);
    _mm256_store_si256(lanes + 10, a10);
    _mm256_store_si256(lanes + 11, a11);
    _mm256_store_si256(lanes + 12, a12);
    _mm256_store_si256(lanes + 13, a13);
    _mm256_store_si256(lanes + 14, a14);
    _mm256_store_si256(lanes + 15, a15);
    _mm256_store_si256(lanes + 16, a16);
    _mm256_store_si256(lanes + 17, a17);
    _mm256_store_si256(lanes + 18, a18);
    _mm256_store_si256(lanes + 19, a19);
    _mm256_store_si256(lanes + 20, a20);
    _mm256_store_si256(lanes + 21, a21);
    _mm256_store_si256(lanes + 22, a22);
    _mm256_store_si256(lanes + 23, a23);
    _mm256_store_si256(lanes + 24, a24);
}

}  // namespace warp::formats::pq
