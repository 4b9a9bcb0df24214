// GCM's counter mode on VAES, two counter blocks per 256-bit vector.
//
// Counters are kept byte-reversed: reversing the 16-byte block J0 puts its last four bytes (the
// big-endian 32-bit counter) into dword 0 as a native integer. VPADDD on that dword is then
// exactly inc32: it wraps modulo 2^32 and cannot carry into the other 96 bits (Wycheproof's
// counter-wrap vectors start just below 2^32). One VPSHUFB turns a vector back into blocks.
#pragma once

#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "engine/secure_memory.hpp"
#include "engine/x86/isa.hpp"
#include "engine/x86/vaes/aes_vaes.hpp"
#include "engine/x86/vaes/ghash_vaes.hpp"

namespace warp::x86::vaes {

inline constexpr int kCtrVectorsPerStep = 8;  // 16 blocks: matches GHASH's 16 powers
inline constexpr std::size_t kCtrStepBytes = 32 * kCtrVectorsPerStep;
static_assert(kCtrStepBytes == kGhashStepBytes);

// [J0 + 1, J0 + 2] (byte-reversed) from the byte-reversed J0.
WARP_TARGET_VAES_AVX2 inline __m256i first_counters(__m128i j0_reversed) {
    return _mm256_add_epi32(_mm256_broadcastsi128_si256(j0_reversed),
                            _mm256_set_epi32(0, 0, 0, 2, 0, 0, 0, 1));
}

// The next two counter blocks in normal byte order, advancing the counters by two.
WARP_TARGET_VAES_AVX2 inline __m256i next_counter_blocks(__m256i& counters) {
    const __m256i blocks = _mm256_shuffle_epi8(counters, byte_reverse_mask256());
    counters = _mm256_add_epi32(counters, _mm256_set_epi32(0, 0, 0, 2, 0, 0, 0, 2));
    return blocks;
}

// XORs the keystream of N vectors into 32N bytes. The last round takes the data XORed into
// its key: aesenclast(x, k) ^ d == aesenclast(x, k ^ d), which shortens the dependency chain.
template <int Rounds, int N>
WARP_TARGET_VAES_AVX2 inline void ctr_xor_vectors(const RoundKeys& aes, __m256i& counters,
                                                  const std::uint8_t* in, std::uint8_t* out) {
    __m256i v[N];
    const __m256i rk0 = round_key256(aes, 0);
#pragma GCC unroll 16
    for (int j = 0; j < N; ++j) v[j] = _mm256_xor_si256(next_counter_blocks(counters), rk0);
    encrypt_rounds_but_last<Rounds, N>(aes, v);
    const __m256i rk_last = round_key256(aes, Rounds);
#pragma GCC unroll 16
    for (int j = 0; j < N; ++j) {
        const __m256i data = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + 32 * j));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 32 * j),
                            _mm256_aesenclast_epi128(v[j], _mm256_xor_si256(rk_last, data)));
    }
}

// Fewer than 256 bytes (any length): 4 vectors at a time, then single vectors, then a
// zero-padded copy for the last partial vector so nothing is read or written out of bounds.
template <int Rounds>
WARP_TARGET_VAES_AVX2 inline void ctr_xor_tail(const RoundKeys& aes, __m256i& counters,
                                               const std::uint8_t* in, std::uint8_t* out,
                                               std::size_t len) {
    for (; len >= 128; len -= 128, in += 128, out += 128)
        ctr_xor_vectors<Rounds, 4>(aes, counters, in, out);
    for (; len >= 32; len -= 32, in += 32, out += 32)
        ctr_xor_vectors<Rounds, 1>(aes, counters, in, out);
    if (len == 0) return;
    alignas(32) std::uint8_t partial[32] = {};
    std::memcpy(partial, in, len);
    ctr_xor_vectors<Rounds, 1>(aes, counters, partial, partial);
    std::memcpy(out, partial, len);
    secure_wipe(partial, sizeof partial);  // plaintext and unused keystream
}

