// SHA-3 and SHAKE (FIPS 202), for ML-KEM (FIPS 203: H, G, J, PRF, XOF) and the hybrid KEM's
// combiner. Written here rather than taken from OpenSSL's libcrypto, so the product gains no
// runtime library: OpenSSL 3.0 (Debian 12) cannot squeeze a SHAKE output in steps, which
// ML-KEM's matrix sampling needs (it reads an unbounded stream), and the Keccak permutation is
// a few dozen lines with no branch or table index on the data (constant time by construction).
// Checked against NIST's CAVP vectors (tests/vectors/sha3/) and OpenSSL at every length across
// the rate boundaries (tests/formats/sha3_test.cpp).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

namespace warp::formats::pq {

// A Keccak[1600] sponge of rate `rate` bytes with the domain suffix `suffix` (0x06: SHA-3,
// 0x1F: SHAKE). absorb any number of times, then squeeze any number of times; the state is
// wiped on destruction (it holds secrets: ML-KEM's seeds and messages pass through it).
class Sponge {
public:
    Sponge(std::size_t rate, std::uint8_t suffix) noexcept : rate_(rate), suffix_(suffix) {}
    ~Sponge();
    Sponge(const Sponge&) = delete;
    Sponge& operator=(const Sponge&) = delete;

    void absorb(std::span<const std::uint8_t> data) noexcept;
    void squeeze(std::span<std::uint8_t> out) noexcept;

private:
    void finish_absorbing() noexcept;
    void absorb_byte(std::uint8_t byte) noexcept;
    std::uint8_t squeeze_byte() noexcept;
    std::array<std::uint64_t, 25> state_{};
    std::size_t rate_;
    std::size_t offset_ = 0;  // bytes absorbed into, or squeezed from, the current block
    std::uint8_t suffix_;
    bool squeezing_ = false;
};

inline constexpr std::size_t kShake128Rate = 168;
inline constexpr std::size_t kShake256Rate = 136;

struct Shake128 : Sponge { Shake128() noexcept : Sponge(kShake128Rate, 0x1F) {} };
struct Shake256 : Sponge { Shake256() noexcept : Sponge(kShake256Rate, 0x1F) {} };

// One-call forms over the concatenation of `parts`.
using Parts = std::initializer_list<std::span<const std::uint8_t>>;
std::array<std::uint8_t, 32> sha3_256(Parts parts) noexcept;
std::array<std::uint8_t, 64> sha3_512(Parts parts) noexcept;
void shake128(Parts parts, std::span<std::uint8_t> out) noexcept;
void shake256(Parts parts, std::span<std::uint8_t> out) noexcept;

// Keccak-f[1600], 24 rounds, on the 25 little-endian lanes (exposed for the tests).
void keccak_f1600(std::array<std::uint64_t, 25>& lanes) noexcept;

}  // namespace warp::formats::pq
