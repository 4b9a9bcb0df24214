// The ARMv8 (AArch64) backend's kernels:
//   crypto/  AES-GCM and raw AES blocks with the crypto extensions (AESE/AESMC/AESD/AESIMC,
//            PMULL/PMULL2)
//   neon/    ChaCha20-Poly1305 on NEON
//   sve2/    the same with SVE2's XAR in ChaCha20's rounds
// Each pointer is null when the build does not target AArch64 (engine/arm/absent.cpp), so the
// registry lists the backends everywhere and explains why they cannot run.
#pragma once

#include "engine/aead.hpp"
#include "engine/block_cipher.hpp"

namespace warp::arm {

extern const AeadImpl* const kAesGcmCrypto;          // crypto/gcm.cpp
extern const BlockCipherImpl* const kAesCrypto;      // crypto/aes_block.cpp
extern const AeadImpl* const kChaCha20Poly1305Neon;  // neon/chacha20_poly1305.cpp
extern const AeadImpl* const kChaCha20Poly1305Sve2;  // sve2/chacha20_poly1305.cpp

}  // namespace warp::arm
