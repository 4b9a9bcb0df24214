// Padding for the plain-text tables of `backends`, `bench` and `calibrate`: one place, so
// their columns line up the same way.
#pragma once

#include <cstddef>
#include <string>

namespace warp::cli {

// Wide enough for "chacha20-poly1305" and two spaces.
inline constexpr std::size_t kSuiteColumnWidth = 19;

inline std::string pad_right(std::string text, std::size_t width) {
    if (text.size() < width) text.append(width - text.size(), ' ');
    return text;
}

inline std::string pad_left(std::string text, std::size_t width) {
    if (text.size() < width) text.insert(0, width - text.size(), ' ');
    return text;
}

}  // namespace warp::cli
