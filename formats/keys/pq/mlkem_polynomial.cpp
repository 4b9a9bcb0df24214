// The ring arithmetic of ML-KEM (mlkem_polynomial.hpp), after FIPS 203's pseudocode: the NTT
// loops are Algorithms 9 and 10 as written, with the powers of zeta = 17 computed at compile
// time rather than copied from a table (mlkem_zetas.hpp). The functions with an AVX2 twin
// (mlkem_polynomial_avx2.cpp) are the portable:: ones; mlkem_dispatch.cpp picks.
#include "formats/keys/pq/mlkem_polynomial.hpp"

#include <algorithm>

#include "formats/keys/pq/keccak_x4.hpp"
#include "formats/keys/pq/mlkem_zetas.hpp"
#include "formats/keys/pq/sha3.hpp"

namespace warp::formats::pq::mlkem768 {
namespace {

// x - q if x >= q, for x < 2q, by the sign of x - q.
constexpr std::uint16_t subtract_q_if_above(std::uint32_t x) {
    const std::int32_t t = static_cast<std::int32_t>(x) - static_cast<std::int32_t>(kQ);
    return static_cast<std::uint16_t>(t + ((t >> 31) & static_cast<std::int32_t>(kQ)));
}

// Barrett: t = floor(x * floor(2^32 / q) / 2^32) is floor(x / q) or one less, for any x < 2^32.
constexpr std::uint64_t kBarrett = (std::uint64_t{1} << 32) / kQ;

constexpr std::uint16_t add_mod(std::uint16_t a, std::uint16_t b) {
    return subtract_q_if_above(std::uint32_t{a} + b);
}
constexpr std::uint16_t sub_mod(std::uint16_t a, std::uint16_t b) {
    return subtract_q_if_above(std::uint32_t{a} + kQ - b);
}

// floor(n / q) for n < 13,000,000 (a numerator of compress for d <= 11), as a multiplication:
// ceil(2^35 / q) * q - 2^35 = 2492, and 2492 * n < 2^35 makes the quotient exact.
constexpr std::uint32_t divide_by_q(std::uint32_t n) {
    constexpr std::uint64_t kInverse = ((std::uint64_t{1} << 35) + kQ - 1) / kQ;
    return static_cast<std::uint32_t>((n * kInverse) >> 35);
}

}  // namespace

std::uint16_t reduce(std::uint32_t x) noexcept {
    const std::uint64_t t = (x * kBarrett) >> 32;
    return subtract_q_if_above(static_cast<std::uint32_t>(x - t * kQ));
}

namespace {
std::uint16_t multiply_mod(std::uint16_t a, std::uint16_t b) { return reduce(std::uint32_t{a} * b); }
}  // namespace

void portable::ntt(Poly& f) noexcept {
    std::size_t i = 1;
    for (std::size_t len = 128; len >= 2; len /= 2) {
        for (std::size_t start = 0; start < kN; start += 2 * len) {
            const std::uint16_t zeta = kZetas[i++];
            for (std::size_t j = start; j < start + len; ++j) {
                const std::uint16_t t = multiply_mod(zeta, f.c[j + len]);
                f.c[j + len] = sub_mod(f.c[j], t);
                f.c[j] = add_mod(f.c[j], t);
            }
        }
    }
}

void portable::inverse_ntt(Poly& f) noexcept {
    std::size_t i = 127;
    for (std::size_t len = 2; len <= 128; len *= 2) {
        for (std::size_t start = 0; start < kN; start += 2 * len) {
            const std::uint16_t zeta = kZetas[i--];
            for (std::size_t j = start; j < start + len; ++j) {
                const std::uint16_t t = f.c[j];
                f.c[j] = add_mod(t, f.c[j + len]);
                f.c[j + len] = multiply_mod(zeta, sub_mod(f.c[j + len], t));
            }
        }
    }
    for (std::uint16_t& x : f.c) x = multiply_mod(x, 3303);  // 128^-1 mod q
}

namespace {

// Algorithm 12, BaseCaseMultiply, accumulated into (c0, c1).
void base_case_multiply_add(std::uint16_t a0, std::uint16_t a1, std::uint16_t b0, std::uint16_t b1,
                            std::uint16_t gamma, std::uint16_t& c0, std::uint16_t& c1) {
    const std::uint32_t even = std::uint32_t{a0} * b0 + std::uint32_t{multiply_mod(a1, b1)} * gamma;
    const std::uint32_t odd = std::uint32_t{a0} * b1 + std::uint32_t{a1} * b0;
    c0 = add_mod(c0, reduce(even));
    c1 = add_mod(c1, reduce(odd));
}

}  // namespace

void portable::multiply_ntt(const Poly& f, const Poly& g, Poly& out) noexcept {
    out = Poly{};
    portable::multiply_add_ntt(f, g, out);
}

void portable::multiply_add_ntt(const Poly& f, const Poly& g, Poly& acc) noexcept {
    for (std::size_t i = 0; i < 128; ++i)
        base_case_multiply_add(f.c[2 * i], f.c[2 * i + 1], g.c[2 * i], g.c[2 * i + 1], kGammas[i],
                               acc.c[2 * i], acc.c[2 * i + 1]);
}

void portable::add(Poly& a, const Poly& b) noexcept {
    for (std::size_t i = 0; i < kN; ++i) a.c[i] = add_mod(a.c[i], b.c[i]);
}

void portable::subtract(Poly& a, const Poly& b) noexcept {
    for (std::size_t i = 0; i < kN; ++i) a.c[i] = sub_mod(a.c[i], b.c[i]);
}

std::uint16_t compress_value(std::uint16_t x, unsigned d) noexcept {
    // round(2^d x / q) = floor((2^d x + (q - 1) / 2) / q), q being odd; then mod 2^d.
    const std::uint32_t quotient = divide_by_q((std::uint32_t{x} << d) + (kQ - 1) / 2);
    return static_cast<std::uint16_t>(quotient & ((1u << d) - 1));
}

void portable::compress(Poly& f, unsigned d) noexcept {
    for (std::uint16_t& x : f.c) x = compress_value(x, d);
}

void decompress(Poly& f, unsigned d) noexcept {
    // round(q y / 2^d) = floor((q y + 2^(d-1)) / 2^d).
    for (std::uint16_t& y : f.c)
        y = static_cast<std::uint16_t>((std::uint32_t{y} * kQ + (1u << (d - 1))) >> d);
}

namespace {

// The fewest coefficients whose d-bit values fill whole bytes: d = 1, 4, 10, 12 (every d of
// ML-KEM-768) give groups of at most 64 bits, packed and unpacked with constant shifts.
constexpr unsigned group_size(unsigned d) { return d % 2 == 1 ? 8 : d % 4 == 2 ? 4 : 2; }

template <unsigned d>
void byte_encode_fixed(const Poly& f, std::span<std::uint8_t> out) {
    constexpr unsigned n = group_size(d), bytes = n * d / 8;
    static_assert(n * d <= 64 && n * d % 8 == 0);
    for (std::size_t g = 0; g < kN / n; ++g) {
        std::uint64_t bits = 0;
        for (unsigned k = 0; k < n; ++k) bits |= std::uint64_t{f.c[n * g + k]} << (d * k);
        for (unsigned i = 0; i < bytes; ++i)
            out[bytes * g + i] = static_cast<std::uint8_t>(bits >> (8 * i));
    }
}

template <unsigned d>
void byte_decode_fixed(std::span<const std::uint8_t> in, Poly& f) {
    constexpr unsigned n = group_size(d), bytes = n * d / 8;
    for (std::size_t g = 0; g < kN / n; ++g) {
        std::uint64_t bits = 0;
        for (unsigned i = 0; i < bytes; ++i) bits |= std::uint64_t{in[bytes * g + i]} << (8 * i);
        for (unsigned k = 0; k < n; ++k) {
            const auto x = static_cast<std::uint16_t>((bits >> (d * k)) & ((1u << d) - 1));
            f.c[n * g + k] = d == 12 ? subtract_q_if_above(x) : x;  // 12-bit values are below 2q
        }
    }
}

}  // namespace

void byte_encode(const Poly& f, unsigned d, std::span<std::uint8_t> out) noexcept {
    switch (d) {  // d is a parameter of the scheme, not data
        case 1: return byte_encode_fixed<1>(f, out);
        case 4: return byte_encode_fixed<4>(f, out);
        case 10: return byte_encode_fixed<10>(f, out);
        case 12: return byte_encode_fixed<12>(f, out);
        default: break;
    }
    // Any other d (11, 5: other parameter sets), bit by bit as Algorithm 5 reads.
    std::uint32_t buffer = 0;
    unsigned bits = 0;
    std::size_t o = 0;
    for (const std::uint16_t x : f.c) {
        buffer |= std::uint32_t{x} << bits;
        bits += d;
        while (bits >= 8) {
            out[o++] = static_cast<std::uint8_t>(buffer);
            buffer >>= 8;
            bits -= 8;
        }
    }
}

void portable::byte_decode(std::span<const std::uint8_t> in, unsigned d, Poly& f) noexcept {
    switch (d) {
        case 1: return byte_decode_fixed<1>(in, f);
        case 4: return byte_decode_fixed<4>(in, f);
        case 10: return byte_decode_fixed<10>(in, f);
        case 12: return byte_decode_fixed<12>(in, f);
        default: break;
    }
    std::uint32_t buffer = 0;
    unsigned bits = 0;
    std::size_t o = 0;
    for (std::uint16_t& x : f.c) {
        while (bits < d) {
            buffer |= std::uint32_t{in[o++]} << bits;
            bits += 8;
        }
        x = static_cast<std::uint16_t>(buffer & ((1u << d) - 1));
        buffer >>= d;
        bits -= d;
    }
}

bool portable::byte_decode_12_checked(std::span<const std::uint8_t, kPolyBytes> in,
                                       Poly& f) noexcept {
    std::uint16_t above = 0;  // bit 15 set by any value >= q (values are public: ek's)
    for (std::size_t i = 0, k = 0; i < kPolyBytes; i += 3, k += 2) {
        const auto first = static_cast<std::uint16_t>(in[i] | ((in[i + 1] & 0x0F) << 8));
        const auto second = static_cast<std::uint16_t>((in[i + 1] >> 4) | (in[i + 2] << 4));
        above |= static_cast<std::uint16_t>((kQ - 1 - first) | (kQ - 1 - second));
        f.c[k] = subtract_q_if_above(first);
        f.c[k + 1] = subtract_q_if_above(second);
    }
    return (above & 0x8000) == 0;
}

bool decode_12_canonical(std::span<const std::uint8_t, kPolyBytes> in) noexcept {
    bool canonical = true;
    for (std::size_t i = 0; i < kPolyBytes; i += 3) {
        const std::uint32_t first = in[i] | ((std::uint32_t{in[i + 1]} & 0x0F) << 8);
        const std::uint32_t second = (in[i + 1] >> 4) | (std::uint32_t{in[i + 2]} << 4);
        canonical = canonical && first < kQ && second < kQ;
    }
    return canonical;
}

// The values are public (the matrix is); the loop writes both candidates of a triple and
// counts the accepted ones rather than branching, only because acceptance is unpredictable (a
// mispredicted branch per five values).
std::size_t portable::accept_below_q(std::span<const std::uint8_t> block, Poly& f,
                                     std::size_t count) noexcept {
    std::size_t b = 0;
    for (; b + 3 <= block.size() && count + 2 <= kN; b += 3) {  // room for both candidates
        const auto d1 = static_cast<std::uint16_t>(block[b] | ((block[b + 1] & 0x0F) << 8));
        const auto d2 = static_cast<std::uint16_t>((block[b + 1] >> 4) | (block[b + 2] << 4));
        f.c[count] = d1;
        count += d1 < kQ ? 1 : 0;
        f.c[count] = d2;
        count += d2 < kQ ? 1 : 0;
    }
    for (; b + 3 <= block.size() && count < kN; b += 3) {
        const auto d1 = static_cast<std::uint16_t>(block[b] | ((block[b + 1] & 0x0F) << 8));
        const auto d2 = static_cast<std::uint16_t>((block[b + 1] >> 4) | (block[b + 2] << 4));
        if (d1 < kQ) f.c[count++] = d1;
        if (d2 < kQ && count < kN) f.c[count++] = d2;
    }
    return count;
}

void sample_ntt(std::span<const std::uint8_t, 32> rho, std::uint8_t j, std::uint8_t i,
                Poly& f) noexcept {
    Shake128 xof;
    xof.absorb(rho);
    const std::array<std::uint8_t, 2> indices = {j, i};
    xof.absorb(indices);
    std::array<std::uint8_t, kShake128Rate> block{};  // one SHAKE128 block, 56 triples
    std::size_t count = 0;
    while (count < kN) {
        xof.squeeze(block);
        count = accept_below_q(block, f, count);
    }
}

void sample_ntt_x4(std::span<const std::uint8_t, 32> rho,
                   const std::array<std::array<std::uint8_t, 2>, 4>& indices,
                   const std::array<Poly*, 4>& f) noexcept {
    std::array<std::array<std::uint8_t, 34>, 4> inputs{};
    FourMessages messages;
    for (std::size_t s = 0; s < 4; ++s) {
        std::copy(rho.begin(), rho.end(), inputs[s].begin());
        inputs[s][32] = indices[s][0];
        inputs[s][33] = indices[s][1];
        messages[s] = inputs[s];
    }
    KeccakX4 xof;
    shake_x4_absorb_short(xof, kShake128Rate, messages);
    std::array<std::array<std::uint8_t, kShake128Rate>, 4> blocks{};
    std::array<std::size_t, 4> counts{};
    // Until all four are full: a state already full squeezes on alongside, its output unused.
    while (counts[0] < kN || counts[1] < kN || counts[2] < kN || counts[3] < kN) {
        shake_x4_squeeze_block(xof, kShake128Rate,
                               {blocks[0].data(), blocks[1].data(), blocks[2].data(),
                                blocks[3].data()});
        for (std::size_t s = 0; s < 4; ++s)
            counts[s] = accept_below_q(blocks[s], *f[s], counts[s]);
    }
}

void portable::sample_cbd2(std::span<const std::uint8_t, 128> bytes, Poly& f) noexcept {
    for (std::size_t word = 0; word < 32; ++word) {
        const std::uint32_t t = std::uint32_t{bytes[4 * word]} | (std::uint32_t{bytes[4 * word + 1]} << 8) |
                                (std::uint32_t{bytes[4 * word + 2]} << 16) |
                                (std::uint32_t{bytes[4 * word + 3]} << 24);
        // Each 2-bit field of `sums` is the number of ones in the same two bits of t.
        const std::uint32_t sums = (t & 0x55555555u) + ((t >> 1) & 0x55555555u);
        for (unsigned k = 0; k < 8; ++k) {
            const std::uint16_t x = static_cast<std::uint16_t>((sums >> (4 * k)) & 3);
            const std::uint16_t y = static_cast<std::uint16_t>((sums >> (4 * k + 2)) & 3);
            f.c[8 * word + k] = sub_mod(x, y);
        }
    }
}

}  // namespace warp::formats::pq::mlkem768
