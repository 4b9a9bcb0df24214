// SPEC 1: integers are unsigned big-endian.
#pragma once

#include <cstddef>
#include <cstdint>

namespace warp::formats {

template <typename T>
constexpr void store_be(std::uint8_t* out, T value, std::size_t bytes = sizeof(T)) {
    // Fields wider than T (the 11-byte chunk index of a u64) get leading zero bytes.
    for (std::size_t i = 0; i < bytes; ++i)
        out[bytes - 1 - i] = i < sizeof(T) ? static_cast<std::uint8_t>(value >> (8 * i))
                                           : std::uint8_t{0};
}

template <typename T>
constexpr T load_be(const std::uint8_t* in, std::size_t bytes = sizeof(T)) {
    T value = 0;
    for (std::size_t i = 0; i < bytes; ++i) value = static_cast<T>((value << 8) | in[i]);
    return value;
}

}  // namespace warp::formats
