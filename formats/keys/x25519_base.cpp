// X25519's fixed-base multiplication (x25519_base.hpp), through Ed25519's base point.
//
// libsodium 1.0.18 computes crypto_scalarmult_base with the Montgomery ladder, 255 steps
// whatever the point (33 us here). Both curves are one: the map u = (1 + y) / (1 - y) takes
// Ed25519's base point B to u = 9, and [k]B to [k]9, so X25519(k, 9) is the u of [k]B, with
// X25519's clamping (bits 0-2 and 255 cleared, bit 254 set). [k]B is computed as ref10's
// ge_scalarmult_base does: the scalar in 64 signed digits of 4 bits, each selecting a
// precomputed multiple of 256^i * B (ed25519_base_table.cpp) in constant time, 64 mixed
// additions and 4 doublings in extended coordinates; then one inversion for
// u = (Z + Y) / (Z - Y). libsodium's crypto_scalarmult_ed25519_base does the same walk but
// ends with an inversion of its own to encode the point, which the map then needed again:
// this is one inversion less (2026-12-06: see docs/measurements/bench-python-2026-12-06.md).
//
// Secret: the scalar, and so every coordinate until u. No branch or memory index depends on
// them: a digit selects by masks over all eight entries of its row, the field arithmetic has
// no branches, and the inversion is a fixed chain of products (tests/ct runs it with a secret
// seed, in the post-quantum case's key expansion). u is a public key, declassified once made.
#include "formats/keys/x25519_base.hpp"

#include <algorithm>
#include <array>
#include <cstdint>

#include "engine/secure_memory.hpp"
#include "formats/keys/ed25519_base_table.hpp"

