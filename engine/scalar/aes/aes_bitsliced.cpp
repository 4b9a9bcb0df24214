#include "engine/scalar/aes/aes_bitsliced.hpp"

#include <cstring>

#include "engine/scalar/aes/round_functions.hpp"
#include "engine/scalar/aes/sbox_circuit.hpp"
#include "engine/secure_memory.hpp"

namespace warp::scalar::aes {
namespace {

// The S-box constant, in every byte of a round key: sbox_without_constant leaves it out, and
// since ShiftRows and MixColumns (and InvMixColumns: 14 + 11 + 13 + 9 = 1) map a state whose
// bytes are all c to itself, XORing it into round keys 1..Nr restores it exactly.
// Decryption uses the same keys: the inverse S-box wants y ^ 0x63 (sbox_circuit.hpp), which
// is what the same folding hands it.
constexpr std::uint8_t kSboxConstant = 0x63;

// SubWord (FIPS 197, 5.2) through the circuit: each byte is one lane of a 32-bit plane.
std::uint32_t sub_word(std::uint32_t w) {
    std::uint32_t planes[8];
    for (int b = 0; b < 8; ++b) planes[b] = (w >> b) & 0x01010101u;
    sbox_without_constant(planes);
    std::uint32_t out = 0;
    for (int b = 0; b < 8; ++b) out |= (planes[b] & 0x01010101u) << b;
    secure_wipe(planes, sizeof planes);
    return out ^ 0x63636363u;
}

std::uint32_t load_le32(const std::uint8_t* p) {
    return std::uint32_t{p[0]} | std::uint32_t{p[1]} << 8 | std::uint32_t{p[2]} << 16 |
           std::uint32_t{p[3]} << 24;
}

void store_le32(std::uint8_t* p, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) p[i] = static_cast<std::uint8_t>(v >> (8 * i));
}

void store_be32(std::uint8_t* p, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) p[i] = static_cast<std::uint8_t>(v >> (24 - 8 * i));
}

std::uint32_t load_be32(const std::uint8_t* p) {
    return std::uint32_t{p[0]} << 24 | std::uint32_t{p[1]} << 16 | std::uint32_t{p[2]} << 8 |
           std::uint32_t{p[3]};
}

// The round keys in words w[i] (FIPS 197, 5.2), with byte 0 of each word in its low bits so
// that RotWord is a rotation right by 8 and Rcon lands in the low byte.
void expand_words(const std::uint8_t* key, std::size_t key_len, std::uint32_t* w, int rounds) {
    const int nk = static_cast<int>(key_len / 4);
    const int total = 4 * (rounds + 1);
    for (int i = 0; i < nk; ++i) w[i] = load_le32(key + 4 * i);
    std::uint32_t rcon = 1;  // public, so computing it with a branch is fine
    for (int i = nk; i < total; ++i) {
        std::uint32_t t = w[i - 1];
        if (i % nk == 0) {
            t = sub_word((t >> 8) | (t << 24)) ^ rcon;
            rcon = (rcon << 1) ^ ((rcon & 0x80) != 0 ? 0x11b : 0);
        } else if (nk > 6 && i % nk == 4) {
            t = sub_word(t);
        }
        w[i] = w[i - nk] ^ t;
    }
}

template <class Cipher>
void blocks_loop(const KeySchedule& ks, const std::uint8_t* in, std::uint8_t* out,
                 std::size_t blocks, Cipher cipher) {
    Planes q;
    for (; blocks >= kBlocksPerSlice; blocks -= kBlocksPerSlice) {
        load_planes(in, q);
        cipher(ks, q);
        store_planes(q, out);
        in += kSliceBytes;
        out += kSliceBytes;
    }
    if (blocks == 0) return;
    std::uint8_t tail[kSliceBytes] = {};
    std::memcpy(tail, in, blocks * 16);
    load_planes(tail, q);
    cipher(ks, q);
    store_planes(q, tail);
    std::memcpy(out, tail, blocks * 16);
    secure_wipe(tail, sizeof tail);
}

// The stored form of a round key for a state of the given skew: S[row][col] =
// T[row][col - skew * row], where byte 4*col + row of a block is state byte (row, col).
void skew_bytes(const std::uint8_t (&in)[16], std::uint8_t (&out)[16], int skew) {
    for (int col = 0; col < 4; ++col)
        for (int row = 0; row < 4; ++row)
            out[4 * col + row] = in[4 * ((col - skew * row + 16) % 4) + row];
}

}  // namespace

