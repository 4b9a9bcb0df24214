// warp::arm::kAesGcmCrypto: AES-GCM (SP 800-38D) with the ARMv8 crypto extensions (AESE/AESMC,
// PMULL/PMULL2). A port of engine/x86/aesni/gcm.cpp: same structure, same contracts.
//
// Seal runs eight CTR blocks at a time and, in the same pass, hashes the eight ciphertext
// blocks of the group before: the two chains are independent, so the AES rounds and the
// carry-less multiplications fill each other's latency (ghash.hpp explains the aggregation).
// Open hashes the whole ciphertext first, compares the tag in constant time, and only then
// decrypts, so no plaintext of a forged chunk is ever written. Messages of up to seven blocks
// take one AES batch for E_K(J0) and their whole keystream.
//
// Counters. The pre-counter block J0 is kept reflected (byte-reversed), which puts its
// big-endian low 32 bits in 32-bit lane 0: a lane-0 vaddq_u32 then is exactly inc32 (wraps
// modulo 2^32, never carries into the upper 96 bits), without a branch on the counter value.
#include <cstring>

#include "engine/arm/crypto/aes_rounds.hpp"
#include "engine/arm/crypto/ghash.hpp"
#include "engine/arm/arm.hpp"
#include "engine/open_each.hpp"
#include "engine/secure_memory.hpp"

