// One AES block, encrypted or decrypted with the paired tables of aes_tables.hpp and round
// keys in shared memory: the inner loop of both kernels (and, on lane 0, of E(K, J0)).
//
// A round is written out column by column. For encryption, column c of the next state is
//     T0[s_c row 0] ^ T1[s_{c+1} row 1] ^ T2[s_{c+2} row 2] ^ T3[s_{c+3} row 3] ^ k_c
// (SubBytes, ShiftRows and MixColumns in four lookups; Tr = rotl(T0, 8r)). The kernels hold
// only the pair T0, T2 and use T1 = rotl(T0, 8), T3 = rotl(T2, 8):
//     (T0[..] ^ T2[..]) ^ rotl(T0[s_{c+1} row 1] ^ T2[s_{c+3} row 3] ^ rotr(k_c, 8), 8)
// so a column is four lookups (a PRMT and an LDS each), two three-input XORs and ONE
// rotation, with the middle round keys stored rotated right by 8 (AesSharedKey). Decryption
// is the same with InvT0, InvT2 and columns c-1, c-2, c-3 (InvShiftRows shifts the other
// way). Every round is unrolled with constant round-key offsets, once per key length (the
// block functions' Rounds): the kernels branch on the round count, which is public (the
// key's length) and the same for every thread, once, outside their block loops.
#pragma once

#include <cstdint>

#include "engine/cuda/device/aes_tables.hpp"
#include "engine/cuda/device/portability.hpp"

