// Placeholder until the ChaCha20-Poly1305 lands: the tables exist so the engine links.
#include <stdexcept>

#include "engine/scalar/scalar.hpp"

namespace warp::scalar {
namespace {
void fail_init(void*, const std::uint8_t*, std::size_t) { throw std::logic_error("scalar ChaCha20-Poly1305 not written yet"); }
}  // namespace
const AeadImpl kChaCha20Poly1305{Aead::chacha20_poly1305, 16, &fail_init, nullptr, nullptr};
}  // namespace warp::scalar
