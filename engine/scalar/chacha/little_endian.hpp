// Little-endian loads and stores for ChaCha20 and Poly1305 (RFC 8439 serialises every word
// little-endian). Written byte by byte so they are right on any host; GCC and Clang turn each
// into a single move on a little-endian machine.
#pragma once

#include <cstdint>

namespace warp::scalar {

inline std::uint32_t load_le32(const std::uint8_t* p) {
    return std::uint32_t{p[0]} | std::uint32_t{p[1]} << 8 | std::uint32_t{p[2]} << 16 |
           std::uint32_t{p[3]} << 24;
}

inline std::uint64_t load_le64(const std::uint8_t* p) {
    return std::uint64_t{load_le32(p)} | std::uint64_t{load_le32(p + 4)} << 32;
}

inline void store_le32(std::uint8_t* p, std::uint32_t v) {
    p[0] = static_cast<std::uint8_t>(v);
    p[1] = static_cast<std::uint8_t>(v >> 8);
    p[2] = static_cast<std::uint8_t>(v >> 16);
    p[3] = static_cast<std::uint8_t>(v >> 24);
}

inline void store_le64(std::uint8_t* p, std::uint64_t v) {
    store_le32(p, static_cast<std::uint32_t>(v));
    store_le32(p + 4, static_cast<std::uint32_t>(v >> 32));
}

}  // namespace warp::scalar
