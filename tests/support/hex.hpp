// Hex <-> bytes for test vectors (upper or lower case in, lower case out).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace warp::test {

using Bytes = std::vector<std::uint8_t>;

// Throws warp::Error(bad_input) on an odd length or a non-hex character.
Bytes from_hex(std::string_view hex);
std::string to_hex(std::span<const std::uint8_t> bytes, bool upper = false);

}  // namespace warp::test
