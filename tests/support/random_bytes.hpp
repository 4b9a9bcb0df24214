// Reproducible pseudo-random test data (a seeded std::mt19937_64): the same bytes on every run,
// so a failing differential case can be replayed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>

#include "tests/support/hex.hpp"

namespace warp::test {

inline Bytes random_bytes(std::mt19937_64& rng, std::size_t n) {
    Bytes out(n);
    for (auto& b : out) b = static_cast<std::uint8_t>(rng());
    return out;
}

}  // namespace warp::test
