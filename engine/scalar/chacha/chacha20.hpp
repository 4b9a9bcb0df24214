// ChaCha20 as RFC 8439 section 2.3-2.4 defines it: 256-bit key, 96-bit nonce, 32-bit block
// counter. Portable and constant time (only additions, rotations and XORs on 32-bit words).
#pragma once

#include <cstddef>
#include <cstdint>

namespace warp::scalar {

inline constexpr std::size_t kChaCha20KeySize = 32;
inline constexpr std::size_t kChaCha20NonceSize = 12;
inline constexpr std::size_t kChaCha20BlockSize = 64;

// The 64-byte keystream block number `counter` (RFC 8439 2.3, "the ChaCha20 block function").
void chacha20_block(const std::uint8_t key[32], std::uint32_t counter,
                    const std::uint8_t nonce[12], std::uint8_t out[64]);

// XORs the keystream starting at block `counter` into in -> out (len bytes). out == in is
// allowed; any other overlap is not. The block counter is 32 bits and wraps modulo 2^32 after
// block 2^32 - 1; RFC 8439 forbids messages that long, and callers must not rely on the wrap.
void chacha20_xor(const std::uint8_t key[32], std::uint32_t counter,
                  const std::uint8_t nonce[12], const std::uint8_t* in, std::uint8_t* out,
                  std::size_t len);

}  // namespace warp::scalar