namespace warp::formats {
namespace {

using ed25519::Limbs;
using ed25519::Niels;
__extension__ typedef unsigned __int128 Wide;  // a GCC and Clang type, on 64-bit targets
constexpr std::uint64_t kMask51 = (std::uint64_t{1} << 51) - 1;

// ---- GF(2^255 - 19) in five limbs of 51 bits, as curve25519-donna-c64 -------------------
// Products take limbs below 2^54 and give limbs below 2^51 + 2^13. Sums and differences are not
// carried (a difference is a + 4p - b, which needs b below 2^53): the point formulas below
// keep every operand within those bounds, and carry a difference where it is subtracted from.

// The five column sums reduced to limbs below 2^52 (2^255 = 19 folds the top carry back).
// Inlined, with the sums in registers: through memory it was most of the inversion's time.
[[gnu::always_inline]] inline Limbs carried(Wide r0, Wide r1, Wide r2, Wide r3, Wide r4) {
    Limbs out;
    r1 += static_cast<std::uint64_t>(r0 >> 51);
    out[0] = static_cast<std::uint64_t>(r0) & kMask51;
    r2 += static_cast<std::uint64_t>(r1 >> 51);
    out[1] = static_cast<std::uint64_t>(r1) & kMask51;
    r3 += static_cast<std::uint64_t>(r2 >> 51);
    out[2] = static_cast<std::uint64_t>(r2) & kMask51;
    r4 += static_cast<std::uint64_t>(r3 >> 51);
    out[3] = static_cast<std::uint64_t>(r3) & kMask51;
    out[4] = static_cast<std::uint64_t>(r4) & kMask51;
    out[0] += static_cast<std::uint64_t>(r4 >> 51) * 19;
    out[1] += out[0] >> 51;
    out[0] &= kMask51;
    return out;
}

[[gnu::always_inline]] inline Limbs multiply(const Limbs& a, const Limbs& b) {
    const auto m = [](std::uint64_t x, std::uint64_t y) { return static_cast<Wide>(x) * y; };
    const Limbs b19{b[0], b[1] * 19, b[2] * 19, b[3] * 19, b[4] * 19};
    return carried(
        m(a[0], b[0]) + m(a[1], b19[4]) + m(a[2], b19[3]) + m(a[3], b19[2]) + m(a[4], b19[1]),
        m(a[0], b[1]) + m(a[1], b[0]) + m(a[2], b19[4]) + m(a[3], b19[3]) + m(a[4], b19[2]),
        m(a[0], b[2]) + m(a[1], b[1]) + m(a[2], b[0]) + m(a[3], b19[4]) + m(a[4], b19[3]),
        m(a[0], b[3]) + m(a[1], b[2]) + m(a[2], b[1]) + m(a[3], b[0]) + m(a[4], b19[4]),
        m(a[0], b[4]) + m(a[1], b[3]) + m(a[2], b[2]) + m(a[3], b[1]) + m(a[4], b[0]));
}

// a^2 with 15 products rather than 25: the squarings are 254 of the inversion's 265 steps.
[[gnu::always_inline]] inline Limbs square(const Limbs& a) {
    const auto m = [](std::uint64_t x, std::uint64_t y) { return static_cast<Wide>(x) * y; };
    const std::uint64_t a0_2 = 2 * a[0], a1_2 = 2 * a[1];
    const std::uint64_t a3_19 = 19 * a[3], a4_19 = 19 * a[4];
    return carried(m(a[0], a[0]) + m(a1_2, a4_19) + m(2 * a[2], a3_19),
                   m(a0_2, a[1]) + m(a[3], a3_19) + m(2 * a[2], a4_19),
                   m(a0_2, a[2]) + m(a[1], a[1]) + m(2 * a[3], a4_19),
                   m(a0_2, a[3]) + m(a1_2, a[2]) + m(a[4], a4_19),
                   m(a0_2, a[4]) + m(a1_2, a[3]) + m(a[2], a[2]));
}

Limbs square_times(Limbs a, int times) {
    while (times-- > 0) a = square(a);
    return a;
}

// a^(p - 2) = 1 / a, by the addition chain of curve25519-donna (254 squarings, 11 products).
Limbs invert(const Limbs& z) {
    const Limbs z2 = square_times(z, 1);
    const Limbs z9 = multiply(square_times(z2, 2), z);
    const Limbs z11 = multiply(z9, z2);
    const Limbs z_5_0 = multiply(square_times(z11, 1), z9);  // z^(2^5 - 1)
    const Limbs z_10_0 = multiply(square_times(z_5_0, 5), z_5_0);
    const Limbs z_20_0 = multiply(square_times(z_10_0, 10), z_10_0);
    const Limbs z_40_0 = multiply(square_times(z_20_0, 20), z_20_0);
    const Limbs z_50_0 = multiply(square_times(z_40_0, 10), z_10_0);
    const Limbs z_100_0 = multiply(square_times(z_50_0, 50), z_50_0);
    const Limbs z_200_0 = multiply(square_times(z_100_0, 100), z_100_0);
    const Limbs z_250_0 = multiply(square_times(z_200_0, 50), z_50_0);
    return multiply(square_times(z_250_0, 5), z11);  // z^(2^255 - 21)
}

// The canonical 32-byte encoding: fully reduced below p.
void to_bytes(Limbs a, std::span<std::uint8_t, 32> out) {
    for (int round = 0; round < 2; ++round) {
        for (std::size_t i = 0; i < 4; ++i) {
            a[i + 1] += a[i] >> 51;
            a[i] &= kMask51;
        }
        a[0] += (a[4] >> 51) * 19;
        a[4] &= kMask51;
    }
    // Now a < 2^255 + a little; subtract p once if a >= p (a + 19 overflows 2^255).
    std::uint64_t carry = (a[0] + 19) >> 51;
    for (std::size_t i = 1; i < 5; ++i) carry = (a[i] + carry) >> 51;
    a[0] += 19 * carry;
    for (std::size_t i = 0; i < 4; ++i) {
        a[i + 1] += a[i] >> 51;
        a[i] &= kMask51;
    }
    a[4] &= kMask51;
    const std::array<std::uint64_t, 4> w{a[0] | (a[1] << 51), (a[1] >> 13) | (a[2] << 38),
                                         (a[2] >> 26) | (a[3] << 25), (a[3] >> 39) | (a[4] << 12)};
    for (std::size_t i = 0; i < 32; ++i)
        out[i] = static_cast<std::uint8_t>(w[i / 8] >> (8 * (i % 8)));
}

[[gnu::always_inline]] inline Limbs add(const Limbs& a, const Limbs& b) {
    return {a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3], a[4] + b[4]};
}

[[gnu::always_inline]] inline Limbs subtract(const Limbs& a, const Limbs& b) {
    constexpr std::uint64_t k4p0 = 4 * (kMask51 - 18), k4p = 4 * kMask51;  // 4p in limbs
    return {a[0] + k4p0 - b[0], a[1] + k4p - b[1], a[2] + k4p - b[2], a[3] + k4p - b[3],
            a[4] + k4p - b[4]};
}

// Limbs below 2^52 again.
Limbs carry(Limbs a) {
    for (std::size_t i = 0; i < 4; ++i) {
        a[i + 1] += a[i] >> 51;
        a[i] &= kMask51;
    }
    a[0] += (a[4] >> 51) * 19;
    a[4] &= kMask51;
    a[1] += a[0] >> 51;
    a[0] &= kMask51;
    return a;
}

// ---- Edwards points: -x^2 + y^2 = 1 + d x^2 y^2, in extended coordinates ----------------
// (X : Y : Z : T) with x = X/Z, y = Y/Z, xy = T/Z (Hisil, Wong, Carter, Dawson 2008, as ref10).
struct Extended {
    Limbs x, y, z, t;
};

// digit * 256^row * B for a digit in [-8, 8], read from every entry of the row.
Niels select(std::size_t row, std::int8_t digit) {
    const int value = digit;
    const int negative = (value >> 8) & 1;  // the sign, spread by the arithmetic shift
    const auto magnitude = static_cast<std::uint64_t>(value - (-negative & value) * 2);
    Niels chosen{{1, 0, 0, 0, 0}, {1, 0, 0, 0, 0}, {0, 0, 0, 0, 0}};  // the neutral point
    for (std::uint64_t j = 1; j <= 8; ++j) {
        const std::uint64_t take = 0 - (((magnitude ^ j) - 1) >> 63);  // all ones when equal
        const Niels& entry = ed25519::kBaseTable[row][j - 1];
        for (std::size_t i = 0; i < 5; ++i) {
            chosen.y_plus_x[i] ^= take & (chosen.y_plus_x[i] ^ entry.y_plus_x[i]);
            chosen.y_minus_x[i] ^= take & (chosen.y_minus_x[i] ^ entry.y_minus_x[i]);
            chosen.xy2d[i] ^= take & (chosen.xy2d[i] ^ entry.xy2d[i]);
        }
    }
    // -(x, y) = (-x, y): y + x and y - x trade places, and 2dxy changes sign.
    const std::uint64_t negate = 0 - static_cast<std::uint64_t>(negative);
    const Limbs minus_xy2d = subtract({0, 0, 0, 0, 0}, chosen.xy2d);
    for (std::size_t i = 0; i < 5; ++i) {
        const std::uint64_t swap = negate & (chosen.y_plus_x[i] ^ chosen.y_minus_x[i]);
        chosen.y_plus_x[i] ^= swap;
        chosen.y_minus_x[i] ^= swap;
        chosen.xy2d[i] ^= negate & (chosen.xy2d[i] ^ minus_xy2d[i]);
    }
    return chosen;
}

// h + q, q affine (ref10's ge_madd, then back to extended coordinates).
[[gnu::always_inline]] inline void add_affine(Extended& h, const Niels& q) {
    const Limbs a = multiply(add(h.y, h.x), q.y_plus_x);
    const Limbs b = multiply(subtract(h.y, h.x), q.y_minus_x);
    const Limbs c = multiply(q.xy2d, h.t);
    const Limbs d = add(h.z, h.z);
    const Limbs e = subtract(a, b), g = add(d, c), f = subtract(d, c), k = add(a, b);
    h = {multiply(e, f), multiply(k, g), multiply(g, f), multiply(e, k)};
}

// 2h (ref10's ge_p2_dbl; T is not read).
void double_point(Extended& h) {
    const Limbs xx = square(h.x), yy = square(h.y), zz = square(h.z);
    const Limbs sum = add(yy, xx), difference = carry(subtract(yy, xx));
    const Limbs e = subtract(square(add(h.x, h.y)), sum);
    const Limbs f = subtract(add(zz, zz), difference);
    h = {multiply(e, f), multiply(sum, difference), multiply(difference, f), multiply(e, sum)};
}

// [k]B for a clamped scalar k (k < 2^255), as ref10's ge_scalarmult_base.
Extended base_multiple(const std::array<std::uint8_t, 32>& k) {
    std::array<std::int8_t, 64> digits{};
    for (std::size_t i = 0; i < 32; ++i) {
        digits[2 * i] = static_cast<std::int8_t>(k[i] & 15);
        digits[2 * i + 1] = static_cast<std::int8_t>(k[i] >> 4);
    }
    std::int8_t carry_in = 0;  // from digits in [0, 15] to [-8, 8]
    for (std::size_t i = 0; i < 63; ++i) {
        digits[i] = static_cast<std::int8_t>(digits[i] + carry_in);
        carry_in = static_cast<std::int8_t>((digits[i] + 8) >> 4);
        digits[i] = static_cast<std::int8_t>(digits[i] - carry_in * 16);
    }
    digits[63] = static_cast<std::int8_t>(digits[63] + carry_in);
    Extended h{{0, 0, 0, 0, 0}, {1, 0, 0, 0, 0}, {1, 0, 0, 0, 0}, {0, 0, 0, 0, 0}};
    for (std::size_t i = 1; i < 64; i += 2) add_affine(h, select(i / 2, digits[i]));
    for (int i = 0; i < 4; ++i) double_point(h);
    for (std::size_t i = 0; i < 64; i += 2) add_affine(h, select(i / 2, digits[i]));
    secure_wipe(digits.data(), digits.size());
    return h;
}

}  // namespace

void x25519_base(std::span<const std::uint8_t, 32> scalar, std::span<std::uint8_t, 32> out) {
    std::array<std::uint8_t, 32> k{};
    std::copy(scalar.begin(), scalar.end(), k.begin());
    k[0] &= 248;  // X25519's clamping (RFC 7748, section 5)
    k[31] &= 127;
    k[31] |= 64;
    Extended p = base_multiple(k);
    secure_wipe(k.data(), k.size());
    to_bytes(multiply(add(p.z, p.y), invert(carry(subtract(p.z, p.y)))), out);
    declassify(out.data(), out.size());  // a public key
    secure_wipe(&p, sizeof p);
}

}  // namespace warp::formats
