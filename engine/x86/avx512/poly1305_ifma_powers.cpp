// The powers of r the IFMA Poly1305 multiplies by (IfmaPowers, poly1305_ifma.hpp): r^1..r^8
// and r^16, once per chunk, in general registers.
//
// Why radix 2^44 here too: a product of two powers needs a multiply of two general numbers,
// and radix 2^44 gives one (after poly1305-donna's 64-bit code): with limbs of 44, 44 and 42
// bits, the terms at 2^132 and above fold back exactly as 2^132 = 4 * 2^130 = 20 (mod p), for
// any factors, clamped or not. The radix-2^64 multiply (poly_scalar::multiply) takes only a
// clamped r, so powers made with it form one chain of fifteen dependent multiplies
// (r, r^2, ..., r^16); here r^2, then r^3 and r^4, then r^5..r^8 side by side, then r^16:
// four multiplies deep, nine in all. At 16 KiB the chain was 3% of a chunk's time.
//
// Constant time: multiplies, adds, shifts and masks, no branch on a value.
#include <cstddef>
#include <cstdint>

#include "engine/secure_memory.hpp"
#include "engine/x86/avx2/poly1305_scalar.hpp"
#include "engine/x86/avx512/poly1305_ifma.hpp"

namespace warp::x86::avx512 {
namespace {

using avx2::poly_scalar::U128;

// A number mod p = 2^130 - 5 as l0 + l1 2^44 + l2 2^88. Partially reduced after times():
// l0 < 2^44, l1 < 2^44 + 2^10, l2 < 2^42, which keeps every product below 2^92.
struct Radix44 {
    std::uint64_t l0, l1, l2;
};

[[gnu::always_inline]] inline Radix44 times(const Radix44& a, const Radix44& b) {
    const std::uint64_t s1 = 20 * b.l1, s2 = 20 * b.l2;  // b's limbs that land at 2^132 up
    const U128 d0 = U128{a.l0} * b.l0 + U128{a.l1} * s2 + U128{a.l2} * s1;
    U128 d1 = U128{a.l0} * b.l1 + U128{a.l1} * b.l0 + U128{a.l2} * s2;
    U128 d2 = U128{a.l0} * b.l2 + U128{a.l1} * b.l1 + U128{a.l2} * b.l0;
    Radix44 out;
    out.l0 = static_cast<std::uint64_t>(d0) & kMask44;
    d1 += d0 >> 44;
    out.l1 = static_cast<std::uint64_t>(d1) & kMask44;
    d2 += d1 >> 44;
    out.l2 = static_cast<std::uint64_t>(d2) & kMask42;
    out.l0 += static_cast<std::uint64_t>(d2 >> 42) * 5;  // 2^130 = 5
    out.l1 += out.l0 >> 44;
    out.l0 &= kMask44;
    return out;
}

// The unique representative in [0, p), limbs of exactly 44, 44 and 42 bits: the limbs the
// IFMA code's bounds assume. Two carry passes bring the value below 2^130, then p is taken
// off under a mask when the value is at least p (when value + 5 reaches 2^130).
[[gnu::always_inline]] inline Radix44 canonical(Radix44 x) {
    for (int pass = 0; pass < 2; ++pass) {
        x.l2 += x.l1 >> 44;
        x.l1 &= kMask44;
        x.l0 += (x.l2 >> 42) * 5;
        x.l2 &= kMask42;
        x.l1 += x.l0 >> 44;
        x.l0 &= kMask44;
    }
    std::uint64_t g0 = x.l0 + 5;
    std::uint64_t g1 = x.l1 + (g0 >> 44);
    const std::uint64_t g2 = x.l2 + (g1 >> 44);
    g0 &= kMask44;
    g1 &= kMask44;
    const std::uint64_t take_g = std::uint64_t{0} - (g2 >> 42);  // all ones when x >= p
    return {(x.l0 & ~take_g) | (g0 & take_g), (x.l1 & ~take_g) | (g1 & take_g),
            (x.l2 & ~take_g) | ((g2 & kMask42) & take_g)};
}

// The five words IfmaPowers keeps of a power: r0, r1, r2, 20 r1, 20 r2, each stored on its
// own (copied through a local array, GCC joined pairs of them into 16-byte loads that could
// not forward from the 8-byte stores: a stall per power, 40% of a 1 KiB chunk).
template <typename Word>
[[gnu::always_inline]] inline void put(const Radix44& power, Word&& word) {
    const Radix44 c = canonical(power);
    word(0) = c.l0;
    word(1) = c.l1;
    word(2) = c.l2;
    word(3) = 20 * c.l1;
    word(4) = 20 * c.l2;
}

}  // namespace

void compute_ifma_powers(IfmaPowers& powers, std::uint64_t r0, std::uint64_t r1,
                         std::size_t highest) {
    if (powers.highest >= highest) return;
    // r^k at power[k]; r < 2^124 (clamped), so its limbs are canonical as they are.
    Radix44 power[kPolyLanes + 1];
    const Limbs44 r = limbs44(Value{r0, r1, 0});
    power[1] = {r.l0, r.l1, r.l2};
    power[2] = times(power[1], power[1]);
    power[3] = times(power[2], power[1]);
    power[4] = times(power[2], power[2]);
    for (std::size_t k = 5; k <= kPolyLanes; ++k) power[k] = times(power[4], power[k - 4]);
    if (powers.highest < kPolyLanes) {
        for (std::size_t k = 1; k <= kPolyLanes; ++k)  // r^k into lane 8 - k
            put(power[k], [&](int i) -> std::uint64_t& { return powers.last[i][kPolyLanes - k]; });
        put(power[kPolyLanes], [&](int i) -> std::uint64_t& { return powers.step[i]; });
    }
    if (highest > kPolyLanes) {
        const Radix44 sixteenth = times(power[kPolyLanes], power[kPolyLanes]);
        put(sixteenth, [&](int i) -> std::uint64_t& { return powers.double_step[i]; });
    }
    secure_wipe(power, sizeof power);
    powers.highest = highest > kPolyLanes ? 2 * kPolyLanes : kPolyLanes;
}

}  // namespace warp::x86::avx512
