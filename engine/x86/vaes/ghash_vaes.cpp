// GHASH key setup and the general-length update for the VAES backend (see ghash_vaes.hpp).
#include "engine/x86/vaes/ghash_vaes.hpp"

namespace warp::x86::vaes {
namespace {

// Multiplies the byte-reversed H by x (in the reversed order: a left shift by one with the
// carry out of bit 127 folded back by the reduction constant). Without a branch: H is secret.
WARP_TARGET_VAES_AVX2 __m128i times_x(__m128i h) {
    const auto lo = static_cast<std::uint64_t>(_mm_cvtsi128_si64(h));
    const auto hi = static_cast<std::uint64_t>(_mm_extract_epi64(h, 1));
    const std::uint64_t overflow = 0 - (hi >> 63);
    const std::uint64_t new_hi = ((hi << 1) | (lo >> 63)) ^ (overflow & 0xc200000000000000ULL);
    const std::uint64_t new_lo = (lo << 1) ^ (overflow & 1);
    return _mm_set_epi64x(static_cast<long long>(new_hi), static_cast<long long>(new_lo));
}

WARP_TARGET_VAES_AVX2 void store128(std::uint8_t dst[16], __m128i v) {
    _mm_store_si128(reinterpret_cast<__m128i*>(dst), v);
}

}  // namespace

WARP_TARGET_VAES_AVX2 void init_ghash_key(GhashKey& key, __m128i h) {
    const __m128i h1 = times_x(_mm_shuffle_epi8(h, byte_reverse_mask128()));
    __m128i power = h1;
    for (int n = 1; n <= kGhashPowers; ++n) {
        const int k = kGhashPowers - n;
        store128(key.powers[k], power);
        store128(key.folded[k], _mm_xor_si128(power, _mm_shuffle_epi32(power, 0x4e)));
        power = ghash_mul(power, h1);
    }
    store128(key.powers[kGhashPowers], _mm_setzero_si128());
    store128(key.folded[kGhashPowers], _mm_setzero_si128());
}

WARP_TARGET_VAES_AVX2 __m128i ghash_update(const GhashKey& key, __m128i acc,
                                           const std::uint8_t* data, std::size_t len) {
    for (; len >= kGhashStepBytes; len -= kGhashStepBytes, data += kGhashStepBytes)
        acc = ghash_16_blocks(key, acc, data);
    if (len > 0) acc = ghash_run(key, acc, data, len);
    return acc;
}

}  // namespace warp::x86::vaes