namespace warp::arm {
namespace crypto {
namespace {

constexpr std::size_t kWide = 8;  // CTR blocks in flight, and GHASH aggregation
constexpr std::size_t kGroupBytes = 16 * kWide;
static_assert(kWide == kGhashAggregation);

struct GcmState {
    RoundKeys cipher;
    GhashKey ghash;  // from H = E_K(0^128)
};

const GcmState& gcm_state(const void* state) { return *static_cast<const GcmState*>(state); }

WARP_TARGET_ARM_CRYPTO void init(void* state, const std::uint8_t* key, std::size_t key_len) {
    GcmState& st = *static_cast<GcmState*>(state);
    expand_encryption_key(st.cipher, key, key_len);
    init_ghash_key(st.ghash, encrypt_block(st.cipher, vdupq_n_u8(0)));
}

// y = (y + block) * H for one block already in the reflected form.
WARP_TARGET_ARM_CRYPTO inline uint64x2_t ghash_block(const GhashKey& key, uint64x2_t y,
                                                     uint64x2_t block) {
    GhashProduct sum;
    multiply_accumulate(sum, veorq_u64(y, block), key.power[0], key.karatsuba[0]);
    return reduce(sum);
}

// The bit lengths block [a]_64 || [b]_64, reflected: b lands in the low qword.
inline uint64x2_t lengths_block(std::uint64_t a_bytes, std::uint64_t b_bytes) {
    return vcombine_u64(vcreate_u64(b_bytes * 8), vcreate_u64(a_bytes * 8));
}

// J0 (SP 800-38D, 7.1 step 2), reflected: IV || 0^31 || 1 for a 96-bit IV, otherwise
// GHASH(IV || 0-padding || [0]_64 || [len(IV) in bits]_64).
WARP_TARGET_ARM_CRYPTO uint64x2_t pre_counter_block(const GcmState& st, const AeadChunk& c) {
    if (c.nonce_len == kChunkNonceSize) {
        std::uint8_t j0[16] = {};
        std::memcpy(j0, c.nonce, kChunkNonceSize);
        j0[15] = 1;
        return reflect(vld1q_u8(j0));
    }
    const uint64x2_t y = ghash_update(st.ghash, vdupq_n_u64(0), c.nonce, c.nonce_len);
    return ghash_block(st.ghash, y, lengths_block(0, c.nonce_len));
}

// inc32 applied `blocks` times to a reflected counter block.
inline uint64x2_t advance(uint64x2_t counter, std::size_t blocks) {
    const uint32x4_t step = vsetq_lane_u32(static_cast<std::uint32_t>(blocks), vdupq_n_u32(0), 0);
    return vreinterpretq_u64_u32(vaddq_u32(vreinterpretq_u32_u64(counter), step));
}

// Counter blocks counter+0 .. counter+kWide-1 (inc32), in byte order for AESE. The eight
// steps come from one table in two four-register loads (LD1), not one literal load each.
inline void counter_blocks(uint64x2_t counter, uint8x16_t (&blocks)[kWide]) {
    alignas(16) static constexpr std::uint32_t kSteps[kWide][4] = {
        {0, 0, 0, 0}, {1, 0, 0, 0}, {2, 0, 0, 0}, {3, 0, 0, 0},
        {4, 0, 0, 0}, {5, 0, 0, 0}, {6, 0, 0, 0}, {7, 0, 0, 0}};
    const uint32x4x4_t first = vld1q_u32_x4(kSteps[0]);
    const uint32x4x4_t second = vld1q_u32_x4(kSteps[4]);
    const uint32x4_t base = vreinterpretq_u32_u64(counter);
#pragma GCC unroll 4
    for (std::size_t i = 0; i < 4; ++i) {
        blocks[i] = unreflect(vreinterpretq_u64_u32(vaddq_u32(base, first.val[i])));
        blocks[i + 4] = unreflect(vreinterpretq_u64_u32(vaddq_u32(base, second.val[i])));
    }
}

// blocks = E_K(blocks) while the eight (reflected, y-added) blocks of `previous` are folded
// into `sum`: round i of AES and the products of block i issue together.
WARP_TARGET_ARM_CRYPTO inline void encrypt8_hash8(const RoundKeys& keys,
                                                  uint8x16_t (&blocks)[kWide],
                                                  const GhashKey& ghash,
                                                  const uint64x2_t (&previous)[kWide],
                                                  GhashProduct& sum) {
    // Every key size has at least ten rounds, so full rounds 0..7 all exist.
#pragma GCC unroll 8
    for (std::size_t i = 0; i < kWide; ++i) {
        const uint8x16_t round_key = keys.key[i];
#pragma GCC unroll 8
        for (std::size_t b = 0; b < kWide; ++b) {
            blocks[b] = vaesmcq_u8(vaeseq_u8(blocks[b], round_key));
        }
        const std::size_t power = kWide - 1 - i;
        multiply_accumulate(sum, previous[i], ghash.power[power], ghash.karatsuba[power]);
    }
    const unsigned rounds = keys.rounds;
    for (unsigned r = kWide; r + 1 < rounds; ++r) {
        const uint8x16_t round_key = keys.key[r];
#pragma GCC unroll 8
        for (std::size_t b = 0; b < kWide; ++b) {
            blocks[b] = vaesmcq_u8(vaeseq_u8(blocks[b], round_key));
        }
    }
    const uint8x16_t penultimate = keys.key[rounds - 1];
    const uint8x16_t last = keys.key[rounds];
#pragma GCC unroll 8
    for (std::size_t b = 0; b < kWide; ++b) {
        blocks[b] = veorq_u8(vaeseq_u8(blocks[b], penultimate), last);
    }
}

// E_K of the first `count` counter blocks counter+0, counter+1, ... into keystream[0..count).
template <std::size_t count>
WARP_TARGET_ARM_CRYPTO inline void encrypt_counters(const RoundKeys& keys, uint64x2_t counter,
                                                    uint8x16_t (&keystream)[kWide]) {
    uint8x16_t blocks[count];
#pragma GCC unroll 8
    for (std::size_t i = 0; i < count; ++i) blocks[i] = unreflect(advance(counter, i));
    encrypt_blocks(keys, blocks);
#pragma GCC unroll 8
    for (std::size_t i = 0; i < count; ++i) keystream[i] = blocks[i];
}

// The same for a run-time count of 1..8 blocks. A batch costs about the latency of one block,
// but every block still occupies the AES unit, so short tails round up only to 1, 2, 4 or 8.
WARP_TARGET_ARM_CRYPTO inline void keystream_blocks(const RoundKeys& keys, uint64x2_t counter,
                                                    std::size_t count,
                                                    uint8x16_t (&keystream)[kWide]) {
    if (count <= 1) {
        encrypt_counters<1>(keys, counter, keystream);
    } else if (count <= 2) {
        encrypt_counters<2>(keys, counter, keystream);
    } else if (count <= 4) {
        encrypt_counters<4>(keys, counter, keystream);
    } else {
        encrypt_counters<8>(keys, counter, keystream);
    }
}

// out = in ^ keystream for len bytes (at most 16 * kWide), the last block possibly partial.
void xor_keystream(const uint8x16_t* keystream, const std::uint8_t* in, std::uint8_t* out,
                   std::size_t len) {
    for (; len >= 16; ++keystream, len -= 16, in += 16, out += 16) {
        store_block(out, veorq_u8(load_block(in), *keystream));
    }
    if (len > 0) {
        std::uint8_t partial[16] = {};
        std::memcpy(partial, in, len);
        store_block(partial, veorq_u8(load_block(partial), *keystream));
        std::memcpy(out, partial, len);
        secure_wipe(partial, sizeof partial);
    }
}

constexpr std::size_t blocks_for(std::size_t len) { return (len + 15) / 16; }

// out = in ^ keystream for fewer than kGroupBytes bytes, from `counter` on.
WARP_TARGET_ARM_CRYPTO void ctr_tail(const RoundKeys& keys, uint64x2_t counter,
                                     const std::uint8_t* in, std::uint8_t* out, std::size_t len) {
    uint8x16_t keystream[kWide];
    keystream_blocks(keys, counter, blocks_for(len), keystream);
    xor_keystream(keystream, in, out, len);
    secure_wipe(keystream, sizeof keystream);
}

// out = in ^ keystream, eight blocks at a time (open's second pass).
WARP_TARGET_ARM_CRYPTO void ctr_xor(const RoundKeys& keys, uint64x2_t counter,
                                    const std::uint8_t* in, std::uint8_t* out, std::size_t len) {
    for (; len >= kGroupBytes; len -= kGroupBytes, in += kGroupBytes, out += kGroupBytes) {
        uint8x16_t blocks[kWide];
        counter_blocks(counter, blocks);
        counter = advance(counter, kWide);
        encrypt_blocks(keys, blocks);
#pragma GCC unroll 8
        for (std::size_t b = 0; b < kWide; ++b) {
            store_block(out + 16 * b, veorq_u8(load_block(in + 16 * b), blocks[b]));
        }
    }
    if (len > 0) ctr_tail(keys, counter, in, out, len);
}

// CTR from `counter` over in -> out, and GHASH of the ciphertext continued from y.
WARP_TARGET_ARM_CRYPTO uint64x2_t ctr_xor_and_hash(const GcmState& st, uint64x2_t counter,
                                                   uint64x2_t y, const std::uint8_t* in,
                                                   std::uint8_t* out, std::size_t len) {
    if (len >= kGroupBytes) {
        // The first group has no ciphertext before it to hash.
        uint8x16_t blocks[kWide];
        uint64x2_t previous[kWide];
        counter_blocks(counter, blocks);
        counter = advance(counter, kWide);
        encrypt_blocks(st.cipher, blocks);
#pragma GCC unroll 8
        for (std::size_t b = 0; b < kWide; ++b) {
            const uint8x16_t ciphertext = veorq_u8(load_block(in + 16 * b), blocks[b]);
            store_block(out + 16 * b, ciphertext);
            previous[b] = reflect(ciphertext);
        }
        in += kGroupBytes;
        out += kGroupBytes;
        len -= kGroupBytes;
        for (; len >= kGroupBytes; len -= kGroupBytes, in += kGroupBytes, out += kGroupBytes) {
            previous[0] = veorq_u64(previous[0], y);
            counter_blocks(counter, blocks);
            counter = advance(counter, kWide);
            GhashProduct sum;
            encrypt8_hash8(st.cipher, blocks, st.ghash, previous, sum);
            y = reduce(sum);
#pragma GCC unroll 8
            for (std::size_t b = 0; b < kWide; ++b) {
                const uint8x16_t ciphertext = veorq_u8(load_block(in + 16 * b), blocks[b]);
                store_block(out + 16 * b, ciphertext);
                previous[b] = reflect(ciphertext);
            }
        }
        previous[0] = veorq_u64(previous[0], y);
        GhashProduct sum;
        accumulate8(st.ghash, sum, previous);
        y = reduce(sum);
    }
    if (len > 0) {
        ctr_tail(st.cipher, counter, in, out, len);
        y = ghash_update(st.ghash, y, out, len);
    }
    return y;
}

// The full tag E_K(J0) ^ S from the reflected hash S, as bytes.
WARP_TARGET_ARM_CRYPTO void full_tag(const GcmState& st, uint64x2_t j0, uint64x2_t s,
                                     std::uint8_t tag[16]) {
    store_block(tag, veorq_u8(encrypt_block(st.cipher, unreflect(j0)), unreflect(s)));
}

// Messages of up to seven blocks: E_K(J0) and the whole keystream in one AES batch.
constexpr std::size_t kSmallMessage = kGroupBytes - 16;

WARP_TARGET_ARM_CRYPTO void seal_small(const GcmState& st, const AeadChunk& c, uint64x2_t j0,
                                       std::uint8_t tag[16]) {
    uint8x16_t keystream[kWide];  // [0] = E_K(J0), then the counter blocks J0+1, ...
    keystream_blocks(st.cipher, j0, 1 + blocks_for(c.len), keystream);
    xor_keystream(keystream + 1, c.in, c.out, c.len);
    uint64x2_t y = ghash_update(st.ghash, vdupq_n_u64(0), c.aad, c.aad_len);
    y = ghash_update(st.ghash, y, c.out, c.len);
    y = ghash_block(st.ghash, y, lengths_block(c.aad_len, c.len));
    store_block(tag, veorq_u8(keystream[0], unreflect(y)));
    secure_wipe(keystream, sizeof keystream);
}

WARP_TARGET_ARM_CRYPTO void seal(const void* state, std::span<const AeadChunk> chunks,
                                 std::size_t tag_len) {
    const GcmState& st = gcm_state(state);
    for (const AeadChunk& c : chunks) {
        const uint64x2_t j0 = pre_counter_block(st, c);
        std::uint8_t tag[16];
        if (c.len <= kSmallMessage) {
            seal_small(st, c, j0, tag);
        } else {
            uint64x2_t y = ghash_update(st.ghash, vdupq_n_u64(0), c.aad, c.aad_len);
            y = ctr_xor_and_hash(st, advance(j0, 1), y, c.in, c.out, c.len);
            y = ghash_block(st.ghash, y, lengths_block(c.aad_len, c.len));
            full_tag(st, j0, y, tag);
        }
        std::memcpy(c.tag, tag, tag_len);
        secure_wipe(tag, sizeof tag);
    }
}

// Whether the first tag_len bytes agree, without a branch or early exit on the data: the
// masked difference is reduced to its maximum across the lanes (UMAXV), zero iff equal.
bool tags_equal(const std::uint8_t expected[16], const std::uint8_t* received,
                std::size_t tag_len) {
    std::uint8_t padded[16] = {};
    std::memcpy(padded, received, tag_len);
    const uint8x16_t difference = veorq_u8(vld1q_u8(expected), vld1q_u8(padded));
    static constexpr std::uint8_t kIndex[16] = {0, 1, 2,  3,  4,  5,  6,  7,
                                                8, 9, 10, 11, 12, 13, 14, 15};
    const uint8x16_t compared =
        vcltq_u8(vld1q_u8(kIndex), vdupq_n_u8(static_cast<std::uint8_t>(tag_len)));
    return vmaxvq_u8(vandq_u8(difference, compared)) == 0;
}

// GHASH(A, C) with the lengths block: S, reflected.
WARP_TARGET_ARM_CRYPTO uint64x2_t hash_message(const GcmState& st, const AeadChunk& c) {
    uint64x2_t y = ghash_update(st.ghash, vdupq_n_u64(0), c.aad, c.aad_len);
    y = ghash_update(st.ghash, y, c.in, c.len);
    return ghash_block(st.ghash, y, lengths_block(c.aad_len, c.len));
}

// Opens one chunk; writes out only after the tag matched.
WARP_TARGET_ARM_CRYPTO bool open_one(const GcmState& st, const AeadChunk& c,
                                     std::size_t tag_len) {
    const uint64x2_t j0 = pre_counter_block(st, c);
    std::uint8_t expected[16];
    bool ok;
    if (c.len <= kSmallMessage) {
        // The keystream is computed before the check but written out only after it.
        uint8x16_t keystream[kWide];
        keystream_blocks(st.cipher, j0, 1 + blocks_for(c.len), keystream);
        store_block(expected, veorq_u8(keystream[0], unreflect(hash_message(st, c))));
        ok = tags_equal(expected, c.tag, tag_len);
        if (ok) xor_keystream(keystream + 1, c.in, c.out, c.len);
        secure_wipe(keystream, sizeof keystream);
    } else {
        full_tag(st, j0, hash_message(st, c), expected);
        ok = tags_equal(expected, c.tag, tag_len);
        if (ok) ctr_xor(st.cipher, advance(j0, 1), c.in, c.out, c.len);
    }
    secure_wipe(expected, sizeof expected);
    return ok;
}

WARP_TARGET_ARM_CRYPTO std::size_t open(const void* state, std::span<const AeadChunk> chunks,
                                        std::size_t tag_len, bool* ok) {
    const GcmState& st = gcm_state(state);
    return open_each(chunks, ok, [&](const AeadChunk& c) { return open_one(st, c, tag_len); });
}

const AeadImpl kTable{Aead::aes_gcm, sizeof(GcmState), &init, &seal, &open};

}  // namespace
}  // namespace crypto

const AeadImpl* const kAesGcmCrypto = &crypto::kTable;

}  // namespace warp::arm
