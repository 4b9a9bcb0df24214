// The AES-GCM kernel as a sequence of phases: one thread block of kGcmThreads (T) threads
// seals or opens one piece of a chunk of a packed batch (kernel_api.hpp; most chunks are one
// piece). The GPU runs each phase in
// every thread with a __syncthreads() between phases (kernels.cu); the CPU emulator runs each
// phase for thread 0, 1, ..., T-1 before starting the next (emulator.cpp). Both walk the one
// sequence in gcm_phases() below, so they cannot disagree on it. State that outlives a phase
// lives in GcmShared (registers die at a phase boundary in the emulator); phases use no warp
// intrinsics, only shared memory and the barrier between phases.
//
// The algorithm. Let m be the number of GHASH input blocks of the chunk, the virtual sequence
//     X_0 .. X_{m-1} = AAD blocks (last one zero-padded) || ciphertext blocks (likewise)
//                      || the length block [len(A)]_64 || [len(C)]_64 (in bits)
// so that S = GHASH_H(X) = X_0·H^m + X_1·H^(m-1) + ... + X_{m-1}·H (SP 800-38D, 6.4 and 7.1).
// Thread t takes the positions j = t, t+T, t+2T, ...: at a ciphertext position it produces the
// block (CTR: C_i = P_i ^ E(K, J0 + 1 + i), the counter's low 32 bits wrapping as inc32 says)
// and folds the ciphertext (the output when sealing, the input when opening) into its own
// accumulator acc_t = acc_t·H^T + X_j (Horner, one multiplication by the fixed H^T per block,
// gf128.hpp). When its last position is l_t, acc_t = sum of X_j·H^(l_t - j) over its j, so
//     partial_t = acc_t·H^(m - l_t)   (1 <= m - l_t <= T: GcmKeyTables::h_powers)
// makes every X_j carry H^(m - j), and S is the XOR of all partial_t: a tree of log2(T)
// steps over shared memory. Thread 0 then writes the tag E(K, J0) ^ S.
//
// A piece is the same over positions [first, end) of its chunk, with end in the place of m:
// its thread block computes S_p = sum of X_j·H^(end - j) over its positions. Pieces are cut
// back from the chunk's end, P = kGcmPiecePositions positions each (the first may be
// shorter), so piece p of n ends at m - (n-1-p)·P and
//     S = sum_p S_p·H^((n-1-p)·P) = (..((S_0·H^P + S_1)·H^P + S_2)..)·H^P + S_{n-1},
// Horner with one fixed power, H^P (GcmKeyTables::h_piece). A split chunk's pieces store S_p
// (and piece 0 the mask E(K, J0) in the tag's place); gcm_join_pieces, run by a second kernel
// once every piece is done, folds them into the tag.
//
// Shared memory (dynamic: more than the 48 KiB a kernel may declare statically, kernels.cu):
//   T0 and T2 paired 64 KiB, the positioned multiples of H^T 32 KiB, partial sums 4 KiB,
//   round keys; about 100 KiB, so two thread blocks per multiprocessor.
#pragma once

#include <cstdint>

#include "engine/cuda/device/aes_rounds.hpp"
#include "engine/cuda/device/aes_tables.hpp"
#include "engine/cuda/device/gf128.hpp"
#include "engine/cuda/device/portability.hpp"
#include "engine/cuda/kernel_api.hpp"

