// SPEC 3: the suite byte, its names, and the engine AEAD that runs it.
#pragma once

#include <cstdint>
#include <optional>

#include "engine/aead.hpp"
#include "formats/container.hpp"

namespace warp::formats {

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

// How reports name the engine's choice of AEAD: its suite's name ("aes-256-gcm", ...).
inline std::string_view suite_name_of(Aead aead) { return suite_name(suite_of(aead)); }

}  // namespace warp::formats