// The main step of seal and open: CTR over the next 16 blocks in -> out while hashing 16
// ciphertext blocks at `hashed_blocks`. Seal passes the ciphertext its previous step wrote (its
// own does not exist yet); open passes `in` itself, the ciphertext of this very step: every
// load of hashed_blocks is issued in the rounds, before the first store to out, so that holds
// in place (out == in) too. On Zen 3 a 256-bit VPCLMULQDQ holds one of the two AES-capable pipes for two
// cycles, so the 24 multiplications are spread evenly over the middle AES rounds (about two
// per round) rather than bunched three per round into the first eight: the scheduler then
// always has AES work for the other pipe (measured ~10% faster per step). Returns the
// accumulator after `hashed_blocks`.
template <int Rounds>
WARP_TARGET_VAES_AVX2 inline __m128i ctr_xor_and_hash(const RoundKeys& aes, const GhashKey& ghash,
                                                      __m256i& counters, const std::uint8_t* in,
                                                      std::uint8_t* out,
                                                      const std::uint8_t* hashed_blocks,
                                                      __m128i acc) {
    constexpr int kMultiplies = 3 * kCtrVectorsPerStep;  // lo, hi, Karatsuba middle per vector
    __m256i v[kCtrVectorsPerStep];
    __m256i hashed[kCtrVectorsPerStep];
    const __m256i rk0 = round_key256(aes, 0);
#pragma GCC unroll 16
    for (int j = 0; j < kCtrVectorsPerStep; ++j)
        v[j] = _mm256_xor_si256(next_counter_blocks(counters), rk0);
    GhashSums sums = ghash_sums_zero();
#pragma GCC unroll 16
    for (int r = 1; r < Rounds; ++r) {
        const __m256i rk = round_key256(aes, r);
#pragma GCC unroll 16
        for (int j = 0; j < kCtrVectorsPerStep; ++j) v[j] = _mm256_aesenc_epi128(v[j], rk);
        // Multiplications m in [first, last) belong to this round; m / 3 is the vector.
        const int first = (r - 1) * kMultiplies / (Rounds - 1);
        const int last = r * kMultiplies / (Rounds - 1);
#pragma GCC unroll 4
        for (int m = first; m < last; ++m) {
            const int g = m / 3;
            const __m256i h =
                _mm256_loadu_si256(reinterpret_cast<const __m256i*>(ghash.powers[2 * g]));
            switch (m % 3) {
                case 0:
                    hashed[g] = load_reversed(hashed_blocks + 32 * g);
                    if (g == 0) hashed[g] = with_accumulator(hashed[g], acc);
                    sums.lo =
                        _mm256_xor_si256(sums.lo, _mm256_clmulepi64_epi128(hashed[g], h, 0x00));
                    break;
                case 1:
                    sums.hi =
                        _mm256_xor_si256(sums.hi, _mm256_clmulepi64_epi128(hashed[g], h, 0x11));
                    break;
                default: {
                    const __m256i hf =
                        _mm256_loadu_si256(reinterpret_cast<const __m256i*>(ghash.folded[2 * g]));
                    const __m256i folded =
                        _mm256_xor_si256(hashed[g], _mm256_shuffle_epi32(hashed[g], 0x4e));
                    sums.mid =
                        _mm256_xor_si256(sums.mid, _mm256_clmulepi64_epi128(folded, hf, 0x00));
                }
            }
        }
    }
    const __m256i rk_last = round_key256(aes, Rounds);
#pragma GCC unroll 16
    for (int j = 0; j < kCtrVectorsPerStep; ++j) {
        const __m256i data = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + 32 * j));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 32 * j),
                            _mm256_aesenclast_epi128(v[j], _mm256_xor_si256(rk_last, data)));
    }
    return ghash_finish(sums);
}

}  // namespace warp::x86::vaes
