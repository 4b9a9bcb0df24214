// AES key expansion for the VAES kernels (FIPS 197, 5.2 and 5.3.5).
//
// The word-by-word form of KeyExpansion serves all three key lengths with one loop; SubWord
// comes from AESKEYGENASSIST (the hardware S-box), so no table is indexed by key bytes. The
// branches below depend only on the word index, never on the key.
#include <cstring>

#include "engine/secure_memory.hpp"
#include "engine/x86/vaes/aes_vaes.hpp"

namespace warp::x86::vaes {
namespace {

constexpr int kMaxKeyWords = 4 * (kMaxRounds + 1);

struct SubstitutedWord {
    std::uint32_t sub;          // SubWord(w)
    std::uint32_t sub_rotated;  // SubWord(RotWord(w))
};

// AESKEYGENASSIST applies SubWord (and RotWord) to dwords 1 and 3 of its source; rcon 0,
// because the caller XORs the round constant itself (the immediate must be a constant).
WARP_TARGET_VAES_AVX2 SubstitutedWord substitute(std::uint32_t w) {
    const __m128i assisted =
        _mm_aeskeygenassist_si128(_mm_set_epi32(0, 0, static_cast<int>(w), 0), 0);
    return {static_cast<std::uint32_t>(_mm_extract_epi32(assisted, 0)),
            static_cast<std::uint32_t>(_mm_extract_epi32(assisted, 1))};
}

WARP_TARGET_VAES_AVX2 void store_broadcast(std::uint8_t dst[32], __m128i round_key) {
    _mm256_store_si256(reinterpret_cast<__m256i*>(dst), _mm256_broadcastsi128_si256(round_key));
}

}  // namespace

WARP_TARGET_VAES_AVX2 void expand_encryption_key(RoundKeys& enc, const std::uint8_t* key,
                                                 std::size_t key_len) {
    const int nk = static_cast<int>(key_len / 4);
    enc.rounds = nk + 6;
    const int total_words = 4 * (enc.rounds + 1);

    // Words are little-endian loads of the key bytes: the byte order AES-NI keeps its state in.
    std::uint32_t w[kMaxKeyWords];
    std::memcpy(w, key, key_len);
    std::uint32_t rcon = 1;
    for (int i = nk; i < total_words; ++i) {
        std::uint32_t t = w[i - 1];
        if (i % nk == 0) {
            t = substitute(t).sub_rotated ^ rcon;
            rcon = (rcon << 1) ^ ((rcon >> 7) * 0x11b);  // xtime in GF(2^8)
        } else if (nk > 6 && i % nk == 4) {
            t = substitute(t).sub;
        }
        w[i] = w[i - nk] ^ t;
    }
    for (int r = 0; r <= enc.rounds; ++r)
        store_broadcast(enc.keys[r], _mm_loadu_si128(reinterpret_cast<const __m128i*>(&w[4 * r])));
    secure_wipe(w, sizeof w);
}

WARP_TARGET_VAES_AVX2 void derive_decryption_key(RoundKeys& dec, const RoundKeys& enc) {
    const int rounds = enc.rounds;
    dec.rounds = rounds;
    store_broadcast(dec.keys[0], round_key128(enc, rounds));
    for (int r = 1; r < rounds; ++r)
        store_broadcast(dec.keys[r], _mm_aesimc_si128(round_key128(enc, rounds - r)));
    store_broadcast(dec.keys[rounds], round_key128(enc, 0));
}

}  // namespace warp::x86::vaes
