// Byte counts on the command line (--size, --offset, --length): a decimal number with an
// optional binary suffix: 4096, 64K, 64KiB, 1M, 1MiB, 3G, 2T (K = 1024).
#pragma once

#include <cstdint>
#include <string>

namespace warp::cli {

// Throws a usage error naming `flag` when `text` is not a size or overflows 64 bits.
std::uint64_t parse_size(const std::string& text, const std::string& flag);

}  // namespace warp::cli
