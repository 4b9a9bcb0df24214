// SPEC 3: the suite byte and the engine AEAD that runs it (its name is the cipher's,
// formats/ciphers.hpp).
#pragma once

#include <cstdint>
#include <optional>

#include "engine/aead.hpp"
#include "formats/ciphers.hpp"

namespace warp::formats::warp_format {

enum class Suite : std::uint8_t { aes_256_gcm = 1, chacha20_poly1305 = 2 };

constexpr bool is_known_suite(std::uint8_t byte) {
    return byte == static_cast<std::uint8_t>(Suite::aes_256_gcm) ||
           byte == static_cast<std::uint8_t>(Suite::chacha20_poly1305);
}

constexpr Aead aead_of(Suite suite) {
    return suite == Suite::aes_256_gcm ? Aead::aes_gcm : Aead::chacha20_poly1305;
}

// The suite whose payload the engine's AEAD seals (the engine's decision names an AEAD).
constexpr Suite suite_of(Aead aead) {
    return aead == Aead::aes_gcm ? Suite::aes_256_gcm : Suite::chacha20_poly1305;
}

inline std::string_view suite_name(Suite suite) { return cipher_name(aead_of(suite)); }

}  // namespace warp::formats::warp_format
