// The width-generic AES-GCM driver (NIST SP 800-38D) on VAES + VPCLMULQDQ: everything it
// does with a vector goes through the width W's primitives (vector256.hpp's Ymm,
// avx512/vector512.hpp's Zmm), and a backend's file defines WARP_VAES_TARGET (the target
// attribute of its width), includes this and names kTable<W> (vaes/gcm.cpp: x86-vaes,
// avx512/gcm.cpp: x86-avx512). Each includer gets its own copy (an unnamed namespace), compiled
// for its own target.
//
// seal: CTR one step (8 vectors: 16 blocks at 256 bits, 32 at 512) at a time, GHASH of the
//       previous step's ciphertext interleaved (gcm_ctr.hpp), one GHASH reduction per step.
// open: the same step in one pass, hashing each step's own ciphertext while it decrypts it,
//       then a constant-time tag compare. What a failed chunk wrote to out is zeroed by
//       AeadKey::open before anything returns (engine/aead.hpp), so no plaintext of a forged
//       chunk is ever released.
// Key-length dispatch happens once per batch; every kernel is a template on the round count.
// Constant time: lengths are public; no branch or index depends on the key, the data or the
// tag (the compare has no early exit).
#pragma once

#ifndef WARP_VAES_TARGET
#error "define WARP_VAES_TARGET (the target attribute of the vector width) before gcm_driver.hpp"
#endif

#include <cstring>

#include "engine/aead.hpp"
#include "engine/open_each.hpp"
#include "engine/secure_memory.hpp"
#include "engine/x86/isa.hpp"
#include "engine/x86/vaes/aes_vaes.hpp"
#include "engine/x86/vaes/gcm_ctr.hpp"
#include "engine/x86/vaes/ghash_vaes.hpp"

