// AES with the ARMv8 crypto extensions: the round keys, the straight-line round helpers, and
// AesPrimitives, from which engine/aes_128bit_vector's shared bodies (ECB in aes_block.cpp, the key
// schedule in aes_key_schedule.cpp, GCM in gcm.cpp) are built for this ISA. Every helper
// using AES instructions carries WARP_TARGET_ARM_CRYPTO, so it is inlined only into kernels
// the registry hands out after checking HWCAP_AES.
//
// ARM splits a round differently from AES-NI: AESE = AddRoundKey, then SubBytes and ShiftRows;
// AESMC = MixColumns. So round key r is added at the START of AESE, and a full encryption is
//     AESMC(AESE(., k0)), ..., AESMC(AESE(., k[Nr-2])), AESE(., k[Nr-1]), then ^ k[Nr].
// AESE and AESMC on the same register are kept adjacent: cores such as Cortex-A57/A72 and the
// Neoverse designs fuse the pair into one operation.
#pragma once

#include <arm_neon.h>

#include <cstddef>
#include <cstdint>

#include "engine/arm/isa.hpp"

namespace warp::arm::crypto {

inline constexpr unsigned kMaxRounds = 14;  // AES-256

// rounds + 1 round keys, each in the byte order of the block (the order AESE expects).
struct alignas(16) RoundKeys {
    uint8x16_t key[kMaxRounds + 1];
    unsigned rounds;  // 10, 12 or 14: public, from the key length
};

// FIPS 197, 5.2 KeyExpansion for a 16-, 24- or 32-byte key (aes_key_schedule.cpp).
void expand_encryption_key(RoundKeys& keys, const std::uint8_t* key, std::size_t key_len);

// The equivalent inverse cipher's schedule (FIPS 197, 5.3.5): the encryption keys in reverse
// order, InvMixColumns (AESIMC) applied to all but the first and last.
void derive_decryption_keys(const RoundKeys& encryption, RoundKeys& decryption);

inline uint8x16_t load_block(const std::uint8_t* p) { return vld1q_u8(p); }

inline void store_block(std::uint8_t* p, uint8x16_t block) { vst1q_u8(p, block); }

// `count` independent blocks go through each round together: AESE/AESMC have a latency of a
// few cycles but the AES pipes accept a new pair every cycle (two on wider cores), so only
// several blocks in flight keep them busy. `count` is a compile-time constant so the blocks
// stay in registers.
template <std::size_t count>
WARP_TARGET_ARM_CRYPTO inline void encrypt_blocks(const RoundKeys& keys,
                                                  uint8x16_t (&blocks)[count]) {
    const unsigned rounds = keys.rounds;
    for (unsigned r = 0; r + 1 < rounds; ++r) {
        const uint8x16_t round_key = keys.key[r];
#pragma GCC unroll 8
        for (std::size_t b = 0; b < count; ++b) {
            blocks[b] = vaesmcq_u8(vaeseq_u8(blocks[b], round_key));
        }
    }
    const uint8x16_t penultimate = keys.key[rounds - 1];
    const uint8x16_t last = keys.key[rounds];
#pragma GCC unroll 8
    for (std::size_t b = 0; b < count; ++b) {
        blocks[b] = veorq_u8(vaeseq_u8(blocks[b], penultimate), last);
    }
}

// The same with the decryption schedule of derive_decryption_keys: AESD = AddRoundKey, then
// InvShiftRows and InvSubBytes; AESIMC = InvMixColumns.
template <std::size_t count>
WARP_TARGET_ARM_CRYPTO inline void decrypt_blocks(const RoundKeys& keys,
                                                  uint8x16_t (&blocks)[count]) {
    const unsigned rounds = keys.rounds;
    for (unsigned r = 0; r + 1 < rounds; ++r) {
        const uint8x16_t round_key = keys.key[r];
#pragma GCC unroll 8
        for (std::size_t b = 0; b < count; ++b) {
            blocks[b] = vaesimcq_u8(vaesdq_u8(blocks[b], round_key));
        }
    }
    const uint8x16_t penultimate = keys.key[rounds - 1];
    const uint8x16_t last = keys.key[rounds];
#pragma GCC unroll 8
    for (std::size_t b = 0; b < count; ++b) {
        blocks[b] = veorq_u8(vaesdq_u8(blocks[b], penultimate), last);
    }
}

// The target attribute of engine/aes_128bit_vector's bodies in the files that include this header.
#define WARP_AES_VECTOR_TARGET WARP_TARGET_ARM_CRYPTO

// What engine/aes_128bit_vector/ecb.hpp and key_schedule.hpp need from the crypto extensions (gcm.cpp
// adds GHASH's).
struct AesPrimitives {
    using Block = uint8x16_t;
    using RoundKeys = crypto::RoundKeys;

    static inline Block load(const std::uint8_t* p) { return load_block(p); }
    static inline void store(std::uint8_t* p, Block b) { store_block(p, b); }

    template <std::size_t count>
    WARP_TARGET_ARM_CRYPTO static inline void encrypt_blocks(const RoundKeys& keys,
                                                             Block (&blocks)[count]) {
        crypto::encrypt_blocks(keys, blocks);
    }
    template <std::size_t count>
    WARP_TARGET_ARM_CRYPTO static inline void decrypt_blocks(const RoundKeys& keys,
                                                             Block (&blocks)[count]) {
        crypto::decrypt_blocks(keys, blocks);
    }

    static void expand_encryption_key(RoundKeys& keys, const std::uint8_t* key,
                                      std::size_t key_len) {
        crypto::expand_encryption_key(keys, key, key_len);
    }
    static void derive_decryption_keys(const RoundKeys& encryption, RoundKeys& decryption) {
        crypto::derive_decryption_keys(encryption, decryption);
    }

    // SubWord: AESE with a zero round key; with the word broadcast to all four columns
    // ShiftRows moves nothing, so AESE(w,w,w,w ; 0) = SubBytes(w) in every column.
    WARP_TARGET_ARM_CRYPTO static inline std::uint32_t sub_word(std::uint32_t word) {
        const uint8x16_t broadcast = vreinterpretq_u8_u32(vdupq_n_u32(word));
        return vgetq_lane_u32(vreinterpretq_u32_u8(vaeseq_u8(broadcast, vdupq_n_u8(0))), 0);
    }
    WARP_TARGET_ARM_CRYPTO static inline Block inverse_mix_columns(Block key) {
        return vaesimcq_u8(key);
    }
};

}  // namespace warp::arm::crypto
