// The ciphers files are sealed with, by the names users type and reports print, the same in
// both formats (the warp format's suite byte, SPEC 3, maps to them in formats/warp/suite.hpp;
// age files are ChaCha20-Poly1305 only).
#pragma once

#include <array>
#include <optional>
#include <string_view>

#include "engine/aead.hpp"

namespace warp::formats {

inline constexpr std::array<Aead, 2> kCiphers = {Aead::aes_gcm, Aead::chacha20_poly1305};

constexpr std::string_view cipher_name(Aead aead) {  // "aes-256-gcm", "chacha20-poly1305"
    return aead == Aead::aes_gcm ? "aes-256-gcm" : "chacha20-poly1305";
}

constexpr std::optional<Aead> parse_cipher_name(std::string_view name) {
    for (Aead aead : kCiphers)
        if (name == cipher_name(aead)) return aead;
    return std::nullopt;
}

}  // namespace warp::formats
