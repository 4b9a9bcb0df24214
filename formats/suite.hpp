// SPEC 3: the suite byte, its names, and which engine AEAD runs it.
#pragma once

#include <cstdint>
#include <optional>

#include "engine/aead.hpp"
#include "engine/registry.hpp"
#include "formats/container.hpp"

namespace warp::formats {

constexpr bool is_known_suite(std::uint8_t byte) {
    return byte == static_cast<std::uint8_t>(Suite::aes_256_gcm) ||
           byte == static_cast<std::uint8_t>(Suite::chacha20_poly1305);
}

constexpr Aead aead_of(Suite suite) {
    return suite == Suite::aes_256_gcm ? Aead::aes_gcm : Aead::chacha20_poly1305;
}

// The implementation of the suite's AEAD: `backend`'s when given (Error(backend_unavailable)
// when it lacks the suite), else the registry's choice for messages of `bytes` bytes.
const AeadImpl& resolve_aead(const Backend* backend, Suite suite, std::uint64_t bytes);

}  // namespace warp::formats
