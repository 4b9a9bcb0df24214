// Placeholder until the VAES kernels land.
#include "engine/x86/x86.hpp"
namespace warp::x86 {
const AeadImpl* const kAesGcmVaes = nullptr;
const BlockCipherImpl* const kAesVaes = nullptr;
}  // namespace warp::x86
