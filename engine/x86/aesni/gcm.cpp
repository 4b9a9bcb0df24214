// warp::x86::kAesGcmAesni: AES-GCM (SP 800-38D) with AES-NI and PCLMULQDQ on 128-bit
// registers, for CPUs without VAES (Westmere .. Skylake); SSE4.1 at most, no AVX.
//
// Seal runs eight CTR blocks at a time and, in the same pass, hashes the eight ciphertext
// blocks of the group before: the two chains are independent, so the AES rounds and the
// carry-less multiplications fill each other's latency (ghash.hpp explains the aggregation).
// Open runs the same interleave in one pass, each group hashing its own ciphertext (known from
// the start) while it is decrypted, then compares the tag in constant time; what a forged
// chunk wrote to out is zeroed by AeadKey::open before anything returns (engine/aead.hpp).
// Messages of up to seven blocks take one AES batch for E_K(J0) and their whole keystream,
// and are written only after their tag matched.
//
// Measured on the AMD EPYC build machine (Zen with VAES, no AVX-512): aesenc and pclmulqdq compete for the same
// pipes there, so the interleaving buys little and GCM costs about CTR + GHASH; the three
// multiplications per block (Karatsuba) and two per eight blocks for the reduction are the
// floor. (A shift-based reduction instead of the two pclmulqdq measured no faster.)
//
// Counters. The pre-counter block J0 is kept byte-reversed, which puts its big-endian low
// 32 bits in dword 0: _mm_add_epi32 then is exactly inc32 (wraps modulo 2^32, never carries
// into the upper 96 bits), without a branch on the counter value.
#include <cstring>

#include "engine/open_each.hpp"
#include "engine/secure_memory.hpp"
#include "engine/x86/aesni/aes_rounds.hpp"
#include "engine/x86/aesni/ghash.hpp"
#include "engine/x86/x86.hpp"

