// AES-GCM (NIST SP 800-38D) on 128-bit vectors: one body for every ISA that has AES rounds and
// a 64x64-bit carry-less multiply on 128-bit registers, AES-NI + PCLMULQDQ (x86-aesni,
// engine/x86/aesni/gcm.cpp) and the ARMv8 crypto extensions (arm-crypto,
// engine/arm/crypto/gcm.cpp). The ARM control flow (tails, J0, tag truncation, zeroing) is
// then the x86 one, and runs natively in every x86 test run.
//
// How an ISA uses it (the pattern of libsodium's aegis256_* files): its aes_rounds.hpp
// defines AesPrimitives (the types and small functions the bodies here, ecb.hpp and
// key_schedule.hpp need) and WARP_AES_VECTOR_TARGET as its target attribute; its gcm.cpp adds
// GHASH's primitives (listed under `Gcm` below), includes this header and takes
// Gcm<Primitives>::kTable. Every function here carries WARP_AES_VECTOR_TARGET, so the whole body
// is compiled for that ISA and only for it.
//
// Seal runs eight CTR blocks at a time and, in the same pass, hashes the eight ciphertext
// blocks of the group before; open runs the same interleave over each group's own ciphertext
// (known from the start), then compares the tag in constant time. The AES rounds and the
// carry-less multiplications are independent chains, so each fills the other's latency. What
// a forged chunk's open wrote to out is zeroed by AeadKey::open before anything returns
// (engine/aead.hpp); messages of up to seven blocks take one AES batch for E_K(J0) and their
// whole keystream, and open writes those only after the tag matched.
//
// GHASH. GCM numbers the bits of a block from the most significant bit of byte 0, and that
// first bit is the coefficient of x^0. Byte-reversing a block makes it a 128-bit integer whose
// bit 127 is x^0: the polynomial bit-reflected (a `Field`). A carry-less product of two
// reflected values is the reflected 255-bit product one bit too low; the key is stored as
// H' = H*x instead, which cancels the shift: reduce(clmul(A, H')) = A*H, and H'*H' reduces to
// (H^2)', so powers stay in the same form. Reduction modulo x^128 + x^7 + x^2 + x + 1 folds
// the low half twice by 0xc2 << 56 (the reflected x^7 + x^2 + x term; the x^128 = 1 part is a
// swap of the halves), then adds the high half. Aggregation over eight blocks,
//     Y' = (Y + C_0) H^8 + C_1 H^7 + ... + C_7 H^1,
// makes the eight products independent: 24 carry-less multiplications (Karatsuba, hi ^ lo of
// every key power precomputed) and ONE reduction per group.
//
// Counters. J0 is kept reflected, which puts its big-endian low 32 bits in 32-bit lane 0: a
// lane-0 32-bit add then is exactly inc32 (wraps modulo 2^32, never carries into the upper 96
// bits), without a branch on the counter value.
//
// Constant time: no branch or index depends on the key, the data or the tag; lengths and the
// verdict of the tag compare are public.
#pragma once

#ifndef WARP_AES_VECTOR_TARGET
#error "include the ISA's aes_rounds.hpp (it defines WARP_AES_VECTOR_TARGET) before aes_128bit_vector/gcm.hpp"
#endif

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

#include "engine/aead.hpp"
#include "engine/open_each.hpp"
#include "engine/secure_memory.hpp"

