// The ARMv8 (AArch64) backend's kernels:
//   aes/     AES-GCM and raw AES blocks with the crypto extensions (AESE/AESMC/AESD/AESIMC,
//            PMULL/PMULL2)
//   chacha/  ChaCha20-Poly1305 on NEON
// Each pointer is null when the build does not target AArch64 (engine/arm/absent.cpp), so the
// registry lists the backend everywhere and explains why it cannot run.
#pragma once

#include "engine/aead.hpp"
#include "engine/block_cipher.hpp"

namespace warp::arm {

extern const AeadImpl* const kAesGcmCrypto;          // aes/gcm.cpp
extern const BlockCipherImpl* const kAesCrypto;      // aes/aes_block.cpp
extern const AeadImpl* const kChaCha20Poly1305Neon;  // chacha/chacha20_poly1305.cpp

}  // namespace warp::arm
