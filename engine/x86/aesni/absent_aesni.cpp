// Placeholder until the AES-NI kernels land.
#include "engine/x86/x86.hpp"
namespace warp::x86 {
const AeadImpl* const kAesGcmAesni = nullptr;
const BlockCipherImpl* const kAesAesni = nullptr;
}  // namespace warp::x86
