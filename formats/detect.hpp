// Which format a file is in, by its first bytes, as age tells by its first line: the warp
// magic (SPEC 3), age's version line, or age's ASCII armor (or what was meant as armor).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "formats/options.hpp"

namespace warp::formats {

inline constexpr std::size_t kDetectBytes = 64;  // enough of a file for detect()
Format detect(std::span<const std::uint8_t> first_bytes);

}  // namespace warp::formats
