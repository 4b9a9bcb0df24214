// warp::x86::kAesVaes: multi-block AES-ECB on VAES, 16 blocks (eight 256-bit vectors) per
// step so that both AES units always have independent work in flight.
#include "engine/secure_memory.hpp"
#include "engine/x86/vaes/aes_vaes.hpp"
#include "engine/x86/x86.hpp"

namespace warp::x86 {
namespace vaes {
namespace {

struct BlockState {
    RoundKeys enc;
    RoundKeys dec;  // Equivalent Inverse Cipher schedule
};

constexpr int kVectorsPerStep = 8;
constexpr std::size_t kBlocksPerStep = 2 * kVectorsPerStep;

template <bool Decrypt>
WARP_TARGET_VAES_AVX2 inline __m256i round256(__m256i v, __m256i rk) {
    return Decrypt ? _mm256_aesdec_epi128(v, rk) : _mm256_aesenc_epi128(v, rk);
}
template <bool Decrypt>
WARP_TARGET_VAES_AVX2 inline __m256i last_round256(__m256i v, __m256i rk) {
    return Decrypt ? _mm256_aesdeclast_epi128(v, rk) : _mm256_aesenclast_epi128(v, rk);
}

// N vectors (2N blocks) through every round.
template <int Rounds, bool Decrypt, int N>
WARP_TARGET_VAES_AVX2 inline void crypt_vectors(const RoundKeys& k, const std::uint8_t* in,
                                                std::uint8_t* out) {
    __m256i v[N];
    const __m256i rk0 = round_key256(k, 0);
#pragma GCC unroll 16
    for (int j = 0; j < N; ++j)
        v[j] = _mm256_xor_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + 32 * j)),
                                rk0);
#pragma GCC unroll 16
    for (int r = 1; r < Rounds; ++r) {
        const __m256i rk = round_key256(k, r);
#pragma GCC unroll 16
        for (int j = 0; j < N; ++j) v[j] = round256<Decrypt>(v[j], rk);
    }
    const __m256i rk_last = round_key256(k, Rounds);
#pragma GCC unroll 16
    for (int j = 0; j < N; ++j)
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 32 * j),
                            last_round256<Decrypt>(v[j], rk_last));
}

template <int Rounds, bool Decrypt>
WARP_TARGET_VAES_AVX2 void crypt_blocks(const RoundKeys& k, const std::uint8_t* in,
                                        std::uint8_t* out, std::size_t blocks) {
    for (; blocks >= kBlocksPerStep; blocks -= kBlocksPerStep) {
        crypt_vectors<Rounds, Decrypt, kVectorsPerStep>(k, in, out);
        in += kBlocksPerStep * kAesBlockSize;
        out += kBlocksPerStep * kAesBlockSize;
    }
    for (; blocks >= 2; blocks -= 2) {
        crypt_vectors<Rounds, Decrypt, 1>(k, in, out);
        in += 2 * kAesBlockSize;
        out += 2 * kAesBlockSize;
    }
    if (blocks == 0) return;
    __m128i b = _mm_xor_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(in)),
                              round_key128(k, 0));
#pragma GCC unroll 16
    for (int r = 1; r < Rounds; ++r)
        b = Decrypt ? _mm_aesdec_si128(b, round_key128(k, r)) : _mm_aesenc_si128(b, round_key128(k, r));
    b = Decrypt ? _mm_aesdeclast_si128(b, round_key128(k, Rounds))
                : _mm_aesenclast_si128(b, round_key128(k, Rounds));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out), b);
}

template <bool Decrypt>
void crypt(const RoundKeys& k, const std::uint8_t* in, std::uint8_t* out, std::size_t blocks) {
    switch (k.rounds) {
        case 10: crypt_blocks<10, Decrypt>(k, in, out, blocks); break;
        case 12: crypt_blocks<12, Decrypt>(k, in, out, blocks); break;
        default: crypt_blocks<14, Decrypt>(k, in, out, blocks); break;
    }
}

void init(void* state, const std::uint8_t* key, std::size_t key_len) {
    auto& st = *static_cast<BlockState*>(state);
    expand_encryption_key(st.enc, key, key_len);
    derive_decryption_key(st.dec, st.enc);
}

void encrypt(const void* state, const std::uint8_t* in, std::uint8_t* out, std::size_t blocks) {
    crypt<false>(static_cast<const BlockState*>(state)->enc, in, out, blocks);
}

void decrypt(const void* state, const std::uint8_t* in, std::uint8_t* out, std::size_t blocks) {
    crypt<true>(static_cast<const BlockState*>(state)->dec, in, out, blocks);
}

constexpr BlockCipherImpl kTable{sizeof(BlockState), &init, &encrypt, &decrypt};

}  // namespace
}  // namespace vaes

const BlockCipherImpl* const kAesVaes = &vaes::kTable;

}  // namespace warp::x86
