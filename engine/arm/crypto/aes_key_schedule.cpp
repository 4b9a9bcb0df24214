// AES key expansion with the ARMv8 crypto extensions, word by word as FIPS 197 writes it.
// SubWord is one AESE with a zero round key: with the word broadcast to all four columns,
// ShiftRows moves nothing, so AESE(w,w,w,w ; 0) = SubBytes(w) in every column. No S-box
// table, so no secret-dependent memory access.
#include <cstring>

#include "engine/arm/crypto/aes_rounds.hpp"
#include "engine/secure_memory.hpp"

namespace warp::arm::crypto {
namespace {

WARP_TARGET_ARM_CRYPTO std::uint32_t sub_word(std::uint32_t word) {
    const uint8x16_t broadcast = vreinterpretq_u8_u32(vdupq_n_u32(word));
    return vgetq_lane_u32(vreinterpretq_u32_u8(vaeseq_u8(broadcast, vdupq_n_u8(0))), 0);
}

// Words are little-endian loads of the key bytes, so byte 0 of a word is its low byte and
// FIPS 197's RotWord ([a0,a1,a2,a3] -> [a1,a2,a3,a0]) is a rotation right by 8 bits.
constexpr std::uint32_t rot_word(std::uint32_t word) { return (word >> 8) | (word << 24); }

}  // namespace

WARP_TARGET_ARM_CRYPTO void expand_encryption_key(RoundKeys& keys, const std::uint8_t* key,
                                                  std::size_t key_len) {
    const std::size_t key_words = key_len / 4;          // Nk: 4, 6 or 8
    keys.rounds = static_cast<unsigned>(key_words + 6);  // Nr: 10, 12 or 14
    const std::size_t total_words = 4 * (keys.rounds + 1);
    std::uint32_t words[4 * (kMaxRounds + 1)];
    std::memcpy(words, key, key_len);
    std::uint32_t round_constant = 1;
    for (std::size_t i = key_words; i < total_words; ++i) {
        std::uint32_t temp = words[i - 1];
        if (i % key_words == 0) {
            temp = sub_word(rot_word(temp)) ^ round_constant;
            // xtime in GF(2^8): 0x80 doubles to 0x1b.
            round_constant = (round_constant << 1) ^ ((round_constant >> 7) * 0x11b);
        } else if (key_words > 6 && i % key_words == 4) {
            temp = sub_word(temp);
        }
        words[i] = words[i - key_words] ^ temp;
    }
    for (unsigned r = 0; r <= keys.rounds; ++r) {
        keys.key[r] = vreinterpretq_u8_u32(vld1q_u32(&words[4 * r]));
    }
    secure_wipe(words, sizeof words);
}

WARP_TARGET_ARM_CRYPTO void derive_decryption_keys(const RoundKeys& encryption,
                                                   RoundKeys& decryption) {
    const unsigned rounds = encryption.rounds;
    decryption.rounds = rounds;
    decryption.key[0] = encryption.key[rounds];
    for (unsigned r = 1; r < rounds; ++r) {
        decryption.key[r] = vaesimcq_u8(encryption.key[rounds - r]);
    }
    decryption.key[rounds] = encryption.key[0];
}

}  // namespace warp::arm::crypto