namespace warp::x86::vaes {
namespace {

template <typename W>
struct GcmState {
    RoundKeys aes;
    GhashKey<W> ghash;  // powers of H = E_K(0^128)
};

template <typename W>
const GcmState<W>& gcm_state(const void* state) {
    return *static_cast<const GcmState<W>*>(state);
}

template <typename W>
WARP_VAES_TARGET void init(void* state, const std::uint8_t* key, std::size_t key_len) {
    auto& st = *static_cast<GcmState<W>*>(state);
    expand_encryption_key(st.aes, key, key_len);
    init_ghash_key(st.ghash, encrypt_block_any(st.aes, _mm_setzero_si128()));
}

// H^1 in the stored representation.
template <typename W>
WARP_VAES_TARGET inline __m128i hash_key(const GhashKey<W>& ghash) {
    return _mm_load_si128(reinterpret_cast<const __m128i*>(ghash.powers[kGhashPowers<W> - 1]));
}

// X <- (X + [high]_64 || [low]_64) * H: the final length block of a GHASH input. In the
// byte-reversed order the first 64-bit field is the high half.
template <typename W>
WARP_VAES_TARGET inline __m128i hash_lengths(const GhashKey<W>& ghash, __m128i acc,
                                             std::uint64_t high, std::uint64_t low) {
    const __m128i lengths =
        _mm_set_epi64x(static_cast<long long>(high), static_cast<long long>(low));
    return ghash_mul(_mm_xor_si128(acc, lengths), hash_key(ghash));
}

// The pre-counter block J0, byte-reversed (SP 800-38D 7.1 step 2): IV || 0^31 || 1 for a
// 96-bit IV, otherwise GHASH(IV || 0-padding || [0]_64 || [len(IV) in bits]_64).
template <typename W>
WARP_VAES_TARGET inline __m128i reversed_j0(const GcmState<W>& st, const AeadChunk& c) {
    if (c.nonce_len == kChunkNonceSize) {
        alignas(16) std::uint8_t j0[16] = {};
        std::memcpy(j0, c.nonce, kChunkNonceSize);
        j0[15] = 1;
        return _mm_shuffle_epi8(_mm_load_si128(reinterpret_cast<const __m128i*>(j0)),
                                byte_reverse_mask128());
    }
    const __m128i acc = ghash_update(st.ghash, _mm_setzero_si128(), c.nonce, c.nonce_len);
    return hash_lengths(st.ghash, acc, 0, std::uint64_t{c.nonce_len} * 8);
}

// Full 16-byte tag from the finished accumulator (before the length block) and E_K(J0).
template <typename W>
WARP_VAES_TARGET inline __m128i full_tag(const GcmState<W>& st, const AeadChunk& c, __m128i acc,
                                         __m128i encrypted_j0) {
    acc = hash_lengths(st.ghash, acc, std::uint64_t{c.aad_len} * 8, std::uint64_t{c.len} * 8);
    return _mm_xor_si128(_mm_shuffle_epi8(acc, byte_reverse_mask128()), encrypted_j0);
}

template <typename W>
WARP_VAES_TARGET inline __m128i hash_aad(const GcmState<W>& st, const AeadChunk& c) {
    const __m128i zero = _mm_setzero_si128();
    return c.aad_len == 0 ? zero : ghash_update(st.ghash, zero, c.aad, c.aad_len);
}

// Where every chunk starts, sealed or opened: E_K(J0) for the tag, the counters from J0 + 1,
// and the accumulator having hashed the AAD.
template <typename W>
struct ChunkStart {
    __m128i encrypted_j0;
    typename W::V counters;
    __m128i acc;
    std::uint32_t next_counter;  // the counter value of the next block (public)
};

template <typename W, int Rounds>
WARP_VAES_TARGET inline ChunkStart<W> start_chunk(const GcmState<W>& st, const AeadChunk& c) {
    const __m128i j0 = reversed_j0(st, c);
    return {encrypt_block<Rounds>(st.aes, _mm_shuffle_epi8(j0, byte_reverse_mask128())),
            W::first_counters(j0), hash_aad(st, c),
            static_cast<std::uint32_t>(_mm_cvtsi128_si32(j0)) + 1};
}

// Moves the chunk's counter value past one step; returns whether that step's counters stay
// within their lowest byte (first_round_inputs' fast form).
template <typename W>
inline bool take_step_counters(ChunkStart<W>& s) {
    const bool last_byte_free = counter_last_byte_free<W>(s.next_counter);
    s.next_counter += W::kBlocks * kCtrVectorsPerStep;
    return last_byte_free;
}

// One step of seal or open (ctr_xor_and_hash), with the counters' fast form where it applies.
template <typename W, int Rounds>
WARP_VAES_TARGET inline __m128i step(const GcmState<W>& st, ChunkStart<W>& s,
                                     const std::uint8_t* in, std::uint8_t* out,
                                     const std::uint8_t* hashed) {
    return take_step_counters(s)
               ? ctr_xor_and_hash<W, Rounds, true>(st.aes, st.ghash, s.counters, in, out, hashed,
                                                   s.acc)
               : ctr_xor_and_hash<W, Rounds, false>(st.aes, st.ghash, s.counters, in, out, hashed,
                                                    s.acc);
}

// A step on the schoolbook path (W::kSchoolbookStep), with the counters' fast form where it
// applies; `carried` as ctr_xor_and_hash_schoolbook takes it.
template <typename W, int Rounds, HashedSource Source>
[[gnu::always_inline]] WARP_VAES_TARGET inline __m128i schoolbook_step(const GcmState<W>& st,
                                                                       ChunkStart<W>& s,
                                                                       const std::uint8_t* in,
                                                                       std::uint8_t* out,
                                                                       typename W::V* carried) {
    return take_step_counters(s) ? ctr_xor_and_hash_schoolbook<W, Rounds, true, Source>(
                                st.aes, st.ghash, s.counters, in, out, carried, s.acc)
                          : ctr_xor_and_hash_schoolbook<W, Rounds, false, Source>(
                                st.aes, st.ghash, s.counters, in, out, carried, s.acc);
}

template <typename W, int Rounds>
WARP_VAES_TARGET inline void seal_chunk(const GcmState<W>& st, const AeadChunk& c,
                                        std::size_t tag_len) {
    ChunkStart<W> s = start_chunk<W, Rounds>(st, c);

    constexpr std::size_t kStep = kCtrStepBytes<W>;
    const std::uint8_t* in = c.in;
    std::uint8_t* out = c.out;
    std::size_t len = c.len;
    if (len >= kStep) {
        ctr_xor_vectors<W, Rounds, kCtrVectorsPerStep>(st.aes, s.counters, in, out);
        take_step_counters(s);  // that step took the slow form whatever its counters
        const std::uint8_t* previous = out;
        in += kStep, out += kStep, len -= kStep;
        if constexpr (W::kSchoolbookStep) {
            typename W::V carried[kCtrVectorsPerStep];
            for (int j = 0; j < kCtrVectorsPerStep; ++j)
                carried[j] = W::load(previous + 16 * W::kBlocks * j);
            for (; len >= kStep; in += kStep, out += kStep, len -= kStep) {
                s.acc = schoolbook_step<W, Rounds, HashedSource::carried>(st, s, in, out, carried);
                previous = out;
            }
        } else {
            for (; len >= kStep; in += kStep, out += kStep, len -= kStep) {
                s.acc = step<W, Rounds>(st, s, in, out, previous);
                previous = out;
            }
        }
        s.acc = ghash_step(st.ghash, s.acc, previous);
    }
    if (len > 0) {
        ctr_xor_tail<W, Rounds>(st.aes, s.counters, in, out, len);
        s.acc = ghash_run(st.ghash, s.acc, out, len);
    }

    alignas(16) std::uint8_t tag[16];
    _mm_store_si128(reinterpret_cast<__m128i*>(tag), full_tag(st, c, s.acc, s.encrypted_j0));
    std::memcpy(c.tag, tag, tag_len);
}

// Bytes 0..15 are 0xff, 16..31 zero: the 16 bytes at kPrefixMask + 16 - n select the first n.
constexpr std::uint8_t kPrefixMask[32] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                          0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};

// Decrypts and authenticates in one pass; the compare has no early exit.
template <typename W, int Rounds>
WARP_VAES_TARGET inline bool open_chunk(const GcmState<W>& st, const AeadChunk& c,
                                        std::size_t tag_len) {
    ChunkStart<W> s = start_chunk<W, Rounds>(st, c);

    const std::uint8_t* in = c.in;
    std::uint8_t* out = c.out;
    std::size_t len = c.len;
    constexpr std::size_t kStep = kCtrStepBytes<W>;
    for (; len >= kStep; in += kStep, out += kStep, len -= kStep) {
        if constexpr (W::kSchoolbookStep)
            s.acc = schoolbook_step<W, Rounds, HashedSource::input>(st, s, in, out, nullptr);
        else
            s.acc = step<W, Rounds>(st, s, in, out, in);
    }
    if (len > 0) {
        s.acc = ghash_run(st.ghash, s.acc, in, len);  // before the tail's stores: in place is fine
        ctr_xor_tail<W, Rounds>(st.aes, s.counters, in, out, len);
    }
    const __m128i expected = full_tag(st, c, s.acc, s.encrypted_j0);

    alignas(16) std::uint8_t received[16] = {};
    std::memcpy(received, c.tag, tag_len);
    const __m128i difference =
        _mm_xor_si128(expected, _mm_load_si128(reinterpret_cast<const __m128i*>(received)));
    const __m128i compared =
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(kPrefixMask + 16 - tag_len));
    return _mm_testz_si128(difference, compared) != 0;  // false: AeadKey::open zeroes out
}