namespace warp::x86 {
namespace aesni {
namespace {

constexpr std::size_t kWide = 8;  // CTR blocks in flight, and GHASH aggregation
constexpr std::size_t kGroupBytes = 16 * kWide;
static_assert(kWide == kGhashAggregation);

struct GcmState {
    RoundKeys cipher;
    GhashKey ghash;  // from H = E_K(0^128)
};

const GcmState& gcm_state(const void* state) { return *static_cast<const GcmState*>(state); }

WARP_TARGET_AESNI void init(void* state, const std::uint8_t* key, std::size_t key_len) {
    GcmState& st = *static_cast<GcmState*>(state);
    expand_encryption_key(st.cipher, key, key_len);
    init_ghash_key(st.ghash, encrypt_block(st.cipher, _mm_setzero_si128()));
}

// y = (y + block) * H for one block already in the reflected form.
WARP_TARGET_AESNI inline __m128i ghash_block(const GhashKey& key, __m128i y, __m128i block) {
    GhashProduct sum;
    multiply_accumulate(sum, _mm_xor_si128(y, block), key.power[0], key.karatsuba[0]);
    return reduce(sum);
}

// The bit lengths block [a]_64 || [b]_64, reflected: b lands in the low qword.
WARP_TARGET_AESNI inline __m128i lengths_block(std::uint64_t a_bytes, std::uint64_t b_bytes) {
    return _mm_set_epi64x(static_cast<long long>(a_bytes * 8), static_cast<long long>(b_bytes * 8));
}

// J0 (SP 800-38D, 7.1 step 2), reflected: IV || 0^31 || 1 for a 96-bit IV, otherwise
// GHASH(IV || 0-padding || [0]_64 || [len(IV) in bits]_64).
WARP_TARGET_AESNI __m128i pre_counter_block(const GcmState& st, const AeadChunk& c) {
    if (c.nonce_len == kChunkNonceSize) {
        alignas(16) std::uint8_t j0[16] = {};
        std::memcpy(j0, c.nonce, kChunkNonceSize);
        j0[15] = 1;
        return byte_reverse(_mm_load_si128(reinterpret_cast<const __m128i*>(j0)));
    }
    const __m128i y = ghash_update(st.ghash, _mm_setzero_si128(), c.nonce, c.nonce_len);
    return ghash_block(st.ghash, y, lengths_block(0, c.nonce_len));
}

WARP_TARGET_AESNI inline __m128i advance(__m128i counter, std::size_t blocks) {
    return _mm_add_epi32(counter, _mm_setr_epi32(static_cast<int>(blocks), 0, 0, 0));
}

// Counter blocks counter+0 .. counter+kWide-1 (inc32), in byte order for aesenc.
WARP_TARGET_AESNI inline void counter_blocks(__m128i counter, __m128i (&blocks)[kWide]) {
    for (std::size_t i = 0; i < kWide; ++i) blocks[i] = byte_reverse(advance(counter, i));
}

// blocks = E_K(blocks) while the eight (reflected, y-added) blocks `previous` are folded
// into `sum`: round r of AES and the products of block r-1 issue together.
WARP_TARGET_AESNI inline void encrypt8_hash8(const RoundKeys& keys, __m128i (&blocks)[kWide],
                                             const GhashKey& ghash,
                                             const __m128i (&previous)[kWide],
                                             GhashProduct& sum) {
    for (std::size_t b = 0; b < kWide; ++b) blocks[b] = _mm_xor_si128(blocks[b], keys.key[0]);
    // Every key size has at least ten rounds, so rounds 1..8 all exist.
#pragma GCC unroll 8
    for (std::size_t i = 0; i < kWide; ++i) {
        const __m128i round_key = keys.key[i + 1];
        for (std::size_t b = 0; b < kWide; ++b) blocks[b] = _mm_aesenc_si128(blocks[b], round_key);
        const std::size_t power = kWide - 1 - i;
        multiply_accumulate(sum, previous[i], ghash.power[power], ghash.karatsuba[power]);
    }
    for (unsigned r = kWide + 1; r < keys.rounds; ++r) {
        const __m128i round_key = keys.key[r];
        for (std::size_t b = 0; b < kWide; ++b) blocks[b] = _mm_aesenc_si128(blocks[b], round_key);
    }
    const __m128i last = keys.key[keys.rounds];
    for (std::size_t b = 0; b < kWide; ++b) blocks[b] = _mm_aesenclast_si128(blocks[b], last);
}

// E_K of the first `count` counter blocks counter+0, counter+1, ... into keystream[0..count).
template <std::size_t count>
WARP_TARGET_AESNI inline void encrypt_counters(const RoundKeys& keys, __m128i counter,
                                               __m128i (&keystream)[kWide]) {
    __m128i blocks[count];
    for (std::size_t i = 0; i < count; ++i) blocks[i] = byte_reverse(advance(counter, i));
    encrypt_blocks(keys, blocks);
    for (std::size_t i = 0; i < count; ++i) keystream[i] = blocks[i];
}

// The same for a run-time count of 1..8 blocks. A batch costs about the latency of one block,
// but every block still occupies the AES unit, so short tails round up only to 1, 2, 4 or 8.
WARP_TARGET_AESNI inline void keystream_blocks(const RoundKeys& keys, __m128i counter,
                                               std::size_t count, __m128i (&keystream)[kWide]) {
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
WARP_TARGET_AESNI void xor_keystream(const __m128i* keystream, const std::uint8_t* in,
                                     std::uint8_t* out, std::size_t len) {
    for (; len >= 16; ++keystream, len -= 16, in += 16, out += 16) {
        store_block(out, _mm_xor_si128(load_block(in), *keystream));
    }
    if (len > 0) {
        alignas(16) std::uint8_t partial[16] = {};
        std::memcpy(partial, in, len);
        store_block(partial, _mm_xor_si128(load_block(partial), *keystream));
        std::memcpy(out, partial, len);
        secure_wipe(partial, sizeof partial);
    }
}

constexpr std::size_t blocks_for(std::size_t len) { return (len + 15) / 16; }

// out = in ^ keystream for fewer than kGroupBytes bytes, from `counter` on.
WARP_TARGET_AESNI void ctr_tail(const RoundKeys& keys, __m128i counter, const std::uint8_t* in,
                                std::uint8_t* out, std::size_t len) {
    __m128i keystream[kWide];
    keystream_blocks(keys, counter, blocks_for(len), keystream);
    xor_keystream(keystream, in, out, len);
    secure_wipe(keystream, sizeof keystream);
}

// CTR from `counter` over in -> out, and GHASH of the ciphertext continued from y.
WARP_TARGET_AESNI __m128i ctr_xor_and_hash(const GcmState& st, __m128i counter, __m128i y,
                                           const std::uint8_t* in, std::uint8_t* out,
                                           std::size_t len) {
    if (len >= kGroupBytes) {
        // The first group has no ciphertext before it to hash.
        __m128i blocks[kWide];
        __m128i previous[kWide];
        counter_blocks(counter, blocks);
        counter = advance(counter, kWide);
        encrypt_blocks(st.cipher, blocks);
        for (std::size_t b = 0; b < kWide; ++b) {
            const __m128i ciphertext = _mm_xor_si128(load_block(in + 16 * b), blocks[b]);
            store_block(out + 16 * b, ciphertext);
            previous[b] = byte_reverse(ciphertext);
        }
        in += kGroupBytes;
        out += kGroupBytes;
        len -= kGroupBytes;
        for (; len >= kGroupBytes; len -= kGroupBytes, in += kGroupBytes, out += kGroupBytes) {
            previous[0] = _mm_xor_si128(previous[0], y);
            counter_blocks(counter, blocks);
            counter = advance(counter, kWide);
            GhashProduct sum;
            encrypt8_hash8(st.cipher, blocks, st.ghash, previous, sum);
            y = reduce(sum);
            for (std::size_t b = 0; b < kWide; ++b) {
                const __m128i ciphertext = _mm_xor_si128(load_block(in + 16 * b), blocks[b]);
                store_block(out + 16 * b, ciphertext);
                previous[b] = byte_reverse(ciphertext);
            }
        }
        previous[0] = _mm_xor_si128(previous[0], y);
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

// The same for open: CTR from `counter` over in -> out (out == in allowed), and GHASH of the
// ciphertext `in` continued from y. Each group's eight blocks are loaded and hashed during its
// own rounds, before its stores.
WARP_TARGET_AESNI __m128i hash_and_ctr_xor(const GcmState& st, __m128i counter, __m128i y,
                                           const std::uint8_t* in, std::uint8_t* out,
                                           std::size_t len) {
    for (; len >= kGroupBytes; len -= kGroupBytes, in += kGroupBytes, out += kGroupBytes) {
        __m128i hashed[kWide];
        for (std::size_t b = 0; b < kWide; ++b) hashed[b] = byte_reverse(load_block(in + 16 * b));
        hashed[0] = _mm_xor_si128(hashed[0], y);
        __m128i blocks[kWide];
        counter_blocks(counter, blocks);
        counter = advance(counter, kWide);
        GhashProduct sum;
        encrypt8_hash8(st.cipher, blocks, st.ghash, hashed, sum);
        y = reduce(sum);
        for (std::size_t b = 0; b < kWide; ++b)
            store_block(out + 16 * b, _mm_xor_si128(load_block(in + 16 * b), blocks[b]));
    }
    if (len > 0) {
        y = ghash_update(st.ghash, y, in, len);
        ctr_tail(st.cipher, counter, in, out, len);
    }
    return y;
}

// The full tag E_K(J0) ^ S from the reflected hash S, as bytes.
WARP_TARGET_AESNI void full_tag(const GcmState& st, __m128i j0, __m128i s, std::uint8_t tag[16]) {
    store_block(tag, _mm_xor_si128(encrypt_block(st.cipher, byte_reverse(j0)), byte_reverse(s)));
}

// Messages of up to seven blocks: E_K(J0) and the whole keystream in one AES batch.
constexpr std::size_t kSmallMessage = kGroupBytes - 16;

WARP_TARGET_AESNI void seal_small(const GcmState& st, const AeadChunk& c, __m128i j0,
                                  std::uint8_t tag[16]) {
    __m128i keystream[kWide];  // [0] = E_K(J0), then the counter blocks J0+1, ...
    keystream_blocks(st.cipher, j0, 1 + blocks_for(c.len), keystream);
    xor_keystream(keystream + 1, c.in, c.out, c.len);
    __m128i y = ghash_update(st.ghash, _mm_setzero_si128(), c.aad, c.aad_len);
    y = ghash_update(st.ghash, y, c.out, c.len);
    y = ghash_block(st.ghash, y, lengths_block(c.aad_len, c.len));
    store_block(tag, _mm_xor_si128(keystream[0], byte_reverse(y)));
    secure_wipe(keystream, sizeof keystream);
}

WARP_TARGET_AESNI void seal(const void* state, std::span<const AeadChunk> chunks,
                            std::size_t tag_len) {
    const GcmState& st = gcm_state(state);
    for (const AeadChunk& c : chunks) {
        const __m128i j0 = pre_counter_block(st, c);
        alignas(16) std::uint8_t tag[16];
        if (c.len <= kSmallMessage) {
            seal_small(st, c, j0, tag);
        } else {
            __m128i y = ghash_update(st.ghash, _mm_setzero_si128(), c.aad, c.aad_len);
            y = ctr_xor_and_hash(st, advance(j0, 1), y, c.in, c.out, c.len);
            y = ghash_block(st.ghash, y, lengths_block(c.aad_len, c.len));
            full_tag(st, j0, y, tag);
        }
        std::memcpy(c.tag, tag, tag_len);
        secure_wipe(tag, sizeof tag);
    }
}

// Whether the first tag_len bytes agree, without a branch or early exit on the data.
WARP_TARGET_AESNI bool tags_equal(const std::uint8_t expected[16], const std::uint8_t* received,
                                  std::size_t tag_len) {
    alignas(16) std::uint8_t padded[16] = {};
    std::memcpy(padded, received, tag_len);
    const __m128i difference = _mm_xor_si128(load_block(expected), load_block(padded));
    const __m128i index = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    const __m128i compared = _mm_cmplt_epi8(index, _mm_set1_epi8(static_cast<char>(tag_len)));
    return _mm_testz_si128(difference, compared) != 0;
}

// GHASH(A, C) with the lengths block: S, reflected.
WARP_TARGET_AESNI __m128i hash_message(const GcmState& st, const AeadChunk& c) {
    __m128i y = ghash_update(st.ghash, _mm_setzero_si128(), c.aad, c.aad_len);
    y = ghash_update(st.ghash, y, c.in, c.len);
    return ghash_block(st.ghash, y, lengths_block(c.aad_len, c.len));
}

// Opens one chunk in one pass (a small one writes out only after its tag matched).
WARP_TARGET_AESNI bool open_one(const GcmState& st, const AeadChunk& c, std::size_t tag_len) {
    const __m128i j0 = pre_counter_block(st, c);
    alignas(16) std::uint8_t expected[16];
    bool ok;
    if (c.len <= kSmallMessage) {
        // The keystream is computed before the check but written out only after it.
        __m128i keystream[kWide];
        keystream_blocks(st.cipher, j0, 1 + blocks_for(c.len), keystream);
        store_block(expected, _mm_xor_si128(keystream[0], byte_reverse(hash_message(st, c))));
        ok = tags_equal(expected, c.tag, tag_len);
        if (ok) xor_keystream(keystream + 1, c.in, c.out, c.len);
        secure_wipe(keystream, sizeof keystream);
    } else {
        __m128i y = ghash_update(st.ghash, _mm_setzero_si128(), c.aad, c.aad_len);
        y = hash_and_ctr_xor(st, advance(j0, 1), y, c.in, c.out, c.len);
        y = ghash_block(st.ghash, y, lengths_block(c.aad_len, c.len));
        full_tag(st, j0, y, expected);
        ok = tags_equal(expected, c.tag, tag_len);  // false: AeadKey::open zeroes out
    }
    secure_wipe(expected, sizeof expected);
    return ok;
}

WARP_TARGET_AESNI std::size_t open(const void* state, std::span<const AeadChunk> chunks,
                                   std::size_t tag_len, bool* ok) {
    const GcmState& st = gcm_state(state);
    return open_each(chunks, ok, [&](const AeadChunk& c) { return open_one(st, c, tag_len); });
}

const AeadImpl kTable{Aead::aes_gcm, sizeof(GcmState), &init, &seal, &open};

}  // namespace
}  // namespace aesni

const AeadImpl* const kAesGcmAesni = &aesni::kTable;

}  // namespace warp::x86
