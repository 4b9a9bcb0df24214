// Placeholder until the AVX2 ChaCha20-Poly1305 lands.
#include "engine/x86/x86.hpp"
namespace warp::x86 {
const AeadImpl* const kChaCha20Poly1305Avx2 = nullptr;
}  // namespace warp::x86
