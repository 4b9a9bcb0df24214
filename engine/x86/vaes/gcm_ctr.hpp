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
    counters = W::advance_counters(counters, W::kBlocks);
    return blocks;
}

// Whether a step starting at counter value `next` stays within its lowest byte. The counter
// comes from the nonce, which is public: branching on it leaks nothing.
template <typename W>
constexpr bool counter_last_byte_free(std::uint32_t next) {
    return (next & 0xff) <= 256 - W::kBlocks * kCtrVectorsPerStep;
}

// The first round's input of a step's N vectors, counter blocks XOR round key 0, advancing the
// counters. LastByteFree: the caller knows that the step's counters do not carry out of their
// lowest byte (counter_last_byte_free, 7 steps in 8); then one byte shuffle serves the whole
// step and each vector's blocks are one addition to byte 15, instead of a shuffle and an
// addition per vector: 8 fewer shuffles per step on the vector port the AES unit does not use.
template <typename W, int N, bool LastByteFree>
WARP_VAES_TARGET inline void first_round_inputs(typename W::V& counters, typename W::V rk0,
                                                typename W::V (&v)[N]) {
    if constexpr (LastByteFree) {
        const typename W::V first = W::byte_reverse(counters);
        v[0] = W::xor_(first, rk0);
#pragma GCC unroll 16
        for (int j = 1; j < N; ++j) v[j] = W::xor_(W::add_to_last_byte(first, W::kBlocks * j), rk0);
        counters = W::advance_counters(counters, W::kBlocks * N);
    } else {
#pragma GCC unroll 16
        for (int j = 0; j < N; ++j) v[j] = W::xor_(next_counter_blocks<W>(counters), rk0);
    }
}