namespace warp::aes_128bit_vector {

inline constexpr std::size_t kWide = 8;  // CTR blocks in flight, and GHASH aggregation
inline constexpr std::size_t kGroupBytes = 16 * kWide;
inline constexpr std::uint64_t kReductionHigh = 0xc200000000000000ULL;

// The primitives an ISA supplies (P below), all static and inlinable:
//   Block, Field          16 bytes in memory order (what AES takes); a reflected GHASH value
//   RoundKeys             the expanded key, with `unsigned rounds` (10, 12 or 14)
//   expand_encryption_key(RoundKeys&, key, key_len)
//   encrypt_blocks<n>(keys, Block (&)[n])         n independent blocks through every round
//   encrypt8_with(keys, Block (&)[8], between)    the same for eight, calling between(i) after
//                                                 full round i = 0..7 (the GHASH interleave)
//   counter_blocks(Field counter, Block (&)[8])   counter + 0..7 (inc32), as blocks
//   add_counter(Field counter, uint32_t n)        inc32 applied n times
//   load, store, xor_blocks                       on Block
//   reflect(Block) -> Field, unreflect(Field) -> Block
//   xor_fields, zero_field, field(low qword, high qword), swap_halves
//   shift_up(v) / shift_down(v)                   v.lo into the high qword / v.hi into the low
//   clmul_low(a, b) / clmul_high(a, b)            a.lo * b.lo / a.hi * b.hi, carry-less
//   clmul_low_by_reduction(v)                     v.lo * (0xc2 << 56), carry-less
//   times_x(Field)                                v * x modulo the GCM polynomial (H' from H)
template <typename P>
struct Gcm {
    using Block = typename P::Block;
    using Field = typename P::Field;

    // H'^1..H'^8 and, for Karatsuba, (high qword ^ low qword) of each power in the low qword.
    struct GhashKey {
        Field power[kWide];      // power[i] = (H^(i+1))'
        Field karatsuba[kWide];  // low qword: power[i].hi ^ power[i].lo
    };

    struct State {
        typename P::RoundKeys cipher;
        GhashKey ghash;  // from H = E_K(0^128)
    };

    // Three unreduced partial sums of Karatsuba products: x.lo*h.lo, x.hi*h.hi and
    // (x.lo^x.hi)*(h.lo^h.hi). They are added across blocks and combined only once.
    struct Product {
        Field low = P::zero_field();
        Field middle = P::zero_field();
        Field high = P::zero_field();
    };

    // ---- GHASH ----

    WARP_AES_VECTOR_TARGET static inline void multiply_accumulate(Product& sum, Field x, Field h,
                                                              Field h_karatsuba) {
        sum.low = P::xor_fields(sum.low, P::clmul_low(x, h));
        sum.high = P::xor_fields(sum.high, P::clmul_high(x, h));
        const Field x_karatsuba = P::xor_fields(x, P::swap_halves(x));
        sum.middle = P::xor_fields(sum.middle, P::clmul_low(x_karatsuba, h_karatsuba));
    }

    // swap_halves(v) ^ v.lo * (0xc2 << 56): one fold of the low qword.
    WARP_AES_VECTOR_TARGET static inline Field fold(Field v) {
        return P::xor_fields(P::swap_halves(v), P::clmul_low_by_reduction(v));
    }

    // Combines the Karatsuba sums into the 256-bit product and reduces it to 128 bits.
    WARP_AES_VECTOR_TARGET static inline Field reduce(const Product& sum) {
        const Field middle = P::xor_fields(sum.middle, P::xor_fields(sum.low, sum.high));
        const Field low = P::xor_fields(sum.low, P::shift_up(middle));
        const Field high = P::xor_fields(sum.high, P::shift_down(middle));
        return P::xor_fields(fold(fold(low)), high);
    }

    WARP_AES_VECTOR_TARGET static inline Field karatsuba_factor(Field h) {
        return P::xor_fields(h, P::swap_halves(h));
    }

    WARP_AES_VECTOR_TARGET static inline Field multiply(Field a, Field b) {
        Product sum;
        multiply_accumulate(sum, a, b, karatsuba_factor(b));
        return reduce(sum);
    }

    WARP_AES_VECTOR_TARGET static void init_ghash_key(GhashKey& key, Block h_bytes) {
        const Field h = P::times_x(P::reflect(h_bytes));
        key.power[0] = h;
        for (std::size_t i = 1; i < kWide; ++i) key.power[i] = multiply(key.power[i - 1], h);
#pragma GCC unroll 8
        for (std::size_t i = 0; i < kWide; ++i) key.karatsuba[i] = karatsuba_factor(key.power[i]);
    }

