// warp::arm::kAesCrypto: raw AES-128/192/256 ECB with the ARMv8 crypto extensions, eight
// blocks in flight.
#include "engine/arm/crypto/aes_rounds.hpp"
#include "engine/arm/arm.hpp"

namespace warp::arm {
namespace crypto {
namespace {

struct BlockCipherState {
    RoundKeys encryption;
    RoundKeys decryption;
};

void init(void* state, const std::uint8_t* key, std::size_t key_len) {
    auto& st = *static_cast<BlockCipherState*>(state);
    expand_encryption_key(st.encryption, key, key_len);
    derive_decryption_keys(st.encryption, st.decryption);
}

// Eight blocks per pass, then the rest one by one; in == out is fine because every block is
// loaded before it is stored.
template <bool encrypting>
WARP_TARGET_ARM_CRYPTO void ecb(const RoundKeys& keys, const std::uint8_t* in, std::uint8_t* out,
                                std::size_t blocks) {
    constexpr std::size_t kWide = 8;
    for (; blocks >= kWide; blocks -= kWide, in += kWide * 16, out += kWide * 16) {
        uint8x16_t group[kWide];
#pragma GCC unroll 8
        for (std::size_t b = 0; b < kWide; ++b) group[b] = load_block(in + 16 * b);
        if constexpr (encrypting) {
            encrypt_blocks(keys, group);
        } else {
            decrypt_blocks(keys, group);
        }
#pragma GCC unroll 8
        for (std::size_t b = 0; b < kWide; ++b) store_block(out + 16 * b, group[b]);
    }
    for (; blocks > 0; --blocks, in += 16, out += 16) {
        uint8x16_t one[1] = {load_block(in)};
        if constexpr (encrypting) {
            encrypt_blocks(keys, one);
        } else {
            decrypt_blocks(keys, one);
        }
        store_block(out, one[0]);
    }
}

void encrypt(const void* state, const std::uint8_t* in, std::uint8_t* out, std::size_t blocks) {
    ecb<true>(static_cast<const BlockCipherState*>(state)->encryption, in, out, blocks);
}

void decrypt(const void* state, const std::uint8_t* in, std::uint8_t* out, std::size_t blocks) {
    ecb<false>(static_cast<const BlockCipherState*>(state)->decryption, in, out, blocks);
}

const BlockCipherImpl kTable{sizeof(BlockCipherState), &init, &encrypt, &decrypt};

}  // namespace
}  // namespace crypto

const BlockCipherImpl* const kAesCrypto = &crypto::kTable;

}  // namespace warp::arm
