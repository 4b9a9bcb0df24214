// Placeholder until the bitsliced AES lands: the tables exist so the engine links.
#include <stdexcept>

#include "engine/scalar/scalar.hpp"

namespace warp::scalar {
namespace {
void fail_init(void*, const std::uint8_t*, std::size_t) { throw std::logic_error("scalar AES not written yet"); }
}  // namespace
const AeadImpl kAesGcm{Aead::aes_gcm, 16, &fail_init, nullptr, nullptr};
const BlockCipherImpl kAes{16, &fail_init, nullptr, nullptr};
}  // namespace warp::scalar