    // Power for block i of a group of eight: H^(8-i).
    WARP_AES_VECTOR_TARGET static inline void hash_block_of_group(const GhashKey& key, Product& sum,
                                                              std::size_t i, Field block) {
        const std::size_t power = kWide - 1 - i;
        multiply_accumulate(sum, block, key.power[power], key.karatsuba[power]);
    }

    // Folds eight blocks (reflected; the running hash added to the first) into sum.
    WARP_AES_VECTOR_TARGET static inline void accumulate8(const GhashKey& key, Product& sum,
                                                      const Field (&blocks)[kWide]) {
#pragma GCC unroll 8
        for (std::size_t i = 0; i < kWide; ++i) hash_block_of_group(key, sum, i, blocks[i]);
    }

    // y = GHASH_H continued over `len` bytes, the last partial block padded with zeros.
    WARP_AES_VECTOR_TARGET static Field ghash_update(const GhashKey& key, Field y,
                                                 const std::uint8_t* data, std::size_t len) {
        for (; len >= kGroupBytes; len -= kGroupBytes, data += kGroupBytes) {
            Field blocks[kWide];
#pragma GCC unroll 8
            for (std::size_t i = 0; i < kWide; ++i) blocks[i] = P::reflect(P::load(data + 16 * i));
            blocks[0] = P::xor_fields(blocks[0], y);
            Product sum;
            accumulate8(key, sum, blocks);
            y = reduce(sum);
        }
        if (len == 0) return y;
        // Fewer than eight blocks left: (y + C_0) H^n + ... + C_{n-1} H^1, still one reduction.
        const std::size_t blocks = (len + 15) / 16;
        Product sum;
        for (std::size_t i = 0; i < blocks; ++i) {
            Block block;
            if (len >= 16) {
                block = P::load(data);
                data += 16;
                len -= 16;
            } else {
                alignas(16) std::uint8_t padded[16] = {};
                std::memcpy(padded, data, len);
                block = P::load(padded);
                len = 0;
            }
            Field value = P::reflect(block);
            if (i == 0) value = P::xor_fields(value, y);
            const std::size_t power = blocks - 1 - i;
            multiply_accumulate(sum, value, key.power[power], key.karatsuba[power]);
        }
        return reduce(sum);
    }

    // y = (y + block) * H for one block already in the reflected form.
    WARP_AES_VECTOR_TARGET static inline Field ghash_block(const GhashKey& key, Field y, Field block) {
        Product sum;
        multiply_accumulate(sum, P::xor_fields(y, block), key.power[0], key.karatsuba[0]);
        return reduce(sum);
    }

    // The bit lengths block [a]_64 || [b]_64, reflected: b lands in the low qword.
    WARP_AES_VECTOR_TARGET static inline Field lengths_block(std::uint64_t a_bytes,
                                                         std::uint64_t b_bytes) {
        return P::field(b_bytes * 8, a_bytes * 8);
    }

    // ---- AES-GCM ----

    static const State& state_of(const void* state) { return *static_cast<const State*>(state); }

    // E_K(block) for one block (H at init, E_K(J0) for the tag).
    WARP_AES_VECTOR_TARGET static inline Block encrypt_one(const typename P::RoundKeys& keys,
                                                       Block block) {
        Block one[1] = {block};
        P::encrypt_blocks(keys, one);
        return one[0];
    }

    // The next group's counter blocks, advancing the counter past them.
    WARP_AES_VECTOR_TARGET static inline void next_counter_blocks(Field& counter,
                                                              Block (&blocks)[kWide]) {
        P::counter_blocks(counter, blocks);
        counter = P::add_counter(counter, kWide);
    }

    // Seal's output of a group: out = in ^ keystream, and the ciphertext reflected into
    // `ciphertext` for the next group's hash.
    WARP_AES_VECTOR_TARGET static inline void xor_group(const Block (&keystream)[kWide],
                                                    const std::uint8_t* in, std::uint8_t* out,
                                                    Field (&ciphertext)[kWide]) {
#pragma GCC unroll 8
        for (std::size_t b = 0; b < kWide; ++b) {
            const Block c = P::xor_blocks(P::load(in + 16 * b), keystream[b]);
            P::store(out + 16 * b, c);
            ciphertext[b] = P::reflect(c);
        }
    }

