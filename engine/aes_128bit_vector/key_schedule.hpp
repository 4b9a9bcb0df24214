// AES key expansion (FIPS 197, 5.2) and the equivalent inverse cipher's schedule (5.3.5), one
// body for every ISA of engine/aes_128bit_vector (gcm.hpp says how an ISA includes them).
//
// Instead of a key-generation instruction (AES-NI's aeskeygenassist takes its round constant
// as an immediate, which forces one unrolled copy per key size; ARM has none), the expansion
// runs word by word as FIPS 197 writes it, and SubWord is the ISA's `sub_word`: one AES round
// of the word broadcast to all four columns, where ShiftRows moves nothing. No S-box table,
// so no secret-dependent memory access. The ISA supplies RoundKeys, load, sub_word and
// inverse_mix_columns.
#pragma once

#ifndef WARP_AES_VECTOR_TARGET
#error "include the ISA's aes_rounds.hpp (it defines WARP_AES_VECTOR_TARGET) before key_schedule.hpp"
#endif

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "engine/secure_memory.hpp"

namespace warp::aes_128bit_vector {

// Words are little-endian loads of the key bytes, so byte 0 of a word is its low byte and
// FIPS 197's RotWord ([a0,a1,a2,a3] -> [a1,a2,a3,a0]) is a rotation right by 8 bits.
constexpr std::uint32_t rot_word(std::uint32_t word) { return (word >> 8) | (word << 24); }

template <typename P>
WARP_AES_VECTOR_TARGET void expand_encryption_key(typename P::RoundKeys& keys, const std::uint8_t* key,
                                              std::size_t key_len) {
    const std::size_t key_words = key_len / 4;          // Nk: 4, 6 or 8
    keys.rounds = static_cast<unsigned>(key_words + 6);  // Nr: 10, 12 or 14
    const std::size_t total_words = 4 * (keys.rounds + 1);
    constexpr std::size_t kMaxRoundKeys = sizeof(P::RoundKeys::key) / 16;
    std::uint32_t words[4 * kMaxRoundKeys];
    std::memcpy(words, key, key_len);
    std::uint32_t round_constant = 1;
    for (std::size_t i = key_words; i < total_words; ++i) {
        std::uint32_t temp = words[i - 1];
        if (i % key_words == 0) {
            temp = P::sub_word(rot_word(temp)) ^ round_constant;
            // xtime in GF(2^8): 0x80 doubles to 0x1b.
            round_constant = (round_constant << 1) ^ ((round_constant >> 7) * 0x11b);
        } else if (key_words > 6 && i % key_words == 4) {
            temp = P::sub_word(temp);
        }
        words[i] = words[i - key_words] ^ temp;
    }
    for (unsigned r = 0; r <= keys.rounds; ++r)
        keys.key[r] = P::load(reinterpret_cast<const std::uint8_t*>(&words[4 * r]));
    secure_wipe(words, sizeof words);
}

// The encryption keys in reverse order, InvMixColumns applied to all but the first and last.
template <typename P>
WARP_AES_VECTOR_TARGET void derive_decryption_keys(const typename P::RoundKeys& encryption,
                                               typename P::RoundKeys& decryption) {
    const unsigned rounds = encryption.rounds;
    decryption.rounds = rounds;
    decryption.key[0] = encryption.key[rounds];
    for (unsigned r = 1; r < rounds; ++r)
        decryption.key[r] = P::inverse_mix_columns(encryption.key[rounds - r]);
    decryption.key[rounds] = encryption.key[0];
}

}  // namespace warp::aes_128bit_vector
