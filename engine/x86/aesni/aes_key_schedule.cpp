// AES key expansion with AES-NI. Instead of aeskeygenassist (whose round constant must be an
// immediate, which forces one unrolled copy per key size), the expansion runs word by word as
// FIPS 197 writes it, and SubWord is one aesenclast: with the word broadcast to all four
// columns, ShiftRows moves nothing, so aesenclast(w,w,w,w ; 0) = SubBytes(w) in every column.
// No table, so no secret-dependent memory access.
#include <cstring>

#include "engine/secure_memory.hpp"
#include "engine/x86/aesni/aes_rounds.hpp"

namespace warp::x86::aesni {
namespace {

WARP_TARGET_AESNI std::uint32_t sub_word(std::uint32_t word) {
    const __m128i broadcast = _mm_set1_epi32(static_cast<int>(word));
    return static_cast<std::uint32_t>(
        _mm_cvtsi128_si32(_mm_aesenclast_si128(broadcast, _mm_setzero_si128())));
}

// Words are little-endian loads of the key bytes, so byte 0 of a word is its low byte and
// FIPS 197's RotWord ([a0,a1,a2,a3] -> [a1,a2,a3,a0]) is a rotation right by 8 bits.
constexpr std::uint32_t rot_word(std::uint32_t word) { return (word >> 8) | (word << 24); }

}  // namespace

WARP_TARGET_AESNI void expand_encryption_key(RoundKeys& keys, const std::uint8_t* key,
                                             std::size_t key_len) {
    const std::size_t key_words = key_len / 4;                   // Nk: 4, 6 or 8
    keys.rounds = static_cast<unsigned>(key_words + 6);           // Nr: 10, 12 or 14
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
        keys.key[r] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(&words[4 * r]));
    }
    secure_wipe(words, sizeof words);
}

WARP_TARGET_AESNI void derive_decryption_keys(const RoundKeys& encryption, RoundKeys& decryption) {
    const unsigned rounds = encryption.rounds;
    decryption.rounds = rounds;
    decryption.key[0] = encryption.key[rounds];
    for (unsigned r = 1; r < rounds; ++r) {
        decryption.key[r] = _mm_aesimc_si128(encryption.key[rounds - r]);
    }
    decryption.key[rounds] = encryption.key[0];
}

}  // namespace warp::x86::aesni
