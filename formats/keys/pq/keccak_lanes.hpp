// What every Keccak-f[1600] here shares (FIPS 202): the 24 round constants of iota (section
// 3.2.5) and the lanes' byte order, little-endian words of the byte string (section B.1) on
// either byte order. Used by the one-state permutation (sha3.cpp) and the four-state ones
// (keccak_x4.cpp, keccak_x4_avx2.cpp).
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>

namespace warp::formats::pq {

inline constexpr std::array<std::uint64_t, 24> kKeccakRoundConstants = {
    0x0000000000000001, 0x0000000000008082, 0x800000000000808a, 0x8000000080008000,
    0x000000000000808b, 0x0000000080000001, 0x8000000080008081, 0x8000000000008009,
    0x000000000000008a, 0x0000000000000088, 0x0000000080008009, 0x000000008000000a,
    0x000000008000808b, 0x800000000000008b, 0x8000000000008089, 0x8000000000008003,
    0x8000000000008002, 0x8000000000000080, 0x000000000000800a, 0x800000008000000a,
    0x8000000080008081, 0x8000000000008080, 0x0000000080000001, 0x8000000080008008,
};

inline std::uint64_t load_lane(const std::uint8_t* p) {
    std::uint64_t v;
    std::memcpy(&v, p, 8);
    if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap64(v);
    return v;
}

inline void store_lane(std::uint8_t* p, std::uint64_t v) {
    if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap64(v);
    std::memcpy(p, &v, 8);
}

}  // namespace warp::formats::pq
