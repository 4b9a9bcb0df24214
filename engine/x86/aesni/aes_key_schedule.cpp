// AES key expansion with AES-NI: engine/aes_128bit_vector/key_schedule.hpp built from AesPrimitives
// (SubWord is one aesenclast, InvMixColumns one aesimc).
#include "engine/x86/aesni/aes_rounds.hpp"
#include "engine/aes_128bit_vector/key_schedule.hpp"

namespace warp::x86::aesni {

void expand_encryption_key(RoundKeys& keys, const std::uint8_t* key, std::size_t key_len) {
    aes_128bit_vector::expand_encryption_key<AesPrimitives>(keys, key, key_len);
}

void derive_decryption_keys(const RoundKeys& encryption, RoundKeys& decryption) {
    aes_128bit_vector::derive_decryption_keys<AesPrimitives>(encryption, decryption);
}

}  // namespace warp::x86::aesni