    WARP_AES_VECTOR_TARGET static void init(void* state, const std::uint8_t* key,
                                        std::size_t key_len) {
        State& st = *static_cast<State*>(state);
        P::expand_encryption_key(st.cipher, key, key_len);
        Block h = encrypt_one(st.cipher, P::load(kZeroBlock));
        init_ghash_key(st.ghash, h);
        secure_wipe(&h, sizeof h);
    }

    // J0 (SP 800-38D, 7.1 step 2), reflected: IV || 0^31 || 1 for a 96-bit IV, otherwise
    // GHASH(IV || 0-padding || [0]_64 || [len(IV) in bits]_64).
    WARP_AES_VECTOR_TARGET static Field pre_counter_block(const State& st, const AeadChunk& c) {
        if (c.nonce_len == kChunkNonceSize) {
            alignas(16) std::uint8_t j0[16] = {};
            std::memcpy(j0, c.nonce, kChunkNonceSize);
            j0[15] = 1;
            return P::reflect(P::load(j0));
        }
        const Field y = ghash_update(st.ghash, P::zero_field(), c.nonce, c.nonce_len);
        return ghash_block(st.ghash, y, lengths_block(0, c.nonce_len));
    }

    // E_K of the first `count` counter blocks counter+0, counter+1, ... into keystream.
    template <std::size_t count>
    WARP_AES_VECTOR_TARGET static inline void encrypt_counters(const typename P::RoundKeys& keys,
                                                           Field counter,
                                                           Block (&keystream)[kWide]) {
        Block blocks[count];
#pragma GCC unroll 8
        for (std::size_t i = 0; i < count; ++i)
            blocks[i] = P::unreflect(P::add_counter(counter, static_cast<std::uint32_t>(i)));
        P::encrypt_blocks(keys, blocks);
#pragma GCC unroll 8
        for (std::size_t i = 0; i < count; ++i) keystream[i] = blocks[i];
    }