template <typename W, int Rounds>
WARP_VAES_TARGET void seal_all(const GcmState<W>& st, std::span<const AeadChunk> chunks,
                               std::size_t tag_len) {
    for (const AeadChunk& c : chunks) seal_chunk<W, Rounds>(st, c, tag_len);
}

template <typename W, int Rounds>
WARP_VAES_TARGET bool open_one(const GcmState<W>& st, const AeadChunk& c, std::size_t tag_len) {
    return open_chunk<W, Rounds>(st, c, tag_len);
}

template <typename W, int Rounds>
std::size_t open_all(const GcmState<W>& st, std::span<const AeadChunk> chunks,
                     std::size_t tag_len, bool* ok) {
    return open_each(chunks, ok,
                     [&](const AeadChunk& c) { return open_one<W, Rounds>(st, c, tag_len); });
}

// Key-length dispatch, once per batch.
template <typename W>
void seal(const void* state, std::span<const AeadChunk> chunks, std::size_t tag_len) {
    const GcmState<W>& st = gcm_state<W>(state);
    switch (st.aes.rounds) {
        case 10: seal_all<W, 10>(st, chunks, tag_len); break;
        case 12: seal_all<W, 12>(st, chunks, tag_len); break;
        default: seal_all<W, 14>(st, chunks, tag_len); break;
    }
}

template <typename W>
std::size_t open(const void* state, std::span<const AeadChunk> chunks, std::size_t tag_len,
                 bool* ok) {
    const GcmState<W>& st = gcm_state<W>(state);
    switch (st.aes.rounds) {
        case 10: return open_all<W, 10>(st, chunks, tag_len, ok);
        case 12: return open_all<W, 12>(st, chunks, tag_len, ok);
        default: return open_all<W, 14>(st, chunks, tag_len, ok);
    }
}

template <typename W>
constexpr AeadImpl kTable{Aead::aes_gcm, sizeof(GcmState<W>), &init<W>, &seal<W>, &open<W>};

}  // namespace
}  // namespace warp::x86::vaes
