// The 16 input words of a ChaCha20 block before its counter is set (RFC 8439 2.3): constants,
// key, nonce, all little-endian; word 12 (the counter) is filled in per call. One definition for
// every vector backend (x86-avx2, arm-neon), whose keystream functions take it.
#pragma once

#include <cstddef>
#include <cstdint>

#include "engine/scalar/chacha/little_endian.hpp"

namespace warp::scalar {

struct ChaChaInput {
    std::uint32_t word[16];
};

inline ChaChaInput chacha_input(const std::uint8_t key[32], const std::uint8_t nonce[12]) {
    ChaChaInput input{{0x61707865, 0x3320646e, 0x79622d32, 0x6b206574}};  // "expand 32-byte k"
    for (std::size_t i = 0; i < 8; ++i) input.word[4 + i] = load_le32(key + 4 * i);
    input.word[12] = 0;
    for (std::size_t i = 0; i < 3; ++i) input.word[13 + i] = load_le32(nonce + 4 * i);
    return input;
}

}  // namespace warp::scalar