namespace warp::cuda::device {

inline constexpr std::uint32_t kAesMaxRounds = 14;

// Round keys as the kernels keep them in shared memory: rounds + 1 groups of four column words
// (row 0 in the low byte, like the state), in the order the direction applies them: for
// decryption, FIPS-197's dw[Nr], dw[Nr-1], ..., dw[0] (the equivalent inverse cipher's keys).
// The middle groups (1 .. rounds - 1, the ones a full round adds) are stored rotated right by
// 8 bits, as the rounds above consume them (kernel_round_key); the first and the last as they
// are. 16-byte aligned so that every group is one broadcast 128-bit load.
struct AesSharedKey {
    alignas(16) std::uint32_t words[4 * (kAesMaxRounds + 1)];
    std::uint32_t rounds;
};

WARP_HD WARP_INLINE Words4 xor4(const Words4& a, const Words4& b) {
    return {{a.w[0] ^ b.w[0], a.w[1] ^ b.w[1], a.w[2] ^ b.w[2], a.w[3] ^ b.w[3]}};
}

// Byte `row` of a column word, as a table index.
WARP_HD WARP_INLINE std::uint32_t row_byte(std::uint32_t column, unsigned row) {
    return (column >> (8 * row)) & 0xffu;
}

// A middle round's key as encrypt_round and decrypt_round take it: each word rotated right by
// 8 bits (the top of the file).
WARP_HD WARP_INLINE constexpr std::uint32_t kernel_round_key(std::uint32_t k) {
    return rotl32(k, 24);
}

// The lanes' offsets into the two halves of a paired table (aes_tables.hpp, pair_select).
struct PairSelect {
    std::uint32_t a;
    std::uint32_t b;
};

WARP_HD WARP_INLINE PairSelect pair_selects(std::uint32_t lane) {
    return {pair_select(lane, PairHalf::a), pair_select(lane, PairHalf::b)};
}

// One full round with the pair (X0, X2) = (T0, T2) or (InvT0, InvT2): `up` is 1 for
// encryption (row r from column c + r) and 3 for decryption (row r from column c - r).
template <unsigned up>
WARP_HD WARP_INLINE Words4 table_round(const std::uint32_t* pair, PairSelect sel, const Words4& s,
                                       const Words4& k_rotated) {
    Words4 next{};
    WARP_UNROLL
    for (unsigned c = 0; c < 4; ++c) {
        const std::uint32_t rows_0_2 = pair_lookup(pair, s.w[c], 0, sel.a) ^
                                       pair_lookup(pair, s.w[(c + 2 * up) & 3], 2, sel.b);
        const std::uint32_t rows_1_3 = pair_lookup(pair, s.w[(c + up) & 3], 1, sel.a) ^
                                       pair_lookup(pair, s.w[(c + 3 * up) & 3], 3, sel.b) ^
                                       k_rotated.w[c];
        next.w[c] = rows_0_2 ^ rotl32(rows_1_3, 8);
    }
    return next;
}

WARP_HD WARP_INLINE Words4 encrypt_round(const std::uint32_t* t0_t2, PairSelect sel,
                                         const Words4& s, const Words4& k_rotated) {
    return table_round<1>(t0_t2, sel, s, k_rotated);
}

WARP_HD WARP_INLINE Words4 decrypt_round(const std::uint32_t* inv_t0_t2, PairSelect sel,
                                         const Words4& s, const Words4& k_rotated) {
    return table_round<3>(inv_t0_t2, sel, s, k_rotated);
}

// SubBytes and ShiftRows only. S[x] is byte 1 and byte 2 of T0[x] = (2s, s, s, 3s) and byte
// 0 and byte 3 of T2[x] = (s, 3s, 2s, s), so each output byte is picked where it already sits:
// three PRMTs per column, no shift and no mask.
WARP_HD WARP_INLINE Words4 encrypt_last_round(const std::uint32_t* t0_t2, PairSelect sel,
                                              const Words4& s, const Words4& k) {
    Words4 out{};
    WARP_UNROLL
    for (unsigned c = 0; c < 4; ++c) {
        const std::uint32_t bytes_0_1 = byte_perm(pair_lookup(t0_t2, s.w[c], 0, sel.b),
                                                  pair_lookup(t0_t2, s.w[(c + 1) & 3], 1, sel.a),
                                                  0x3250u);  // T2 byte 0, T0 byte 1
        const std::uint32_t bytes_2_3 = byte_perm(pair_lookup(t0_t2, s.w[(c + 2) & 3], 2, sel.a),
                                                  pair_lookup(t0_t2, s.w[(c + 3) & 3], 3, sel.b),
                                                  0x7210u);  // T0 byte 2, T2 byte 3
        out.w[c] = byte_perm(bytes_0_1, bytes_2_3, 0x7610u) ^ k.w[c];
    }
    return out;
}

// InvS[x] from the packed table: word x / 4, byte x % 4.
WARP_HD WARP_INLINE std::uint32_t inv_sbox_lookup(const std::uint32_t* inv_sbox,
                                                  std::uint32_t lane, std::uint32_t x) {
    return (replicated_load(inv_sbox, x >> 2, lane) >> (8 * (x & 3u))) & 0xffu;
}

WARP_HD WARP_INLINE Words4 decrypt_last_round(const std::uint32_t* inv_sbox, std::uint32_t lane,
                                              const Words4& s, const Words4& k) {
    Words4 out{};
    WARP_UNROLL
    for (unsigned c = 0; c < 4; ++c)
        out.w[c] = inv_sbox_lookup(inv_sbox, lane, row_byte(s.w[c], 0)) ^
                   (inv_sbox_lookup(inv_sbox, lane, row_byte(s.w[(c + 3) & 3], 1)) << 8) ^
                   (inv_sbox_lookup(inv_sbox, lane, row_byte(s.w[(c + 2) & 3], 2)) << 16) ^
                   (inv_sbox_lookup(inv_sbox, lane, row_byte(s.w[(c + 1) & 3], 3)) << 24) ^
                   k.w[c];
    return out;
}

// The round count as a type, for with_rounds.
template <unsigned Rounds>
struct RoundCount {
    static constexpr unsigned value = Rounds;
};

// f(RoundCount<rounds>{}) for a key's round count (10, 12 or 14; public, the same for every
// thread): the one place the kernels turn the key's round count into the compile-time Rounds
// of the block functions below, outside their block loops.
template <class F>
WARP_HD WARP_INLINE auto with_rounds(std::uint32_t rounds, F&& f) {
    if (rounds == 10) return f(RoundCount<10>{});
    if (rounds == 12) return f(RoundCount<12>{});
    return f(RoundCount<14>{});
}

// E(K, block) for a key of `Rounds` rounds (10, 12 or 14), every round unrolled: the form the
// kernels' block loops use, instantiated once per key length so that no branch is left inside
// a loop (a branch there makes ptxas address shared memory through a vector register, one
// more instruction per lookup). t0_t2: the paired T0, T2 (kAesPairWords words); key: the
// encryption schedule.
template <unsigned Rounds>
WARP_HD WARP_INLINE Words4 aes_encrypt_block(const std::uint32_t* t0_t2, const AesSharedKey& key,
                                             std::uint32_t lane, const Words4& block) {
    static_assert(Rounds == 10 || Rounds == 12 || Rounds == 14);
    const std::uint32_t* rk = key.words;
    const PairSelect sel = pair_selects(lane);
    Words4 s = xor4(block, load_words4(rk));
    WARP_UNROLL
    for (unsigned r = 1; r < Rounds; ++r)
        s = encrypt_round(t0_t2, sel, s, load_words4(rk + 4 * r));
    return encrypt_last_round(t0_t2, sel, s, load_words4(rk + 4 * Rounds));
}

// The same with the key's own round count (public), for a block outside the loops.
WARP_HD WARP_INLINE Words4 aes_encrypt_block(const std::uint32_t* t0_t2, const AesSharedKey& key,
                                             std::uint32_t lane, const Words4& block) {
    return with_rounds(key.rounds, [&](auto r) {
        return aes_encrypt_block<decltype(r)::value>(t0_t2, key, lane, block);
    });
}

// D(K, block) for a key of `Rounds` rounds, as aes_encrypt_block<Rounds>. inv_t0_t2: the
// paired InvT0, InvT2; key: the decryption schedule in the order applied (AesSharedKey).
template <unsigned Rounds>
WARP_HD WARP_INLINE Words4 aes_decrypt_block(const std::uint32_t* inv_t0_t2,
                                             const std::uint32_t* inv_sbox,
                                             const AesSharedKey& key, std::uint32_t lane,
                                             const Words4& block) {
    static_assert(Rounds == 10 || Rounds == 12 || Rounds == 14);
    const std::uint32_t* rk = key.words;
    const PairSelect sel = pair_selects(lane);
    Words4 s = xor4(block, load_words4(rk));
    WARP_UNROLL
    for (unsigned r = 1; r < Rounds; ++r)
        s = decrypt_round(inv_t0_t2, sel, s, load_words4(rk + 4 * r));
    return decrypt_last_round(inv_sbox, lane, s, load_words4(rk + 4 * Rounds));
}

// The same with the key's own round count, for the tests.
WARP_HD WARP_INLINE Words4 aes_decrypt_block(const std::uint32_t* inv_t0_t2,
                                             const std::uint32_t* inv_sbox,
                                             const AesSharedKey& key, std::uint32_t lane,
                                             const Words4& block) {
    return with_rounds(key.rounds, [&](auto r) {
        return aes_decrypt_block<decltype(r)::value>(inv_t0_t2, inv_sbox, key, lane, block);
    });
}

// Fills `key` (shared memory) from a FIPS-197 schedule (big-endian words), cooperatively:
// thread t copies word t. `reverse` stores the round keys last round first (decryption).
// The kernels' load phases call it; threads beyond the schedule's 60 words do nothing.
WARP_HD WARP_INLINE void load_round_key_word(AesSharedKey& key, const std::uint32_t* fips_words,
                                             std::uint32_t rounds, bool reverse,
                                             std::uint32_t t) {
    if (t >= 4 * (rounds + 1)) return;
    const std::uint32_t round = t / 4;
    const std::uint32_t source_round = reverse ? rounds - round : round;
    const std::uint32_t word = byte_swap32(fips_words[4 * source_round + (t & 3u)]);
    const bool middle = round != 0 && round != rounds;  // added by a full round
    key.words[t] = middle ? kernel_round_key(word) : word;
    if (t == 0) key.rounds = rounds;
}

}  // namespace warp::cuda::device
