// warp::x86::kAesGcmVaes: AES-GCM on VAES + VPCLMULQDQ with 256-bit vectors (AVX2), the
// width-generic driver (gcm_driver.hpp) instantiated with vector256.hpp's Ymm.
#include "engine/x86/isa.hpp"
#include "engine/x86/vaes/vector256.hpp"
#include "engine/x86/x86.hpp"

#define WARP_VAES_TARGET WARP_TARGET_VAES_AVX2
#include "engine/x86/vaes/gcm_driver.hpp"

namespace warp::x86 {

const AeadImpl* const kAesGcmVaes = &vaes::kTable<vaes::Ymm>;

}  // namespace warp::x86
