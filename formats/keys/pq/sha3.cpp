// FIPS 202: Keccak-f[1600] and the sponge (sha3.hpp). Lanes are kept as 64-bit words and bytes
// are XORed into them little-endian (FIPS 202, section B.1), so the code is the same on either
// byte order. Every loop bound is public (rates, lengths); nothing indexes by a data value.
#include "formats/keys/pq/sha3.hpp"

#include "engine/secure_memory.hpp"

namespace warp::formats::pq {
namespace {

constexpr std::array<std::uint64_t, 24> kRoundConstants = {
    0x0000000000000001, 0x0000000000008082, 0x800000000000808a, 0x8000000080008000,
    0x000000000000808b, 0x0000000080000001, 0x8000000080008081, 0x8000000000008009,
    0x000000000000008a, 0x0000000000000088, 0x0000000080008009, 0x000000008000000a,
    0x000000008000808b, 0x800000000000008b, 0x8000000000008089, 0x8000000000008003,
    0x8000000000008002, 0x8000000000000080, 0x000000000000800a, 0x800000008000000a,
    0x8000000080008081, 0x8000000000008080, 0x0000000080000001, 0x8000000080008008,
};

// rho's rotation and pi's destination, in the order pi visits the lanes starting at (1, 0).
constexpr std::array<unsigned, 24> kRotations = {1,  3,  6,  10, 15, 21, 28, 36, 45, 55, 2,  14,
                                                 27, 41, 56, 8,  25, 43, 62, 18, 39, 61, 20, 44};
constexpr std::array<unsigned, 24> kPiLanes = {10, 7,  11, 17, 18, 3, 5,  16, 8,  21, 24, 4,
                                               15, 23, 19, 13, 12, 2, 20, 14, 22, 9,  6,  1};

constexpr std::uint64_t rotl(std::uint64_t x, unsigned n) {
    return n == 0 ? x : (x << n) | (x >> (64 - n));
}

}  // namespace

void keccak_f1600(std::array<std::uint64_t, 25>& a) noexcept {
    for (const std::uint64_t round_constant : kRoundConstants) {
        // theta
        std::array<std::uint64_t, 5> c{};
        for (unsigned x = 0; x < 5; ++x) c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
        for (unsigned x = 0; x < 5; ++x) {
            const std::uint64_t d = c[(x + 4) % 5] ^ rotl(c[(x + 1) % 5], 1);
            for (unsigned y = 0; y < 25; y += 5) a[y + x] ^= d;
        }
        // rho and pi
        std::uint64_t moving = a[1];
        for (unsigned i = 0; i < 24; ++i) {
            const std::uint64_t next = a[kPiLanes[i]];
            a[kPiLanes[i]] = rotl(moving, kRotations[i]);
            moving = next;
        }
        // chi
        for (unsigned y = 0; y < 25; y += 5) {
            const std::array<std::uint64_t, 5> row = {a[y], a[y + 1], a[y + 2], a[y + 3], a[y + 4]};
            for (unsigned x = 0; x < 5; ++x)
                a[y + x] = row[x] ^ (~row[(x + 1) % 5] & row[(x + 2) % 5]);
        }
        // iota
        a[0] ^= round_constant;
    }
}

Sponge::~Sponge() { secure_wipe(state_.data(), sizeof(state_)); }

void Sponge::absorb(std::span<const std::uint8_t> data) noexcept {
    for (const std::uint8_t byte : data) {
        state_[offset_ / 8] ^= std::uint64_t{byte} << (8 * (offset_ % 8));
        if (++offset_ == rate_) {
            keccak_f1600(state_);
            offset_ = 0;
        }
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
    for (std::uint8_t& byte : out) {
        if (offset_ == rate_) {
            keccak_f1600(state_);
            offset_ = 0;
        }
        byte = static_cast<std::uint8_t>(state_[offset_ / 8] >> (8 * (offset_ % 8)));
        ++offset_;
    }
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
