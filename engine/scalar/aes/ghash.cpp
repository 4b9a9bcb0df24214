// GHASH multiplication without tables or carry-less multiply instructions.
//
// Carry-less products from integer products "with holes". Split a 64-bit operand a into four
// words a_0..a_3, where a_i keeps only the bits at positions = i (mod 4), and b likewise. In
// the integer product a_i * b_j, every term lands at a position = i + j (mod 4), and the
// count of terms at one position below 60 is at most 15: it fits in the four bits up to the
// next position of the same residue, so the carries stay in the "holes". Masking that product
// to the positions = i + j (mod 4) therefore leaves the XOR of the terms, i.e. the bits of the
// carry-less product. Only positions 60..63 can count 16 terms, and their carry leaves the
// 64-bit word. So 16 ordinary 64 x 64 -> 64 multiplications (IMUL, any register, one per
// cycle) give the low 64 bits of the carry-less product. Its high 63 bits are the low bits of
// the product of the bit-reversed operands, reversed and shifted by one (the reflection of a
// product is the product of the reflections). Multiplication time does not depend on the
// operands on the CPUs we target, and nothing is looked up, so this is constant time.
//
// 128 x 128 bits: Karatsuba on 64-bit halves, three 64 x 64 products. Several blocks: the
// aggregated form  Y' = (Y + X1) H^4 + X2 H^3 + X3 H^2 + X4 H  adds the unreduced products and
// reduces once; masks and reversals are linear, so they too are applied once per group.
//
// Reduction, in GCM's bit-reflected order (x^0 is the most significant bit): the 255-bit
// product of two reflected elements is the reflected 256-bit product shifted right by one, so
// shift it left by one; then its high 128 bits hold x^0..x^127 and its low 128 bits L hold
// x^128..x^255. With x^128 = 1 + x + x^2 + x^7 (mod P) and multiplication by x being a right
// shift in this order, the result is  high + L + L>>1 + L>>2 + L>>7, where the bits shifted
// out at the bottom (degrees 128..134) are folded once more in the same way: they add
// D = L<<127 + L<<126 + L<<121 to L first.
//
// The `#pragma GCC unroll` lines make -O2 unroll as -O3 would (about 10% faster here).
#include "engine/scalar/aes/ghash.hpp"

#include <cstring>

