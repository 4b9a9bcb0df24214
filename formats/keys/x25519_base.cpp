// X25519's fixed-base multiplication through Ed25519's (x25519_base.hpp).
//
// libsodium 1.0.18 computes crypto_scalarmult_base with the Montgomery ladder, 255 steps
// whatever the point (33 us here), while its Ed25519 fixed-base multiplication reads
// precomputed multiples of the base point in constant time (14 us). Both curves are one: the
// map u = (1 + y) / (1 - y) takes the Ed25519 base point to u = 9, and [k]B to [k]9, so
// X25519(k, 9) is the u of Ed25519's [k]B with the same clamping (bits 0-2 and 255 cleared,
// bit 254 set), which crypto_scalarmult_ed25519_base applies. The result is a public key,
// published in the stanza or recipient it goes into; the one division by (1 - y) is done here
// on the declassified point (libcrypto's BIGNUM took 16 us for it). Together: about 15 us
// for what took 33 (a 1 KiB age encryption makes one, its decryption one; 2026-12-06).
#include "formats/keys/x25519_base.hpp"

#include <sodium.h>

#include <array>

#include "engine/error.hpp"
#include "engine/secure_memory.hpp"
#include "formats/common/kdf.hpp"

namespace warp::formats {
namespace {

// GF(2^255 - 19) in five limbs of 51 bits, products in 128 bits (as curve25519-donna-c64):
// only what the map to Montgomery's u needs, on public values, so nothing here is constant
// time by design. Limbs stay below 2^52 between operations, well within the products' room.
using Limbs = std::array<std::uint64_t, 5>;
__extension__ typedef unsigned __int128 Wide;  // a GCC and Clang type, on 64-bit targets
constexpr std::uint64_t kMask51 = (std::uint64_t{1} << 51) - 1;

Limbs from_bytes(const std::array<std::uint8_t, 32>& bytes) {
    std::array<std::uint64_t, 4> w{};
    for (std::size_t i = 0; i < 32; ++i) w[i / 8] |= std::uint64_t{bytes[i]} << (8 * (i % 8));
    return {w[0] & kMask51, ((w[0] >> 51) | (w[1] << 13)) & kMask51,
            ((w[1] >> 38) | (w[2] << 26)) & kMask51, ((w[2] >> 25) | (w[3] << 39)) & kMask51,
            (w[3] >> 12) & kMask51};  // bit 255 (the sign of x) left out
}

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

Limbs multiply(const Limbs& a, const Limbs& b) {
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
Limbs square(const Limbs& a) {
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

// u = (1 + y) / (1 - y) of the Ed25519 point `edwards` (its encoding: y, and the sign of x in
// bit 255, which u does not depend on).
void montgomery_u(const std::array<std::uint8_t, 32>& edwards, std::span<std::uint8_t, 32> u) {
    const Limbs y = from_bytes(edwards);
    // 1 + y, and 1 - y as 2p + 1 - y (2p in limbs: 2^52 - 38, then 2^52 - 2 four times).
    const Limbs numerator{y[0] + 1, y[1], y[2], y[3], y[4]};
    const Limbs denominator{(kMask51 * 2 - 36) + 1 - y[0], kMask51 * 2 - y[1], kMask51 * 2 - y[2],
                            kMask51 * 2 - y[3], kMask51 * 2 - y[4]};
    to_bytes(multiply(numerator, invert(denominator)), u);
}

}  // namespace

void x25519_base(std::span<const std::uint8_t, 32> scalar, std::span<std::uint8_t, 32> out) {
    ensure_sodium();
    std::array<std::uint8_t, 32> edwards{};
    // -1 only for a scalar that clamps to a multiple of the group order, which none does
    // (clamped scalars lie in [2^254, 2^255) and are multiples of 8; 8L > 2^255).
    // The verdict is about the public key made (tests/ct/libsodium.supp).
    if (public_verdict(crypto_scalarmult_ed25519_base(edwards.data(), scalar.data()) == 0)) {
        declassify(edwards.data(), edwards.size());  // a public key, about to be published
        montgomery_u(edwards, out);
        return;
    }
    if (crypto_scalarmult_base(out.data(), scalar.data()) != 0)
        throw Error(ErrorCause::invalid_argument, "X25519 of the base point failed");
}

}  // namespace warp::formats
