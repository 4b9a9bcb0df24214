// Bitsliced AES-128/192/256 (FIPS 197): the key schedule and the cipher on eight blocks at a
// time, plus the multi-block ECB and CTR loops built on them. Constant time: the only
// branches depend on lengths and the round count.
#pragma once

#include <cstddef>
#include <cstdint>

#include "engine/scalar/aes/slice.hpp"

namespace warp::scalar::aes {

inline constexpr int kMaxRounds = 14;

// Expanded key, in bitsliced form, used for both directions. round_keys[r] is round key r
// replicated over the eight blocks, skewed by r mod 4 columns per row to meet the fixsliced
// state (round_functions.hpp); for r >= 1 every byte also carries the S-box constant 0x63
// that sbox_without_constant leaves out (see aes_bitsliced.cpp).
struct KeySchedule {
    Planes round_keys[kMaxRounds + 1];
    int rounds;
};

// key_len is 16, 24 or 32.
void expand_key(KeySchedule& ks, const std::uint8_t* key, std::size_t key_len);

// The cipher and its inverse on eight bitsliced blocks, in place.
void encrypt_planes(const KeySchedule& ks, Planes& q);
void decrypt_planes(const KeySchedule& ks, Planes& q);

// `blocks` 16-byte blocks from in to out (out == in allowed), any count.
void encrypt_blocks(const KeySchedule& ks, const std::uint8_t* in, std::uint8_t* out,
                    std::size_t blocks);
void decrypt_blocks(const KeySchedule& ks, const std::uint8_t* in, std::uint8_t* out,
                    std::size_t blocks);

// Counter mode as GCM uses it (SP 800-38D, GCTR): the keystream is E(cb), E(inc32(cb)), ...
// where inc32 adds one modulo 2^32 to the last four bytes (big-endian) and leaves the first
// twelve alone. out = in ^ keystream for len bytes; out == in allowed.
void ctr32_xor(const KeySchedule& ks, const std::uint8_t counter_block[16],
               const std::uint8_t* in, std::uint8_t* out, std::size_t len);

}  // namespace warp::scalar::aes
