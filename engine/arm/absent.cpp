// Built instead of the kernels when the target is not AArch64: the registry still lists the
// ARM backend, unavailable, and needs no #ifdef.
#include "engine/arm/arm.hpp"

namespace warp::arm {

const AeadImpl* const kAesGcmCrypto = nullptr;
const BlockCipherImpl* const kAesCrypto = nullptr;
const AeadImpl* const kChaCha20Poly1305Neon = nullptr;
const AeadImpl* const kChaCha20Poly1305Sve2 = nullptr;

}  // namespace warp::arm