namespace warp::cuda::device {

static_assert(kGcmThreads == kAesTableEntries, "gcm_load gives each thread one T0 entry");
static_assert((kGcmThreads & (kGcmThreads - 1)) == 0, "the partial sums reduce as a binary tree");

struct GcmShared {
    std::uint32_t t0_t2[kAesPairWords];
    alignas(16) std::uint32_t h_t_positions[kPositionTablesWords];
    alignas(16) Gf128 partial[kGcmThreads];
    AesSharedKey key;
};
// Two thread blocks per multiprocessor (kernels.cu) must fit in an H100/H200's 228 KiB, 1 KiB
// of which each thread block's system use takes.
static_assert(2 * (sizeof(GcmShared) + 1024) <= 228 * 1024, "two per multiprocessor");

// Up to 16 bytes (n < 16: the last block of the AAD or of the message) as a zero-padded block,
// byte by byte: nothing past the end is read. Unrolled over all 16 positions so that every
// word index is a constant and the block stays in registers.
WARP_HD WARP_INLINE Words4 load_partial_block(const std::uint8_t* p, std::uint32_t n) {
    Words4 v{};
    WARP_UNROLL
    for (std::uint32_t b = 0; b < 16; ++b)
        if (b < n) v.w[b / 4] |= std::uint32_t{p[b]} << (8 * (b % 4));
    return v;
}

WARP_HD WARP_INLINE void store_partial_block(std::uint8_t* p, const Words4& v, std::uint32_t n) {
    WARP_UNROLL
    for (std::uint32_t b = 0; b < 16; ++b)
        if (b < n) p[b] = static_cast<std::uint8_t>(v.w[b / 4] >> (8 * (b % 4)));
}

// Keeps the first n bytes of a block (n < 16), zeroing the rest: GHASH's zero padding.
WARP_HD WARP_INLINE Words4 keep_bytes(const Words4& v, std::uint32_t n) {
    Words4 out{};
    WARP_UNROLL
    for (std::uint32_t i = 0; i < 4; ++i) {
        const std::uint32_t bytes = n > 4 * i ? n - 4 * i : 0;  // bytes of word i to keep
        out.w[i] = bytes >= 4 ? v.w[i] : v.w[i] & ((1u << (8 * bytes)) - 1u);
    }
    return out;
}

// open ? a : b, word by word (choosing between whole structs would make the GPU compiler take
// their addresses and put them on the stack).
WARP_HD WARP_INLINE Words4 pick(bool open, const Words4& a, const Words4& b) {
    return {{open ? a.w[0] : b.w[0], open ? a.w[1] : b.w[1], open ? a.w[2] : b.w[2],
             open ? a.w[3] : b.w[3]}};
}

WARP_HD WARP_INLINE std::uint64_t blocks_of(std::uint64_t bytes) { return (bytes + 15) / 16; }

// Phase 1, load: every table and the round keys into shared memory, cooperatively. Thread t
// fills T0 and T2 entry t in all 32 copies, then its share of the 2048 16-byte slots of the
// positioned tables (position, entry, lane).
WARP_HD inline void gcm_load(const GcmLaunch& launch, GcmShared& sh, unsigned block, unsigned t) {
    (void)block;
    const std::uint32_t lane = t % kLanes;
    const GcmKeyTables& key = *launch.key;
    const std::uint32_t t0 = aes_table_source().t0[t];
    replicate_pair_entry(sh.t0_t2, t, t0, rotl32(t0, 16), lane);
    for (std::uint32_t slot = t; slot < kNibblePositions * kNibbleEntries * kLanes;
         slot += kGcmThreads) {
        const std::uint32_t* m = key.h_t_positions[slot / (kNibbleEntries * kLanes)]
                                                  [slot / kLanes % kNibbleEntries];
        store_words4(sh.h_t_positions + 4 * slot, Words4{{m[0], m[1], m[2], m[3]}});
    }
    load_round_key_word(sh.key, key.aes.words, key.aes.rounds, false, t);
}

// Phase 2, CTR and GHASH over the piece's positions: see the top of the file. The position
// loop is instantiated per key length (Rounds), so that no branch on the key length is left
// inside it (aes_rounds.hpp says why). It leaves this thread's accumulator and the last
// position it took.
struct GhashState {
    Gf128 acc;
    std::uint64_t last;
};

template <unsigned Rounds>
WARP_HD inline GhashState gcm_position_loop(const GcmLaunch& launch, const GcmShared& sh,
                                            const GcmPieceDesc& piece, const GcmChunkDesc& chunk,
                                            unsigned t) {
    const std::uint32_t lane = t % kLanes;
    const std::uint64_t aad_blocks = blocks_of(chunk.aad_len);
    const std::uint64_t data_blocks = blocks_of(chunk.len);
    const Words4 j0 = load_block_aligned(chunk.j0);
    const std::uint32_t first_counter = byte_swap32(j0.w[3]) + 1;  // inc32(J0), big-endian
    const std::uint8_t* in = launch.in + chunk.data_offset;
    std::uint8_t* out = launch.out + chunk.data_offset;

    GhashState state{};
    for (std::uint64_t j = piece.first + t; j < piece.end; j += kGcmThreads) {
        // Counter block i = j - aad_blocks: J0 with its last word, big-endian, advanced by
        // 1 + i mod 2^32. Encrypted at every position, used at data positions only.
        const std::uint64_t i = j - aad_blocks;
        const Words4 counter{{j0.w[0], j0.w[1], j0.w[2],
                              byte_swap32(first_counter + static_cast<std::uint32_t>(i))}};
        const Words4 keystream = aes_encrypt_block<Rounds>(sh.t0_t2, sh.key, lane, counter);
        Gf128 x{};
        if (j < aad_blocks) {
            const std::uint64_t offset = 16 * j;
            const std::uint64_t left = chunk.aad_len - offset;
            x = gf128_from_block(load_partial_block(launch.aad + chunk.aad_offset + offset,
                                                    left < 16 ? static_cast<std::uint32_t>(left) : 16));
        } else if (i < data_blocks) {
            const std::uint64_t left = chunk.len - 16 * i;
            if (left >= 16) {
                const Words4 plain_or_cipher = load_block_aligned(in + 16 * i);
                const Words4 result = xor4(plain_or_cipher, keystream);
                store_block_aligned(out + 16 * i, result);
                x = gf128_from_block(pick(launch.open, plain_or_cipher, result));
            } else {
                const std::uint32_t n = static_cast<std::uint32_t>(left);
                const Words4 plain_or_cipher = load_partial_block(in + 16 * i, n);
                const Words4 result = keep_bytes(xor4(plain_or_cipher, keystream), n);
                store_partial_block(out + 16 * i, result, n);
                x = gf128_from_block(pick(launch.open, plain_or_cipher, result));
            }
        } else {
            const std::uint64_t aad_bits = chunk.aad_len * 8;
            const std::uint64_t data_bits = chunk.len * 8;
            x = {{static_cast<std::uint32_t>(aad_bits >> 32), static_cast<std::uint32_t>(aad_bits),
                  static_cast<std::uint32_t>(data_bits >> 32), static_cast<std::uint32_t>(data_bits)}};
        }
        state.acc = gf128_xor(gf128_mul_fixed(state.acc, sh.h_t_positions, lane), x);
        state.last = j;
    }
    return state;
}

// Ends by storing partial_t.
WARP_HD inline void gcm_ctr_ghash(const GcmLaunch& launch, GcmShared& sh, unsigned block,
                                  unsigned t) {
    const GcmPieceDesc& piece = launch.pieces[block];
    const GcmChunkDesc& chunk = launch.chunks[piece.chunk];
    const GhashState state = with_rounds(sh.key.rounds, [&](auto r) {
        return gcm_position_loop<decltype(r)::value>(launch, sh, piece, chunk, t);
    });

    // end - last is 1..T; a thread without positions (a public fact) contributes 0.
    Gf128 partial{};
    if (piece.first + t < piece.end) {
        const std::uint32_t* power = launch.key->h_powers[piece.end - state.last - 1];
        partial = gf128_mul_bitwise(state.acc, Gf128{{power[0], power[1], power[2], power[3]}});
    }
    sh.partial[t] = partial;
}

// Phase 3, one level of the XOR tree: partial[t] ^= partial[t + step] for t < step. Run for
// step = T/2, T/4, ..., 1 with a barrier after each, partial[0] ends as S.
WARP_HD inline void gcm_reduce_step(const GcmLaunch& launch, GcmShared& sh, unsigned block,
                                    unsigned t, unsigned step) {
    (void)launch;
    (void)block;
    if (t < step) sh.partial[t] = gf128_xor(sh.partial[t], sh.partial[t + step]);
}

// Phase 4, the tag: thread 0 writes E(K, J0) ^ S, all 16 bytes (the host truncates). A piece
// of a split chunk writes its S_p instead, and its first piece the mask E(K, J0) in the tag's
// place, for gcm_join_pieces. Which case applies depends on lengths only.
WARP_HD inline void gcm_tag(const GcmLaunch& launch, GcmShared& sh, unsigned block, unsigned t) {
    if (t != 0) return;
    const GcmPieceDesc& piece = launch.pieces[block];
    const GcmChunkDesc& chunk = launch.chunks[piece.chunk];
    std::uint8_t* tag = launch.tags + 16 * std::uint64_t{piece.chunk};
    const bool whole = chunk.pieces == 1;
    if (!whole) store_block_aligned(launch.piece_sums + 16 * std::uint64_t{block},
                                    gf128_to_block(sh.partial[0]));
    if (!whole && piece.index != 0) return;
    const Words4 mask = aes_encrypt_block(sh.t0_t2, sh.key, t % kLanes, load_block_aligned(chunk.j0));
    store_block_aligned(tag, whole ? xor4(gf128_to_block(sh.partial[0]), mask) : mask);
}

// The second kernel, per split chunk (one thread each; whole chunks return at once): the tag
// E(K, J0) ^ S, S from the pieces' sums by Horner with H^P (top of the file), with the
// constant-time multiplication.
WARP_HD inline void gcm_join_pieces(const GcmLaunch& launch, std::uint32_t c) {
    const GcmChunkDesc& chunk = launch.chunks[c];
    if (chunk.pieces <= 1) return;
    const std::uint32_t* hp = launch.key->h_piece;
    const Gf128 h_piece{{hp[0], hp[1], hp[2], hp[3]}};
    const std::uint8_t* sums = launch.piece_sums + 16 * std::uint64_t{chunk.first_piece};
    Gf128 s = gf128_from_block(load_block_aligned(sums));
    for (std::uint32_t p = 1; p < chunk.pieces; ++p)
        s = gf128_xor(gf128_mul_bitwise(s, h_piece),
                      gf128_from_block(load_block_aligned(sums + 16 * std::uint64_t{p})));
    std::uint8_t* tag = launch.tags + 16 * std::uint64_t{c};
    store_block_aligned(tag, xor4(gf128_to_block(s), load_block_aligned(tag)));
}

// The phases as values, so that one sequence (gcm_phases) drives the GPU and the emulator.
struct GcmLoadPhase {
    WARP_HD void operator()(const GcmLaunch& l, GcmShared& sh, unsigned b, unsigned t) const {
        gcm_load(l, sh, b, t);
    }
};
struct GcmCtrGhashPhase {
    WARP_HD void operator()(const GcmLaunch& l, GcmShared& sh, unsigned b, unsigned t) const {
        gcm_ctr_ghash(l, sh, b, t);
    }
};
struct GcmReduceStepPhase {
    unsigned step;
    WARP_HD void operator()(const GcmLaunch& l, GcmShared& sh, unsigned b, unsigned t) const {
        gcm_reduce_step(l, sh, b, t, step);
    }
};
struct GcmTagPhase {
    WARP_HD void operator()(const GcmLaunch& l, GcmShared& sh, unsigned b, unsigned t) const {
        gcm_tag(l, sh, b, t);
    }
};

// The kernel, phase by phase. run(phase) runs `phase` in every thread of the block and
// returns when all have finished it: on the GPU, the phase then __syncthreads(); in the
// emulator, a loop over the threads. The barriers this implies are the only ones needed:
//   load -> ctr_ghash: the tables and round keys are complete before the first lookup;
//   ctr_ghash -> reduce: every partial_t is stored;
//   reduce(step) -> reduce(step / 2): a level is complete before the next reads it;
//   reduce(1) -> tag: S = partial[0] is final.
template <class Run>
WARP_HD void gcm_phases(Run&& run) {
    run(GcmLoadPhase{});
    run(GcmCtrGhashPhase{});
    for (unsigned step = kGcmThreads / 2; step > 0; step /= 2) run(GcmReduceStepPhase{step});
    run(GcmTagPhase{});
}

}  // namespace warp::cuda::device
