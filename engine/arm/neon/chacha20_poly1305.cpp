// arm-neon's ChaCha20-Poly1305: the one-pass AEAD (engine/arm/chacha20_poly1305_one_pass.hpp)
// with the base-NEON four-block ChaCha20 (chacha20_neon.cpp) and the NEON Poly1305.
#include "engine/arm/arm.hpp"
#include "engine/arm/chacha20_poly1305_one_pass.hpp"
#include "engine/arm/neon/chacha20_neon.hpp"

namespace warp::arm {

const AeadImpl* const kChaCha20Poly1305Neon =
    &kOnePassChaCha20Poly1305<&neon::chacha20_keystream4, &neon::chacha20_xor>;

}  // namespace warp::arm
