// Built instead of the kernels when the target is not x86-64: the registry still lists the x86
// variants, unavailable, and needs no #ifdef.
#include "engine/x86/x86.hpp"

namespace warp::x86 {

const AeadImpl* const kAesGcmAesni = nullptr;
const BlockCipherImpl* const kAesAesni = nullptr;
const AeadImpl* const kAesGcmVaes = nullptr;
const BlockCipherImpl* const kAesVaes = nullptr;
const AeadImpl* const kChaCha20Poly1305Avx2 = nullptr;
const AeadImpl* const kAesGcmAvx512 = nullptr;
const AeadImpl* const kChaCha20Poly1305Avx512 = nullptr;

}  // namespace warp::x86
