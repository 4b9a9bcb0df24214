// AES on AES-NI, 128-bit registers: the round keys, the straight-line round helpers, and
// AesPrimitives, from which engine/aes_128bit_vector's shared bodies (ECB in aes_block.cpp, the key
// schedule in aes_key_schedule.cpp, GCM in gcm.cpp) are built for this ISA. Every helper
// carries WARP_TARGET_AESNI, so it is inlined only into kernels that the registry hands out
// after checking AES-NI.
#pragma once

#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "engine/x86/isa.hpp"

namespace warp::x86::aesni {

inline constexpr unsigned kMaxRounds = 14;  // AES-256

// rounds + 1 round keys, each in the byte order of the block (the order aesenc expects).
struct alignas(16) RoundKeys {
    __m128i key[kMaxRounds + 1];
    unsigned rounds;  // 10, 12 or 14: public, from the key length
};

// FIPS 197, 5.2 KeyExpansion for a 16-, 24- or 32-byte key (aes_key_schedule.cpp).
void expand_encryption_key(RoundKeys& keys, const std::uint8_t* key, std::size_t key_len);

// The equivalent inverse cipher's schedule (FIPS 197, 5.3.5): the encryption keys in reverse
// order, InvMixColumns (aesimc) applied to all but the first and last.
void derive_decryption_keys(const RoundKeys& encryption, RoundKeys& decryption);

WARP_TARGET_AESNI inline __m128i load_block(const std::uint8_t* p) {
    return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
}

WARP_TARGET_AESNI inline void store_block(std::uint8_t* p, __m128i block) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(p), block);
}

// `count` independent blocks go through each round together: aesenc has a latency of several
// cycles but more than one can start per cycle, so only several blocks in flight keep the AES
// units busy. `count` is a compile-time constant so the blocks stay in registers.
template <std::size_t count>
WARP_TARGET_AESNI inline void encrypt_blocks(const RoundKeys& keys, __m128i (&blocks)[count]) {
    for (std::size_t b = 0; b < count; ++b) blocks[b] = _mm_xor_si128(blocks[b], keys.key[0]);
    for (unsigned r = 1; r < keys.rounds; ++r) {
        const __m128i round_key = keys.key[r];
        for (std::size_t b = 0; b < count; ++b) blocks[b] = _mm_aesenc_si128(blocks[b], round_key);
    }
    const __m128i last = keys.key[keys.rounds];
    for (std::size_t b = 0; b < count; ++b) blocks[b] = _mm_aesenclast_si128(blocks[b], last);
}

// The same with the decryption schedule of derive_decryption_keys.
template <std::size_t count>
WARP_TARGET_AESNI inline void decrypt_blocks(const RoundKeys& keys, __m128i (&blocks)[count]) {
    for (std::size_t b = 0; b < count; ++b) blocks[b] = _mm_xor_si128(blocks[b], keys.key[0]);
    for (unsigned r = 1; r < keys.rounds; ++r) {
        const __m128i round_key = keys.key[r];
        for (std::size_t b = 0; b < count; ++b) blocks[b] = _mm_aesdec_si128(blocks[b], round_key);
    }
    const __m128i last = keys.key[keys.rounds];
    for (std::size_t b = 0; b < count; ++b) blocks[b] = _mm_aesdeclast_si128(blocks[b], last);
}

// The target attribute of engine/aes_128bit_vector's bodies in the files that include this header.
#define WARP_AES_VECTOR_TARGET WARP_TARGET_AESNI

// What engine/aes_128bit_vector/ecb.hpp and key_schedule.hpp need from AES-NI (gcm.cpp adds GHASH's).
struct AesPrimitives {
    using Block = __m128i;
    using RoundKeys = aesni::RoundKeys;

    WARP_TARGET_AESNI static inline Block load(const std::uint8_t* p) { return load_block(p); }
    WARP_TARGET_AESNI static inline void store(std::uint8_t* p, Block b) { store_block(p, b); }

    template <std::size_t count>
    WARP_TARGET_AESNI static inline void encrypt_blocks(const RoundKeys& keys,
                                                        Block (&blocks)[count]) {
        aesni::encrypt_blocks(keys, blocks);
    }
    template <std::size_t count>
    WARP_TARGET_AESNI static inline void decrypt_blocks(const RoundKeys& keys,
                                                        Block (&blocks)[count]) {
        aesni::decrypt_blocks(keys, blocks);
    }

    static void expand_encryption_key(RoundKeys& keys, const std::uint8_t* key,
                                      std::size_t key_len) {
        aesni::expand_encryption_key(keys, key, key_len);
    }
    static void derive_decryption_keys(const RoundKeys& encryption, RoundKeys& decryption) {
        aesni::derive_decryption_keys(encryption, decryption);
    }

    // SubWord: with the word broadcast to all four columns ShiftRows moves nothing, so
    // aesenclast(w,w,w,w ; 0) = SubBytes(w) in every column.
    WARP_TARGET_AESNI static inline std::uint32_t sub_word(std::uint32_t word) {
        const __m128i broadcast = _mm_set1_epi32(static_cast<int>(word));
        return static_cast<std::uint32_t>(
            _mm_cvtsi128_si32(_mm_aesenclast_si128(broadcast, _mm_setzero_si128())));
    }
    WARP_TARGET_AESNI static inline Block inverse_mix_columns(Block key) {
        return _mm_aesimc_si128(key);
    }
};

}  // namespace warp::x86::aesni