// XORs the keystream of N vectors into 16 W::kBlocks N bytes. The last round takes the data
// XORed into its key: aesenclast(x, k) ^ d == aesenclast(x, k ^ d), which shortens the
// dependency chain.
template <typename W, int Rounds, int N>
WARP_VAES_TARGET inline void ctr_xor_vectors(const RoundKeys& aes, typename W::V& counters,
                                             const std::uint8_t* in, std::uint8_t* out) {
    constexpr std::size_t kVectorBytes = 16 * W::kBlocks;
    typename W::V v[N];
    first_round_inputs<W, N, false>(counters, W::round_key(aes, 0), v);
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

// The step for 512-bit vectors (W::kSchoolbookStep), where the AES unit has one port and
// every other vector instruction competes for the one other port that takes 512-bit work: the
// same step with as few of those as GCM allows, spread evenly over the rounds. The schoolbook's
// four products per vector (no Karatsuba folds), sums added three at a time, one reduction in
// every lane and one addition of the lanes per step; the counter blocks made with one shuffle
// when no carry leaves their last byte. docs/performance.md, "AES-256-GCM on AVX-512", has the
// profile and llvm-mca figures that led here.
//
// What it hashes (HashedSource): open hashes its own input, each vector loaded once for both
// uses; seal hashes the previous step's ciphertext from `carried`, where the step before left
// it, rather than loading it back from memory just after it was stored (a store-to-load wait
// that cost seal 6 cycles a step), and leaves its own there. Callers inline it into their loop
// so that the vectors stay in registers.
enum class HashedSource { input, carried };

template <typename W, int Rounds, bool LastByteFree, HashedSource Source>
[[gnu::always_inline]] WARP_VAES_TARGET inline __m128i ctr_xor_and_hash_schoolbook(
    const RoundKeys& aes, const GhashKey<W>& ghash, typename W::V& counters,
    const std::uint8_t* in, std::uint8_t* out, typename W::V* carried, __m128i acc) {
    using V = typename W::V;
    constexpr int kVectors = kCtrVectorsPerStep;
    constexpr std::size_t kVectorBytes = 16 * W::kBlocks;
    constexpr int kSlots = 4 * kVectors;     // four products per hashed vector
    constexpr int kHashRounds = Rounds - 4;  // rounds that multiply; the next two reduce
    V v[kVectors];
    first_round_inputs<W, kVectors, LastByteFree>(counters, W::round_key(aes, 0), v);
    const V poly = W::broadcast(reduction_constant128());
    const V rk_last = W::round_key(aes, Rounds);
    V data[kVectors], power[kVectors], lo_mid[kVectors], last_key_and_data[kVectors];
    V lo, mid, hi;
    __m128i sum{};
#pragma GCC unroll 16
    for (int r = 1; r < Rounds; ++r) {
        const V rk = W::round_key(aes, r);
#pragma GCC unroll 16
        for (int j = 0; j < kVectors; ++j) v[j] = W::aesenc(v[j], rk);
        const int first = r > kHashRounds ? kSlots : (r - 1) * kSlots / kHashRounds;
        const int last = r > kHashRounds ? kSlots : r * kSlots / kHashRounds;
#pragma GCC unroll 8
        for (int m = first; m < last; ++m) {
            const int g = m / 4;
            switch (m % 4) {
                case 0: {
                    if constexpr (Source == HashedSource::carried) {
                        data[g] = W::byte_reverse(carried[g]);
                    } else {
                        const V input = W::load(in + kVectorBytes * g);
                        data[g] = W::byte_reverse(input);
                        last_key_and_data[g] = W::xor_(rk_last, input);
                    }
                    if (g == 0) data[g] = W::add_to_first_block(data[g], acc);
                    power[g] = load_powers(ghash, W::kBlocks * g);
                    const V p = W::template clmul<0x00>(data[g], power[g]);
                    lo = g == 0 ? p : W::xor_(lo, p);
                    break;
                }
                case 1: {
                    const V p = W::template clmul<0x11>(data[g], power[g]);
                    hi = g == 0 ? p : W::xor_(hi, p);
                    break;
                }
                case 2:
                    lo_mid[g] = W::template clmul<0x01>(data[g], power[g]);
                    break;
                default: {
                    const V p = W::template clmul<0x10>(data[g], power[g]);
                    mid = g == 0 ? W::xor_(lo_mid[g], p) : W::xor3(mid, lo_mid[g], p);
                }
            }
        }
        // ghash_reduce_lanes, its two folds a round apart.
        if (r == kHashRounds + 1) mid = ghash_fold<W>(lo, mid, poly);
        if (r == kHashRounds + 2) sum = W::fold_lanes(ghash_fold<W>(mid, hi, poly));
        if (Source == HashedSource::carried && r >= Rounds - 2) {
            // the last round's key with the data in, half per round
            constexpr int kHalf = kVectors / 2;
            const int from = r == Rounds - 2 ? 0 : kHalf;
#pragma GCC unroll 16
            for (int j = from; j < from + kHalf; ++j)
                last_key_and_data[j] = W::xor_(rk_last, W::load(in + kVectorBytes * j));
        }
    }
#pragma GCC unroll 16
    for (int j = 0; j < kVectors; ++j) {
        const V ciphertext = W::aesenclast(v[j], last_key_and_data[j]);
        W::store(out + kVectorBytes * j, ciphertext);
        if constexpr (Source == HashedSource::carried) carried[j] = ciphertext;
    }
    return sum;
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
// LastByteFree: as first_round_inputs takes it.
template <typename W, int Rounds, bool LastByteFree>
WARP_VAES_TARGET inline __m128i ctr_xor_and_hash(const RoundKeys& aes, const GhashKey<W>& ghash,
                                                 typename W::V& counters, const std::uint8_t* in,
                                                 std::uint8_t* out,
                                                 const std::uint8_t* hashed_blocks, __m128i acc) {
    using V = typename W::V;
    constexpr std::size_t kVectorBytes = 16 * W::kBlocks;
    constexpr int kMultiplies = 3 * kCtrVectorsPerStep;  // lo, hi, Karatsuba middle per vector
    V v[kCtrVectorsPerStep];
    V hashed[kCtrVectorsPerStep];
    first_round_inputs<W, kCtrVectorsPerStep, LastByteFree>(counters, W::round_key(aes, 0), v);
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
