// GCM's counter mode on VAES, W::kBlocks counter blocks per vector (width-generic, see
// ghash_vaes.hpp; every function carries WARP_VAES_TARGET).
//
// Counters are kept byte-reversed: reversing the 16-byte block J0 puts its last four bytes (the
// big-endian 32-bit counter) into dword 0 as a native integer. A 32-bit add on that dword is
// then exactly inc32: it wraps modulo 2^32 and cannot carry into the other 96 bits
// (Wycheproof's counter-wrap vectors start just below 2^32). One byte shuffle turns a vector
// back into blocks.
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

inline constexpr int kCtrVectorsPerStep = kGhashVectors;  // one GHASH step per CTR step
template <typename W>
inline constexpr std::size_t kCtrStepBytes = kGhashStepBytes<W>;

// The next vector of counter blocks in normal byte order, advancing the counters.
template <typename W>
WARP_VAES_TARGET inline typename W::V next_counter_blocks(typename W::V& counters) {
    const typename W::V blocks = W::byte_reverse(counters);
    counters = W::add_counters(counters);
    return blocks;
}

// XORs the keystream of N vectors into 16 W::kBlocks N bytes. The last round takes the data
// XORed into its key: aesenclast(x, k) ^ d == aesenclast(x, k ^ d), which shortens the
// dependency chain.
template <typename W, int Rounds, int N>
WARP_VAES_TARGET inline void ctr_xor_vectors(const RoundKeys& aes, typename W::V& counters,
                                             const std::uint8_t* in, std::uint8_t* out) {
    constexpr std::size_t kVectorBytes = 16 * W::kBlocks;
    typename W::V v[N];
    const typename W::V rk0 = W::round_key(aes, 0);
#pragma GCC unroll 16
    for (int j = 0; j < N; ++j) v[j] = W::xor_(next_counter_blocks<W>(counters), rk0);
#pragma GCC unroll 16
    for (int r = 1; r < Rounds; ++r) {
        const typename W::V rk = W::round_key(aes, r);
#pragma GCC unroll 16
        for (int j = 0; j < N; ++j) v[j] = W::aesenc(v[j], rk);
    }
    const typename W::V rk_last = W::round_key(aes, Rounds);
#pragma GCC unroll 16
    for (int j = 0; j < N; ++j) {
        const typename W::V data = W::load(in + kVectorBytes * j);
        W::store(out + kVectorBytes * j, W::aesenclast(v[j], W::xor_(rk_last, data)));
    }
}

// Less than a step (any length): 4 vectors at a time, then single vectors, then a zero-padded
// copy for the last partial vector so nothing is read or written out of bounds.
template <typename W, int Rounds>
WARP_VAES_TARGET inline void ctr_xor_tail(const RoundKeys& aes, typename W::V& counters,
                                          const std::uint8_t* in, std::uint8_t* out,
                                          std::size_t len) {
    constexpr std::size_t kVectorBytes = 16 * W::kBlocks;
    for (; len >= 4 * kVectorBytes; len -= 4 * kVectorBytes, in += 4 * kVectorBytes,
                                    out += 4 * kVectorBytes)
        ctr_xor_vectors<W, Rounds, 4>(aes, counters, in, out);
    for (; len >= kVectorBytes; len -= kVectorBytes, in += kVectorBytes, out += kVectorBytes)
        ctr_xor_vectors<W, Rounds, 1>(aes, counters, in, out);
    if (len == 0) return;
    alignas(64) std::uint8_t partial[kVectorBytes] = {};
    std::memcpy(partial, in, len);
    ctr_xor_vectors<W, Rounds, 1>(aes, counters, partial, partial);
    std::memcpy(out, partial, len);
    secure_wipe(partial, sizeof partial);  // plaintext and unused keystream
}

// The main step of seal and open: CTR over the next step of blocks in -> out while hashing a
// step of ciphertext blocks at `hashed_blocks`. Seal passes the ciphertext its previous step
// wrote (its own does not exist yet); open passes `in` itself, the ciphertext of this very
// step: every load of hashed_blocks is issued in the rounds, before the first store to out,
// so that holds in place (out == in) too. On Zen 3 a 256-bit VPCLMULQDQ holds one of the two
// AES-capable pipes for two cycles, so the 24 multiplications are spread evenly over the
// middle AES rounds (about two per round) rather than bunched three per round into the first
// eight: the scheduler then always has AES work for the other pipe (measured ~10% faster per
// step). Returns the accumulator after `hashed_blocks`.
template <typename W, int Rounds>
WARP_VAES_TARGET inline __m128i ctr_xor_and_hash(const RoundKeys& aes, const GhashKey<W>& ghash,
                                                 typename W::V& counters, const std::uint8_t* in,
                                                 std::uint8_t* out,
                                                 const std::uint8_t* hashed_blocks, __m128i acc) {
    using V = typename W::V;
    constexpr std::size_t kVectorBytes = 16 * W::kBlocks;
    constexpr int kMultiplies = 3 * kCtrVectorsPerStep;  // lo, hi, Karatsuba middle per vector
    V v[kCtrVectorsPerStep];
    V hashed[kCtrVectorsPerStep];
    const V rk0 = W::round_key(aes, 0);
#pragma GCC unroll 16
    for (int j = 0; j < kCtrVectorsPerStep; ++j)
        v[j] = W::xor_(next_counter_blocks<W>(counters), rk0);
    GhashSums<W> sums = ghash_sums_zero<W>();
#pragma GCC unroll 16
    for (int r = 1; r < Rounds; ++r) {
        const V rk = W::round_key(aes, r);
#pragma GCC unroll 16
        for (int j = 0; j < kCtrVectorsPerStep; ++j) v[j] = W::aesenc(v[j], rk);
        // Multiplications m in [first, last) belong to this round; m / 3 is the vector.
        const int first = (r - 1) * kMultiplies / (Rounds - 1);
        const int last = r * kMultiplies / (Rounds - 1);
#pragma GCC unroll 4
        for (int m = first; m < last; ++m) {
            const int g = m / 3;
            const V h = load_powers(ghash, W::kBlocks * g);
            switch (m % 3) {
                case 0:
                    hashed[g] = load_reversed<W>(hashed_blocks + kVectorBytes * g);
                    if (g == 0) hashed[g] = W::add_to_first_block(hashed[g], acc);
                    sums.lo = W::xor_(sums.lo, W::template clmul<0x00>(hashed[g], h));
                    break;
                case 1:
                    sums.hi = W::xor_(sums.hi, W::template clmul<0x11>(hashed[g], h));
                    break;
                default: {
                    const V hf = load_folded(ghash, W::kBlocks * g);
                    const V folded = W::xor_(hashed[g], W::swap_qwords(hashed[g]));
                    sums.mid = W::xor_(sums.mid, W::template clmul<0x00>(folded, hf));
                }
            }
        }
    }
    const V rk_last = W::round_key(aes, Rounds);
#pragma GCC unroll 16
    for (int j = 0; j < kCtrVectorsPerStep; ++j) {
        const V data = W::load(in + kVectorBytes * j);
        W::store(out + kVectorBytes * j, W::aesenclast(v[j], W::xor_(rk_last, data)));
    }
    return ghash_finish(sums);
}

}  // namespace warp::x86::vaes
