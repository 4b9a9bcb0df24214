// warp::scalar::kAes: raw multi-block AES (engine/block_cipher.hpp) on the bitsliced cipher.
#include "engine/scalar/aes/aes_bitsliced.hpp"
#include "engine/scalar/scalar.hpp"

namespace warp::scalar {
namespace {

const aes::KeySchedule& schedule(const void* state) {
    return *static_cast<const aes::KeySchedule*>(state);
}

void init(void* state, const std::uint8_t* key, std::size_t key_len) {
    aes::expand_key(*static_cast<aes::KeySchedule*>(state), key, key_len);
}

void encrypt(const void* state, const std::uint8_t* in, std::uint8_t* out, std::size_t blocks) {
    aes::encrypt_blocks(schedule(state), in, out, blocks);
}

void decrypt(const void* state, const std::uint8_t* in, std::uint8_t* out, std::size_t blocks) {
    aes::decrypt_blocks(schedule(state), in, out, blocks);
}

}  // namespace

const BlockCipherImpl kAes{sizeof(aes::KeySchedule), &init, &encrypt, &decrypt};

}  // namespace warp::scalar
