// arm-sve2's ChaCha20-Poly1305: the one-pass AEAD (engine/arm/chacha20_poly1305_one_pass.hpp)
// with the SVE2 four-block ChaCha20 (chacha20_sve2.cpp: XAR for each xor-and-rotate) and the
// NEON Poly1305. The registry hands it out only where the CPU reports SVE2.
#include "engine/arm/arm.hpp"
#include "engine/arm/chacha20_poly1305_one_pass.hpp"
#include "engine/arm/sve2/chacha20_sve2.hpp"

namespace warp::arm {

const AeadImpl* const kChaCha20Poly1305Sve2 =
    &kOnePassChaCha20Poly1305<&sve2::chacha20_keystream4, &sve2::chacha20_xor>;

}  // namespace warp::arm