namespace warp::scalar::aes {
namespace {

// Bits 0, 4, 8, ..., 60; residue_mask(i) are the positions = i (mod 4).
constexpr std::uint64_t kEveryFourthBit = 0x1111111111111111;
constexpr std::uint64_t residue_mask(int i) { return kEveryFourthBit << i; }

inline std::uint64_t reverse_bits(std::uint64_t x) {
    x = ((x >> 1) & 0x5555555555555555) | ((x & 0x5555555555555555) << 1);
    x = ((x >> 2) & 0x3333333333333333) | ((x & 0x3333333333333333) << 2);
    x = ((x >> 4) & 0x0F0F0F0F0F0F0F0F) | ((x & 0x0F0F0F0F0F0F0F0F) << 4);
    return __builtin_bswap64(x);
}

// The operand orders in GhashKey: Karatsuba operand, then orientation.
enum Operand { kLo = 0, kHi = 1, kMid = 2 };
enum Orientation { kAsIs = 0, kReversed = 1 };

using Split = std::uint64_t[4];

void split_by_residue(std::uint64_t x, Split& parts) {
    #pragma GCC unroll 4
    for (int i = 0; i < 4; ++i) parts[i] = x & residue_mask(i);
}

// The low 64 bits of sum over k of the carry-less products a[k] * b[k].
template <std::size_t n>
inline std::uint64_t low_product_sum(const std::uint64_t (&a)[n], const Split* const (&b)[n]) {
    std::uint64_t z0 = 0, z1 = 0, z2 = 0, z3 = 0;  // products at positions = 0, 1, 2, 3 (mod 4)
    #pragma GCC unroll 4
    for (std::size_t k = 0; k < n; ++k) {
        const Split& y = *b[k];
        const std::uint64_t x0 = a[k] & residue_mask(0), x1 = a[k] & residue_mask(1),
                            x2 = a[k] & residue_mask(2), x3 = a[k] & residue_mask(3);
        z0 ^= x0 * y[0];
        z0 ^= x1 * y[3];
        z0 ^= x2 * y[2];
        z0 ^= x3 * y[1];
        z1 ^= x0 * y[1];
        z1 ^= x1 * y[0];
        z1 ^= x2 * y[3];
        z1 ^= x3 * y[2];
        z2 ^= x0 * y[2];
        z2 ^= x1 * y[1];
        z2 ^= x2 * y[0];
        z2 ^= x3 * y[3];
        z3 ^= x0 * y[3];
        z3 ^= x1 * y[2];
        z3 ^= x2 * y[1];
        z3 ^= x3 * y[0];
    }
    return (z0 & residue_mask(0)) | (z1 & residue_mask(1)) | (z2 & residue_mask(2)) |
           (z3 & residue_mask(3));
}

// A 128-bit carry-less product in two halves.
struct Wide {
    std::uint64_t lo = 0;
    std::uint64_t hi = 0;
};

// sum over k of a[k] * b[k] (64 x 64 -> 127 bits), given each a[k] as is and reversed.
template <std::size_t n>
inline Wide product_sum(const std::uint64_t (&a)[n], const std::uint64_t (&a_reversed)[n],
                        const Split* const (&b)[n], const Split* const (&b_reversed)[n]) {
    return {low_product_sum(a, b), reverse_bits(low_product_sum(a_reversed, b_reversed)) >> 1};
}

// The 256-bit product l + m x^64 + h x^128 (Karatsuba: m still holds the product of the
// halves' sums), reduced as described at the top of the file.
inline Block128 reduce(Wide l, Wide h, Wide m) {
    m.lo ^= l.lo ^ h.lo;
    m.hi ^= l.hi ^ h.hi;
    // The 256-bit product v3:v2:v1:v0, shifted left by one.
    std::uint64_t v0 = l.lo, v1 = l.hi ^ m.lo, v2 = h.lo ^ m.hi, v3 = h.hi;
    v3 = (v3 << 1) | (v2 >> 63);
    v2 = (v2 << 1) | (v1 >> 63);
    v1 = (v1 << 1) | (v0 >> 63);
    v0 <<= 1;
    // L = v1:v0. Fold its degrees 128..134 first, then add L * (1 + x + x^2 + x^7).
    v1 ^= (v0 << 63) ^ (v0 << 62) ^ (v0 << 57);
    Block128 r;
    r.hi = v3 ^ v1 ^ (v1 >> 1) ^ (v1 >> 2) ^ (v1 >> 7);
    r.lo = v2 ^ v0 ^ ((v0 >> 1) | (v1 << 63)) ^ ((v0 >> 2) | (v1 << 62)) ^
           ((v0 >> 7) | (v1 << 57));
    return r;
}

using Power = std::uint64_t[3][2][4];

// sum over k of x[k] * h[k] in GF(2^128), where h[k] are prepared powers of H.
template <std::size_t n>
Block128 multiply_sum(const Block128 (&x)[n], const Power* const (&h)[n]) {
    std::uint64_t a[3][2][n];
    const Split* b[3][2][n];
    #pragma GCC unroll 4
    for (std::size_t k = 0; k < n; ++k) {
        const std::uint64_t lo_reversed = reverse_bits(x[k].lo), hi_reversed = reverse_bits(x[k].hi);
        a[kLo][kAsIs][k] = x[k].lo;
        a[kHi][kAsIs][k] = x[k].hi;
        a[kMid][kAsIs][k] = x[k].lo ^ x[k].hi;
        a[kLo][kReversed][k] = lo_reversed;
        a[kHi][kReversed][k] = hi_reversed;
        a[kMid][kReversed][k] = lo_reversed ^ hi_reversed;
        for (int op = 0; op < 3; ++op)
            for (int orientation = 0; orientation < 2; ++orientation)
                b[op][orientation][k] = &(*h[k])[op][orientation];
    }
    const Wide lo = product_sum(a[kLo][kAsIs], a[kLo][kReversed], b[kLo][kAsIs], b[kLo][kReversed]);
    const Wide hi = product_sum(a[kHi][kAsIs], a[kHi][kReversed], b[kHi][kAsIs], b[kHi][kReversed]);
    const Wide mid =
        product_sum(a[kMid][kAsIs], a[kMid][kReversed], b[kMid][kAsIs], b[kMid][kReversed]);
    return reduce(lo, hi, mid);
}

void prepare_power(Power& power, Block128 h) {
    const std::uint64_t operands[3] = {h.lo, h.hi, h.lo ^ h.hi};
    for (int op = 0; op < 3; ++op) {
        split_by_residue(operands[op], power[op][kAsIs]);
        split_by_residue(reverse_bits(operands[op]), power[op][kReversed]);
    }
}

// Absorbs `n` (1..kGhashPowers) whole blocks with one reduction: block k is multiplied by
// H^(n - k).
template <std::size_t n>
void absorb_group(const GhashKey& key, Block128& y, const std::uint8_t* data) {
    Block128 x[n];
    const Power* h[n];
    #pragma GCC unroll 4
    for (std::size_t k = 0; k < n; ++k) {
        x[k] = load_block128(data + 16 * k);
        h[k] = &key.powers[n - 1 - k];
    }
    x[0].hi ^= y.hi;
    x[0].lo ^= y.lo;
    y = multiply_sum(x, h);
}

}  // namespace

Block128 load_block128(const std::uint8_t* p) {
    Block128 v;
    for (int i = 0; i < 8; ++i) {
        v.hi = (v.hi << 8) | p[i];
        v.lo = (v.lo << 8) | p[8 + i];
    }
    return v;
}

void store_block128(std::uint8_t* p, Block128 v) {
    for (int i = 0; i < 8; ++i) {
        p[i] = static_cast<std::uint8_t>(v.hi >> (56 - 8 * i));
        p[8 + i] = static_cast<std::uint8_t>(v.lo >> (56 - 8 * i));
    }
}

void ghash_init(GhashKey& key, const std::uint8_t h[16]) {
    Block128 power[1] = {load_block128(h)};
    prepare_power(key.powers[0], power[0]);
    const Power* const h1[1] = {&key.powers[0]};
    for (std::size_t p = 1; p < kGhashPowers; ++p) {
        power[0] = multiply_sum(power, h1);  // H^(p + 1)
        prepare_power(key.powers[p], power[0]);
    }
}

void ghash_update(const GhashKey& key, Block128& y, const std::uint8_t* data, std::size_t len) {
    for (; len >= 16 * kGhashPowers; len -= 16 * kGhashPowers, data += 16 * kGhashPowers)
        absorb_group<kGhashPowers>(key, y, data);
    switch (len / 16) {
        case 3: absorb_group<3>(key, y, data); break;
        case 2: absorb_group<2>(key, y, data); break;
        case 1: absorb_group<1>(key, y, data); break;
        default: break;
    }
    data += len / 16 * 16;
    len %= 16;
    if (len != 0) {
        std::uint8_t last[16] = {};
        std::memcpy(last, data, len);
        absorb_group<1>(key, y, last);
    }
}

void ghash_block(const GhashKey& key, Block128& y, Block128 x) {
    std::uint8_t bytes[16];
    store_block128(bytes, x);
    absorb_group<1>(key, y, bytes);
}

}  // namespace warp::scalar::aes