void expand_key(KeySchedule& ks, const std::uint8_t* key, std::size_t key_len) {
    ks.rounds = static_cast<int>(key_len / 4) + 6;
    std::uint32_t words[4 * (kMaxRounds + 1)];
    expand_words(key, key_len, words, ks.rounds);

    std::uint8_t copies[kSliceBytes];
    for (int r = 0; r <= ks.rounds; ++r) {
        std::uint8_t round_key[16];
        for (int i = 0; i < 4; ++i) store_le32(round_key + 4 * i, words[4 * r + i]);
        if (r > 0)
            for (std::uint8_t& byte : round_key) byte ^= kSboxConstant;
        std::uint8_t skewed[16];
        skew_bytes(round_key, skewed, r % 4);
        for (std::size_t k = 0; k < kBlocksPerSlice; ++k) std::memcpy(copies + 16 * k, skewed, 16);
        secure_wipe(skewed, sizeof skewed);
        load_planes(copies, ks.round_keys[r]);
        secure_wipe(round_key, sizeof round_key);
    }
    // Unused rounds (AES-128/192) stay zero so that the state never holds stale data.
    for (int r = ks.rounds + 1; r <= kMaxRounds; ++r)
        for (Slice& plane : ks.round_keys[r]) plane = Slice{0, 0};
    secure_wipe(words, sizeof words);
    secure_wipe(copies, sizeof copies);
}

// Round r runs with skew r mod 4 (round_functions.hpp). The switches select one of four
// inlined copies of the round; they branch on the round number only.
template <int skew>
[[gnu::always_inline]] inline void encrypt_round(Planes& q, const Planes& round_key) {
    sbox_without_constant(q);
    mix_columns<skew>(q);
    add_round_key(q, round_key);
}

template <int skew>
[[gnu::always_inline]] inline void decrypt_round(Planes& q, const Planes& round_key) {
    inverse_sbox_of_shifted(q);
    add_round_key(q, round_key);
    inverse_mix_columns<skew>(q);
}

void encrypt_planes(const KeySchedule& ks, Planes& q) {
    add_round_key(q, ks.round_keys[0]);
    for (int r = 1; r < ks.rounds; ++r) {
        switch (r % 4) {
            case 0: encrypt_round<0>(q, ks.round_keys[r]); break;
            case 1: encrypt_round<1>(q, ks.round_keys[r]); break;
            case 2: encrypt_round<2>(q, ks.round_keys[r]); break;
            default: encrypt_round<3>(q, ks.round_keys[r]); break;
        }
    }
    sbox_without_constant(q);
    add_round_key(q, ks.round_keys[ks.rounds]);
    // Undo the skew left after the last round: rounds is 10, 12 or 14, so it is 2 or 0.
    if (ks.rounds % 4 == 2) shift_rows_twice(q);
}

// The inverse cipher (FIPS 197, 5.3) with the same skewed keys: the state is skewed to match
// round key Nr first; each omitted InvShiftRows then lowers the skew by one, so round r again
// meets skew r mod 4 and round key 0 meets none.
void decrypt_planes(const KeySchedule& ks, Planes& q) {
    if (ks.rounds % 4 == 2) shift_rows_twice(q);  // InvShiftRows^2 = ShiftRows^2
    add_round_key(q, ks.round_keys[ks.rounds]);
    for (int r = ks.rounds - 1; r >= 1; --r) {
        switch (r % 4) {
            case 0: decrypt_round<0>(q, ks.round_keys[r]); break;
            case 1: decrypt_round<1>(q, ks.round_keys[r]); break;
            case 2: decrypt_round<2>(q, ks.round_keys[r]); break;
            default: decrypt_round<3>(q, ks.round_keys[r]); break;
        }
    }
    inverse_sbox_of_shifted(q);
    add_round_key(q, ks.round_keys[0]);
}

void encrypt_blocks(const KeySchedule& ks, const std::uint8_t* in, std::uint8_t* out,
                    std::size_t blocks) {
    blocks_loop(ks, in, out, blocks, &encrypt_planes);
}

void decrypt_blocks(const KeySchedule& ks, const std::uint8_t* in, std::uint8_t* out,
                    std::size_t blocks) {
    blocks_loop(ks, in, out, blocks, &decrypt_planes);
}

void ctr32_xor(const KeySchedule& ks, const std::uint8_t counter_block[16],
               const std::uint8_t* in, std::uint8_t* out, std::size_t len) {
    if (len == 0) return;
    // Eight counter blocks; only their last four bytes change from one batch to the next.
    std::uint8_t counters[kSliceBytes];
    for (std::size_t k = 0; k < kBlocksPerSlice; ++k)
        std::memcpy(counters + 16 * k, counter_block, 12);
    std::uint32_t counter = load_be32(counter_block + 12);

    Planes q;
    for (;;) {
        for (std::size_t k = 0; k < kBlocksPerSlice; ++k)
            store_be32(counters + 16 * k + 12, counter + static_cast<std::uint32_t>(k));
        counter += static_cast<std::uint32_t>(kBlocksPerSlice);  // wraps modulo 2^32
        load_planes(counters, q);
        encrypt_planes(ks, q);
        if (len < kSliceBytes) break;
        xor_planes_into(q, in, out);
        in += kSliceBytes;
        out += kSliceBytes;
        len -= kSliceBytes;
        if (len == 0) return;
    }
    // The last, partial batch goes through a buffer.
    std::uint8_t keystream[kSliceBytes];
    store_planes(q, keystream);
    for (std::size_t i = 0; i < len; ++i) out[i] = static_cast<std::uint8_t>(in[i] ^ keystream[i]);
    secure_wipe(keystream, sizeof keystream);
}

}  // namespace warp::scalar::aes
