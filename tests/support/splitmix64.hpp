// SplitMix64's output function: a well-mixed 64-bit word for each input word. The tests' one
// cheap deterministic generator (the CLI tests' endless pattern, the fuzz targets' file keys
// and nonces): no state beyond a counter, so any offset can be computed directly.
#pragma once

#include <cstdint>

namespace warp::test {

constexpr std::uint64_t splitmix64(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

}  // namespace warp::test
