// FIPS 203 Appendix A's constants, computed at compile time rather than copied: zeta^BitRev7(i)
// for the NTT and its inverse (Algorithms 9, 10) and zeta^(2 BitRev7(i) + 1) for MultiplyNTTs
// (Algorithm 11), zeta = 17. Shared by the portable and the AVX2 ring arithmetic.
#pragma once

#include <array>
#include <cstdint>

namespace warp::formats::pq::mlkem768 {

constexpr std::uint32_t power_mod_q(std::uint32_t base, std::uint32_t exponent) {
    std::uint32_t result = 1;
    for (std::uint32_t i = 0; i < exponent; ++i) result = result * base % 3329;
    return result;
}

constexpr std::uint32_t bit_reverse7(std::uint32_t i) {
    std::uint32_t r = 0;
    for (unsigned b = 0; b < 7; ++b) r |= ((i >> b) & 1) << (6 - b);
    return r;
}

inline constexpr std::array<std::uint16_t, 128> kZetas = [] {
    std::array<std::uint16_t, 128> z{};
    for (std::uint32_t i = 0; i < 128; ++i)
        z[i] = static_cast<std::uint16_t>(power_mod_q(17, bit_reverse7(i)));
    return z;
}();
inline constexpr std::array<std::uint16_t, 128> kGammas = [] {
    std::array<std::uint16_t, 128> g{};
    for (std::uint32_t i = 0; i < 128; ++i)
        g[i] = static_cast<std::uint16_t>(power_mod_q(17, 2 * bit_reverse7(i) + 1));
    return g;
}();
static_assert(kZetas[1] == 1729 && kGammas[0] == 17, "FIPS 203 Appendix A");

}  // namespace warp::formats::pq::mlkem768
