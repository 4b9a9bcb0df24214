// AES on VAES: round keys stored pre-broadcast to both 128-bit lanes, so every round of a
// 256-bit kernel is one `vaesenc ymm, ymm, m256` with the key straight from memory (no
// broadcast instruction, no register held per round key), and a 128-bit kernel reads the
// low half of the same 32 bytes.
//
// Kernels are templates on the round count (10, 12, 14): the round loop unrolls completely
// and the key-length dispatch happens once per call, never per block.
#pragma once

#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "engine/x86/isa.hpp"

namespace warp::x86::vaes {

inline constexpr int kMaxRounds = 14;

// One key schedule: round key i in both lanes of keys[i]. 32-byte alignment for the loads.
struct RoundKeys {
    alignas(32) std::uint8_t keys[kMaxRounds + 1][32];
    int rounds;  // 10, 12 or 14
};

// Encryption schedule from a 16-, 24- or 32-byte key (FIPS 197 KeyExpansion, with
// AESKEYGENASSIST doing SubWord so no table is ever indexed by key bytes).
void expand_encryption_key(RoundKeys& enc, const std::uint8_t* key, std::size_t key_len);
// The Equivalent Inverse Cipher's schedule (FIPS 197 5.3.5) for AESDEC, from `enc`.
void derive_decryption_key(RoundKeys& dec, const RoundKeys& enc);

WARP_TARGET_VAES_AVX2 inline __m256i round_key256(const RoundKeys& k, int i) {
    return _mm256_load_si256(reinterpret_cast<const __m256i*>(k.keys[i]));
}

WARP_TARGET_VAES_AVX2 inline __m128i round_key128(const RoundKeys& k, int i) {
    return _mm_load_si128(reinterpret_cast<const __m128i*>(k.keys[i]));
}

// One 16-byte block, every round (used for H, E_K(J0) and odd leftover blocks).
template <int Rounds>
WARP_TARGET_VAES_AVX2 inline __m128i encrypt_block(const RoundKeys& k, __m128i b) {
    b = _mm_xor_si128(b, round_key128(k, 0));
#pragma GCC unroll 16
    for (int r = 1; r < Rounds; ++r) b = _mm_aesenc_si128(b, round_key128(k, r));
    return _mm_aesenclast_si128(b, round_key128(k, Rounds));
}

// Runtime-rounds variant for setup code that runs once per key.
WARP_TARGET_VAES_AVX2 inline __m128i encrypt_block_any(const RoundKeys& k, __m128i b) {
    b = _mm_xor_si128(b, round_key128(k, 0));
    for (int r = 1; r < k.rounds; ++r) b = _mm_aesenc_si128(b, round_key128(k, r));
    return _mm_aesenclast_si128(b, round_key128(k, k.rounds));
}

}  // namespace warp::x86::vaes
