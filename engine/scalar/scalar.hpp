// The portable, constant-time backend: no secret-dependent branch or memory index anywhere
// (bitsliced AES, carry-less multiply by integer multiplication with holes, ChaCha20 and
// Poly1305 on plain integers). Built on every platform; the reference the others are
// checked against.
#pragma once

#include "engine/aead.hpp"
#include "engine/block_cipher.hpp"

namespace warp::scalar {

extern const AeadImpl kAesGcm;            // engine/scalar/aes/gcm.cpp
extern const BlockCipherImpl kAes;        // engine/scalar/aes/aes_block.cpp
extern const AeadImpl kChaCha20Poly1305;  // engine/scalar/chacha/chacha20_poly1305.cpp

}  // namespace warp::scalar
