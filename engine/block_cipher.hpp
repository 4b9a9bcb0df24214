// Raw AES block entry points: multi-block ECB encrypt/decrypt for the benchmarks and the ACVP
// harness (ECB, CTR). Same table style as aead.hpp.
#pragma once

#include <cstddef>
#include <cstdint>

namespace warp {

inline constexpr std::size_t kAesBlockSize = 16;

// - state_size: bytes of key state (encryption and decryption schedules), aligned to
//   kStateAlignment by the caller and wiped by it after use.
// - init: key_len is 16, 24 or 32.
// - encrypt/decrypt: `blocks` 16-byte blocks from in to out; out == in allowed, no other
//   overlap. Thread-safe on a shared state.
struct BlockCipherImpl {
    std::size_t state_size;
    void (*init)(void* state, const std::uint8_t* key, std::size_t key_len);
    void (*encrypt)(const void* state, const std::uint8_t* in, std::uint8_t* out,
                    std::size_t blocks);
    void (*decrypt)(const void* state, const std::uint8_t* in, std::uint8_t* out,
                    std::size_t blocks);
};

}  // namespace warp
