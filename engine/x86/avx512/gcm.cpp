// warp::x86::kAesGcmAvx512: AES-GCM on VAES + VPCLMULQDQ with 512-bit vectors (AVX512F/BW/VL),
// the width-generic driver (vaes/gcm_driver.hpp) instantiated with vector512.hpp's Zmm: four
// blocks per vector, 32 per step, one GHASH reduction per 512 bytes.
#include "engine/x86/avx512/vector512.hpp"
#include "engine/x86/isa.hpp"
#include "engine/x86/x86.hpp"

#define WARP_VAES_TARGET WARP_TARGET_VAES_AVX512
#include "engine/x86/vaes/gcm_driver.hpp"

namespace warp::x86 {

const AeadImpl* const kAesGcmAvx512 = &vaes::kTable<vaes::Zmm>;

}  // namespace warp::x86
