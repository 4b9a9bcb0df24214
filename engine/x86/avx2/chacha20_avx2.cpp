// ChaCha20 on AVX2, in two layouts.
//
// Bulk: eight blocks at once, "vertical": register i holds word i of eight consecutive blocks,
// one block per 32-bit lane. Every quarter round is then the same lane-wise add/xor/rotate
// and the rounds need no shuffles. 16 state registers fill the whole YMM file, so the
// compiler spills a few; the cost is small next to the 20 rounds. Only the finished
// keystream is transposed back to block order (an 8x8 transpose of 32-bit words, twice).
//
// Short: four blocks as two independent pairs, "horizontal": register a, b, c, d holds rows
// 0..3 of the state, one block per 128-bit half, and the diagonal rounds rotate rows b, c, d
// with one in-lane shuffle each. One pair is latency bound (each round is a serial chain),
// so two independent pairs cost about the time of one. Used for block 0 (the Poly1305 key)
// with the first 192 message bytes, and for tails under 256 bytes.
//
// Rotations by 16 and 8 are byte shuffles (one instruction); by 12 and 7, shift-shift-or.
// Nothing branches on or indexes by secret data.
#include "engine/x86/avx2/chacha20_avx2.hpp"
#include "engine/x86/avx2/chacha_rounds_avx2.hpp"

#include <immintrin.h>

#include <cstring>

#include "engine/scalar/chacha/little_endian.hpp"
#include "engine/secure_memory.hpp"
#include "engine/x86/isa.hpp"

namespace warp::x86::avx2 {
namespace {

using namespace rounds;

// Words first_word .. first_word+3 of the input in both 128-bit halves.
WARP_TARGET_AVX2 static inline __m256i row(const ChaChaInput& input, int first_word) {
    return _mm256_broadcastsi128_si256(
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(&input.word[first_word])));
}

}  // namespace

WARP_TARGET_AVX2 void chacha20_keystream4(const ChaChaInput& input, std::uint32_t counter,
                                          std::uint8_t out[kChaChaShortBytes]) {
    const __m256i a0 = row(input, 0), b0 = row(input, 4), c0 = row(input, 8);
    // Row 3 of each pair: the counters of its two blocks in word 12, the nonce after.
    const __m256i d_base = _mm256_blend_epi32(row(input, 12), broadcast(counter), 0x11);
    const __m256i d0_first = _mm256_add_epi32(d_base, _mm256_setr_epi32(0, 0, 0, 0, 1, 0, 0, 0));
    const __m256i d0_second = _mm256_add_epi32(d_base, _mm256_setr_epi32(2, 0, 0, 0, 3, 0, 0, 0));

    __m256i a[2] = {a0, a0}, b[2] = {b0, b0}, c[2] = {c0, c0}, d[2] = {d0_first, d0_second};
    for (int round = 0; round < kDoubleRounds; ++round) {
        for (int p = 0; p < 2; ++p) quarter_round(a[p], b[p], c[p], d[p]);  // columns
        for (int p = 0; p < 2; ++p) {  // move the diagonals into columns
            b[p] = _mm256_shuffle_epi32(b[p], 0x39);
            c[p] = _mm256_shuffle_epi32(c[p], 0x4e);
            d[p] = _mm256_shuffle_epi32(d[p], 0x93);
        }
        for (int p = 0; p < 2; ++p) quarter_round(a[p], b[p], c[p], d[p]);  // diagonals
        for (int p = 0; p < 2; ++p) {  // and back
            b[p] = _mm256_shuffle_epi32(b[p], 0x93);
            c[p] = _mm256_shuffle_epi32(c[p], 0x4e);
            d[p] = _mm256_shuffle_epi32(d[p], 0x39);
        }
    }
    for (int p = 0; p < 2; ++p) {
        const __m256i ra = _mm256_add_epi32(a[p], a0);
        const __m256i rb = _mm256_add_epi32(b[p], b0);
        const __m256i rc = _mm256_add_epi32(c[p], c0);
        const __m256i rd = _mm256_add_epi32(d[p], p == 0 ? d0_first : d0_second);
        auto* dst = reinterpret_cast<__m256i*>(out + 2 * p * kChaChaBlockSize);
        _mm256_storeu_si256(dst + 0, _mm256_permute2x128_si256(ra, rb, 0x20));  // block 2p
        _mm256_storeu_si256(dst + 1, _mm256_permute2x128_si256(rc, rd, 0x20));
        _mm256_storeu_si256(dst + 2, _mm256_permute2x128_si256(ra, rb, 0x31));  // block 2p+1
        _mm256_storeu_si256(dst + 3, _mm256_permute2x128_si256(rc, rd, 0x31));
    }
}

WARP_TARGET_AVX2 void chacha20_xor(const ChaChaInput& input, std::uint32_t counter,
                                   const std::uint8_t* in, std::uint8_t* out, std::size_t len) {
    for (; len >= kWideBytes; len -= kWideBytes, in += kWideBytes, out += kWideBytes) {
        xor_wide(input, counter, in, out);
        counter += static_cast<std::uint32_t>(kWideBlocks);
    }
    if (len == 0) return;
    // A tail: compute in a stack buffer, copy the bytes that exist, wipe the keystream.
    alignas(32) std::uint8_t buffer[kWideBytes];
    if (len > kChaChaShortBytes) {
        std::memcpy(buffer, in, len);
        xor_wide(input, counter, buffer, buffer);
        std::memcpy(out, buffer, len);
    } else {
        chacha20_keystream4(input, counter, buffer);
        for (std::size_t i = 0; i < len; ++i) out[i] = static_cast<std::uint8_t>(in[i] ^ buffer[i]);
    }
    secure_wipe(buffer, sizeof buffer);
}

}  // namespace warp::x86::avx2
