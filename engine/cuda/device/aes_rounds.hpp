// One AES block, encrypted or decrypted with the lane-replicated tables of aes_tables.hpp and
// round keys in shared memory: the inner loop of both kernels (and, on lane 0, of E(K, J0)).
//
// A round is written out column by column: for encryption, column c of the next state is
//     T0[s_c row 0] ^ rotl(T0[s_{c+1} row 1], 8) ^ rotl(T0[s_{c+2} row 2], 16)
//                   ^ rotl(T0[s_{c+3} row 3], 24) ^ k_c
// (SubBytes, ShiftRows and MixColumns in four lookups), and for decryption the same with InvT0
// and columns c-1, c-2, c-3 (InvShiftRows shifts the other way). The first nine rounds are
// unrolled with constant round-key offsets; AES-192 and AES-256 add two or four more under a
// branch on the round count, which is public (the key's length) and the same for every thread.
#pragma once

#include <cstdint>

#include "engine/cuda/device/aes_tables.hpp"
#include "engine/cuda/device/portability.hpp"

namespace warp::cuda::device {

inline constexpr std::uint32_t kAesMaxRounds = 14;

// Round keys as the kernels keep them in shared memory: rounds + 1 groups of four column words
// (row 0 in the low byte, like the state), in the order the direction applies them: for
// decryption, FIPS-197's dw[Nr], dw[Nr-1], ..., dw[0] (the equivalent inverse cipher's keys).
// 16-byte aligned so that every group is one broadcast 128-bit load.
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

WARP_HD WARP_INLINE Words4 encrypt_round(const std::uint32_t* t0, std::uint32_t lane,
                                         const Words4& s, const Words4& k) {
    const std::uint32_t lane_bytes = lane * 4;
    Words4 next{};
    WARP_UNROLL
    for (unsigned c = 0; c < 4; ++c)
        next.w[c] = row_lookup(t0, s.w[c], 0, lane_bytes) ^
                    rotl32(row_lookup(t0, s.w[(c + 1) & 3], 1, lane_bytes), 8) ^
                    rotl32(row_lookup(t0, s.w[(c + 2) & 3], 2, lane_bytes), 16) ^
                    rotl32(row_lookup(t0, s.w[(c + 3) & 3], 3, lane_bytes), 24) ^ k.w[c];
    return next;
}

// SubBytes and ShiftRows only: S[x] is byte 1 and byte 2 of T0[x], masked into place.
WARP_HD WARP_INLINE Words4 encrypt_last_round(const std::uint32_t* t0, std::uint32_t lane,
                                              const Words4& s, const Words4& k) {
    const std::uint32_t lane_bytes = lane * 4;
    Words4 out{};
    WARP_UNROLL
    for (unsigned c = 0; c < 4; ++c)
        out.w[c] = ((row_lookup(t0, s.w[c], 0, lane_bytes) >> 8) & 0x000000ffu) ^
                   (row_lookup(t0, s.w[(c + 1) & 3], 1, lane_bytes) & 0x0000ff00u) ^
                   (row_lookup(t0, s.w[(c + 2) & 3], 2, lane_bytes) & 0x00ff0000u) ^
                   ((row_lookup(t0, s.w[(c + 3) & 3], 3, lane_bytes) << 16) & 0xff000000u) ^
                   k.w[c];
    return out;
}

WARP_HD WARP_INLINE Words4 decrypt_round(const std::uint32_t* inv_t0, std::uint32_t lane,
                                         const Words4& s, const Words4& k) {
    const std::uint32_t lane_bytes = lane * 4;
    Words4 next{};
    WARP_UNROLL
    for (unsigned c = 0; c < 4; ++c)
        next.w[c] = row_lookup(inv_t0, s.w[c], 0, lane_bytes) ^
                    rotl32(row_lookup(inv_t0, s.w[(c + 3) & 3], 1, lane_bytes), 8) ^
                    rotl32(row_lookup(inv_t0, s.w[(c + 2) & 3], 2, lane_bytes), 16) ^
                    rotl32(row_lookup(inv_t0, s.w[(c + 1) & 3], 3, lane_bytes), 24) ^
                    k.w[c];
    return next;
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

// E(K, block). t0: the replicated T0 (kAesTableWords words); key: the encryption schedule.
WARP_HD WARP_INLINE Words4 aes_encrypt_block(const std::uint32_t* t0, const AesSharedKey& key,
                                             std::uint32_t lane, const Words4& block) {
    const std::uint32_t* rk = key.words;
    Words4 s = xor4(block, load_words4(rk));
    WARP_UNROLL
    for (unsigned r = 1; r < 10; ++r) s = encrypt_round(t0, lane, s, load_words4(rk + 4 * r));
    if (key.rounds > 10) {
        s = encrypt_round(t0, lane, s, load_words4(rk + 40));
        s = encrypt_round(t0, lane, s, load_words4(rk + 44));
    }
    if (key.rounds > 12) {
        s = encrypt_round(t0, lane, s, load_words4(rk + 48));
        s = encrypt_round(t0, lane, s, load_words4(rk + 52));
    }
    return encrypt_last_round(t0, lane, s, load_words4(rk + 4 * key.rounds));
}

// D(K, block). key: the decryption schedule in the order applied (AesSharedKey).
WARP_HD WARP_INLINE Words4 aes_decrypt_block(const std::uint32_t* inv_t0,
                                             const std::uint32_t* inv_sbox,
                                             const AesSharedKey& key, std::uint32_t lane,
                                             const Words4& block) {
    const std::uint32_t* rk = key.words;
    Words4 s = xor4(block, load_words4(rk));
    WARP_UNROLL
    for (unsigned r = 1; r < 10; ++r) s = decrypt_round(inv_t0, lane, s, load_words4(rk + 4 * r));
    if (key.rounds > 10) {
        s = decrypt_round(inv_t0, lane, s, load_words4(rk + 40));
        s = decrypt_round(inv_t0, lane, s, load_words4(rk + 44));
    }
    if (key.rounds > 12) {
        s = decrypt_round(inv_t0, lane, s, load_words4(rk + 48));
        s = decrypt_round(inv_t0, lane, s, load_words4(rk + 52));
    }
    return decrypt_last_round(inv_sbox, lane, s, load_words4(rk + 4 * key.rounds));
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
    key.words[t] = byte_swap32(fips_words[4 * source_round + (t & 3u)]);
    if (t == 0) key.rounds = rounds;
}

}  // namespace warp::cuda::device
