// Raw AES-128/192/256 (ECB, whole blocks) behind the BlockCipherImpl table, eight blocks in
// flight, one body for every ISA of engine/aes_128bit_vector (gcm.hpp says how an ISA includes them).
// The ISA supplies RoundKeys, load, store, encrypt_blocks<n>, decrypt_blocks<n> (with the
// decryption schedule), expand_encryption_key and derive_decryption_keys.
#pragma once

#ifndef WARP_AES_VECTOR_TARGET
#error "include the ISA's aes_rounds.hpp (it defines WARP_AES_VECTOR_TARGET) before ecb.hpp"
#endif

#include <cstddef>
#include <cstdint>

#include "engine/block_cipher.hpp"

namespace warp::aes_128bit_vector {

template <typename P>
struct Ecb {
    struct State {
        typename P::RoundKeys encryption;
        typename P::RoundKeys decryption;
    };

    static void init(void* state, const std::uint8_t* key, std::size_t key_len) {
        auto& st = *static_cast<State*>(state);
        P::expand_encryption_key(st.encryption, key, key_len);
        P::derive_decryption_keys(st.encryption, st.decryption);
    }

    // Eight blocks per pass, then the rest one by one; in == out is fine because every block
    // is loaded before it is stored.
    template <bool encrypting>
    WARP_AES_VECTOR_TARGET static void run(const typename P::RoundKeys& keys, const std::uint8_t* in,
                                       std::uint8_t* out, std::size_t blocks) {
        constexpr std::size_t kWide = 8;
        for (; blocks >= kWide; blocks -= kWide, in += kWide * 16, out += kWide * 16) {
            typename P::Block group[kWide];
#pragma GCC unroll 8
            for (std::size_t b = 0; b < kWide; ++b) group[b] = P::load(in + 16 * b);
            if constexpr (encrypting) {
                P::encrypt_blocks(keys, group);
            } else {
                P::decrypt_blocks(keys, group);
            }
#pragma GCC unroll 8
            for (std::size_t b = 0; b < kWide; ++b) P::store(out + 16 * b, group[b]);
        }
        for (; blocks > 0; --blocks, in += 16, out += 16) {
            typename P::Block one[1] = {P::load(in)};
            if constexpr (encrypting) {
                P::encrypt_blocks(keys, one);
            } else {
                P::decrypt_blocks(keys, one);
            }
            P::store(out, one[0]);
        }
    }

    static void encrypt(const void* state, const std::uint8_t* in, std::uint8_t* out,
                        std::size_t blocks) {
        run<true>(static_cast<const State*>(state)->encryption, in, out, blocks);
    }

    static void decrypt(const void* state, const std::uint8_t* in, std::uint8_t* out,
                        std::size_t blocks) {
        run<false>(static_cast<const State*>(state)->decryption, in, out, blocks);
    }

    static constexpr BlockCipherImpl kTable{sizeof(State), &init, &encrypt, &decrypt};
};

}  // namespace warp::aes_128bit_vector
