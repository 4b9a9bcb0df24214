// The x86-64 backend's kernels, one folder per instruction set:
//   aesni/  AES-NI + PCLMULQDQ on 128-bit registers (every x86-64 CPU since ~2010)
//   vaes/   VAES + VPCLMULQDQ on 256-bit registers (AVX2; Zen 3+, Ice Lake+)
//   avx2/   ChaCha20-Poly1305 on 256-bit registers
//   avx512/ AES-GCM on VAES + VPCLMULQDQ with 512-bit registers (AVX-512; Zen 4+, Ice Lake+),
//           the vaes/ driver at the other width; ChaCha20-Poly1305 on 512-bit registers with
//           Poly1305 on IFMA, the avx2/ driver with a wider step
// Each pointer is null when the build does not target x86-64 (engine/x86/absent.cpp), so the
// registry lists the variants everywhere and explains why they cannot run.
#pragma once

#include "engine/aead.hpp"
#include "engine/block_cipher.hpp"

namespace warp::x86 {

extern const AeadImpl* const kAesGcmAesni;            // aesni/gcm.cpp
extern const BlockCipherImpl* const kAesAesni;        // aesni/aes_block.cpp
extern const AeadImpl* const kAesGcmVaes;             // vaes/gcm.cpp
extern const BlockCipherImpl* const kAesVaes;         // vaes/aes_block.cpp
extern const AeadImpl* const kChaCha20Poly1305Avx2;   // avx2/chacha20_poly1305.cpp
extern const AeadImpl* const kAesGcmAvx512;           // avx512/gcm.cpp
extern const AeadImpl* const kChaCha20Poly1305Avx512; // avx512/chacha20_poly1305.cpp

}  // namespace warp::x86