    // The same for a run-time count of 1..8 blocks. A batch costs about the latency of one
    // block, but every block still occupies the AES unit, so short tails round up only to 1,
    // 2, 4 or 8.
    WARP_AES_VECTOR_TARGET static void keystream_blocks(const typename P::RoundKeys& keys,
                                                    Field counter, std::size_t count,
                                                    Block (&keystream)[kWide]) {
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

    // out = in ^ keystream for len bytes (at most kGroupBytes), the last block possibly
    // partial.
    WARP_AES_VECTOR_TARGET static void xor_keystream(const Block* keystream, const std::uint8_t* in,
                                                 std::uint8_t* out, std::size_t len) {
        for (; len >= 16; ++keystream, len -= 16, in += 16, out += 16)
            P::store(out, P::xor_blocks(P::load(in), *keystream));
        if (len > 0) {
            alignas(16) std::uint8_t partial[16] = {};
            std::memcpy(partial, in, len);
            P::store(partial, P::xor_blocks(P::load(partial), *keystream));
            std::memcpy(out, partial, len);
            secure_wipe(partial, sizeof partial);
        }
    }

    static constexpr std::size_t blocks_for(std::size_t len) { return (len + 15) / 16; }

    // out = in ^ keystream for fewer than kGroupBytes bytes, from `counter` on.
    WARP_AES_VECTOR_TARGET static void ctr_tail(const typename P::RoundKeys& keys, Field counter,
                                            const std::uint8_t* in, std::uint8_t* out,
                                            std::size_t len) {
        Block keystream[kWide];
        keystream_blocks(keys, counter, blocks_for(len), keystream);
        xor_keystream(keystream, in, out, len);
        secure_wipe(keystream, sizeof keystream);
    }

    // What encrypt8_with runs after AES round i: the products of block i. A struct, not a
    // lambda: GCC compiles a lambda's body without the enclosing function's target attribute,
    // and would then call the carry-less multiplies out of line.
    struct HashBlockOfGroup {
        const GhashKey& key;
        Product& sum;
        const Field (&hashed)[kWide];
        WARP_AES_VECTOR_TARGET inline void operator()(std::size_t i) const {
            hash_block_of_group(key, sum, i, hashed[i]);
        }
    };

    // blocks = E_K(blocks) while the eight `hashed` blocks (reflected, y added to the first)
    // are folded into sum: round i of AES and the products of block i issue together.
    WARP_AES_VECTOR_TARGET static inline void encrypt8_hash8(const State& st, Block (&blocks)[kWide],
                                                         const Field (&hashed)[kWide],
                                                         Product& sum) {
        P::encrypt8_with(st.cipher, blocks, HashBlockOfGroup{st.ghash, sum, hashed});
    }

    // Seal: CTR from `counter` over in -> out, and GHASH of the ciphertext continued from y.
    // Each group hashes the ciphertext of the group before, written by then.
    WARP_AES_VECTOR_TARGET static Field ctr_xor_and_hash(const State& st, Field counter, Field y,
                                                     const std::uint8_t* in, std::uint8_t* out,
                                                     std::size_t len) {
        if (len >= kGroupBytes) {
            // The first group has no ciphertext before it to hash.
            Block blocks[kWide];
            Field previous[kWide];
            next_counter_blocks(counter, blocks);
            P::encrypt_blocks(st.cipher, blocks);
            xor_group(blocks, in, out, previous);
            in += kGroupBytes;
            out += kGroupBytes;
            len -= kGroupBytes;
            for (; len >= kGroupBytes; len -= kGroupBytes, in += kGroupBytes, out += kGroupBytes) {
                previous[0] = P::xor_fields(previous[0], y);
                next_counter_blocks(counter, blocks);
                Product sum;
                encrypt8_hash8(st, blocks, previous, sum);
                y = reduce(sum);
                xor_group(blocks, in, out, previous);
            }
            previous[0] = P::xor_fields(previous[0], y);
            Product sum;
            accumulate8(st.ghash, sum, previous);
            y = reduce(sum);
        }
        if (len > 0) {
            ctr_tail(st.cipher, counter, in, out, len);
            y = ghash_update(st.ghash, y, out, len);
        }
        return y;
    }

    // Open: the same over in -> out (out == in allowed), hashing the ciphertext `in`. Each
    // group's eight blocks are loaded and hashed during its own rounds, before its stores.
    WARP_AES_VECTOR_TARGET static Field hash_and_ctr_xor(const State& st, Field counter, Field y,
                                                     const std::uint8_t* in, std::uint8_t* out,
                                                     std::size_t len) {
        for (; len >= kGroupBytes; len -= kGroupBytes, in += kGroupBytes, out += kGroupBytes) {
            Field hashed[kWide];
#pragma GCC unroll 8
            for (std::size_t b = 0; b < kWide; ++b) hashed[b] = P::reflect(P::load(in + 16 * b));
            hashed[0] = P::xor_fields(hashed[0], y);
            Block blocks[kWide];
            next_counter_blocks(counter, blocks);
            Product sum;
            encrypt8_hash8(st, blocks, hashed, sum);
            y = reduce(sum);
#pragma GCC unroll 8
            for (std::size_t b = 0; b < kWide; ++b)
                P::store(out + 16 * b, P::xor_blocks(P::load(in + 16 * b), blocks[b]));
        }
        if (len > 0) {
            y = ghash_update(st.ghash, y, in, len);
            ctr_tail(st.cipher, counter, in, out, len);
        }
        return y;
    }

    // The full tag E_K(J0) ^ S from the reflected hash S, as bytes.
    WARP_AES_VECTOR_TARGET static void full_tag(const State& st, Field j0, Field s,
                                            std::uint8_t tag[16]) {
        P::store(tag, P::xor_blocks(encrypt_one(st.cipher, P::unreflect(j0)), P::unreflect(s)));
    }

    // Messages of up to seven blocks: E_K(J0) and the whole keystream in one AES batch.
    static constexpr std::size_t kSmallMessage = kGroupBytes - 16;

    WARP_AES_VECTOR_TARGET static void seal_small(const State& st, const AeadChunk& c, Field j0,
                                              std::uint8_t tag[16]) {
        Block keystream[kWide];  // [0] = E_K(J0), then the counter blocks J0+1, ...
        keystream_blocks(st.cipher, j0, 1 + blocks_for(c.len), keystream);
        xor_keystream(keystream + 1, c.in, c.out, c.len);
        Field y = ghash_update(st.ghash, P::zero_field(), c.aad, c.aad_len);
        y = ghash_update(st.ghash, y, c.out, c.len);
        y = ghash_block(st.ghash, y, lengths_block(c.aad_len, c.len));
        P::store(tag, P::xor_blocks(keystream[0], P::unreflect(y)));
        secure_wipe(keystream, sizeof keystream);
    }

    WARP_AES_VECTOR_TARGET static void seal(const void* state, std::span<const AeadChunk> chunks,
                                        std::size_t tag_len) {
        const State& st = state_of(state);
        for (const AeadChunk& c : chunks) {
            const Field j0 = pre_counter_block(st, c);
            alignas(16) std::uint8_t tag[16];
            if (c.len <= kSmallMessage) {
                seal_small(st, c, j0, tag);
            } else {
                Field y = ghash_update(st.ghash, P::zero_field(), c.aad, c.aad_len);
                y = ctr_xor_and_hash(st, P::add_counter(j0, 1), y, c.in, c.out, c.len);
                y = ghash_block(st.ghash, y, lengths_block(c.aad_len, c.len));
                full_tag(st, j0, y, tag);
            }
            std::memcpy(c.tag, tag, tag_len);
            secure_wipe(tag, sizeof tag);
        }
    }

    // GHASH(A, C) with the lengths block: S, reflected.
    WARP_AES_VECTOR_TARGET static Field hash_message(const State& st, const AeadChunk& c) {
        Field y = ghash_update(st.ghash, P::zero_field(), c.aad, c.aad_len);
        y = ghash_update(st.ghash, y, c.in, c.len);
        return ghash_block(st.ghash, y, lengths_block(c.aad_len, c.len));
    }

    // Opens one chunk in one pass (a small one writes out only after its tag matched).
    WARP_AES_VECTOR_TARGET static bool open_one(const State& st, const AeadChunk& c,
                                            std::size_t tag_len) {
        const Field j0 = pre_counter_block(st, c);
        alignas(16) std::uint8_t expected[16];
        bool ok;
        if (c.len <= kSmallMessage) {
            Block keystream[kWide];  // computed before the check, written out only after it
            keystream_blocks(st.cipher, j0, 1 + blocks_for(c.len), keystream);
            P::store(expected, P::xor_blocks(keystream[0], P::unreflect(hash_message(st, c))));
            ok = equal_in_constant_time(expected, c.tag, tag_len);
            if (ok) xor_keystream(keystream + 1, c.in, c.out, c.len);
            secure_wipe(keystream, sizeof keystream);
        } else {
            Field y = ghash_update(st.ghash, P::zero_field(), c.aad, c.aad_len);
            y = hash_and_ctr_xor(st, P::add_counter(j0, 1), y, c.in, c.out, c.len);
            y = ghash_block(st.ghash, y, lengths_block(c.aad_len, c.len));
            full_tag(st, j0, y, expected);
            ok = equal_in_constant_time(expected, c.tag, tag_len);  // false: out is zeroed
        }
        secure_wipe(expected, sizeof expected);
        return ok;
    }

    WARP_AES_VECTOR_TARGET static std::size_t open(const void* state,
                                               std::span<const AeadChunk> chunks,
                                               std::size_t tag_len, bool* ok) {
        const State& st = state_of(state);
        return open_each(chunks, ok, [&](const AeadChunk& c) { return open_one(st, c, tag_len); });
    }

    alignas(16) static constexpr std::uint8_t kZeroBlock[16] = {};

    static constexpr AeadImpl kTable{Aead::aes_gcm, sizeof(State), &init, &seal, &open};
};

}  // namespace warp::aes_128bit_vector
