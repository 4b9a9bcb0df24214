// The scalar Poly1305 core in radix 2^64 (after OpenSSL's 64-bit C code): short messages,
// the blocks around the vector loop, and r^2..r^4 for it (poly1305_avx2.cpp). A header so a
// kernel that interleaves scalar MAC steps with vector ChaCha rounds can inline it.
//
// h = h0 + h1 2^64 + h2 2^128 with h2 a few bits, r = r0 + r1 2^64. Clamping leaves the low
// two bits of r1 zero, so the terms at 2^128 and 2^192 fold back as 2^130 = 5:
// h1 r1 2^128 = h1 (r1/4) 2^130 = 5 h1 (r1/4), i.e. h1 times s1 = r1 + r1/4 at 2^0. Three
// 64x64->128 multiplications per block plus two small ones; no branches.
#pragma once

#include <cstdint>

#include "engine/scalar/chacha/little_endian.hpp"

namespace warp::x86::avx2::poly_scalar {

__extension__ typedef unsigned __int128 U128;  // a GCC/Clang type, on purpose

inline std::uint64_t low64(U128 x) { return static_cast<std::uint64_t>(x); }
inline std::uint64_t high64(U128 x) { return static_cast<std::uint64_t>(x >> 64); }

struct Value {  // a number mod p in radix 2^64, partially reduced
    std::uint64_t h0, h1, h2;
};

// h * r mod p, partially reduced (h2 <= 4 afterwards).
inline Value multiply(const Value& h, std::uint64_t r0, std::uint64_t r1) {
    const std::uint64_t s1 = r1 + (r1 >> 2);
    const U128 d0 = U128{h.h0} * r0 + U128{h.h1} * s1;
    U128 d1 = U128{h.h0} * r1 + U128{h.h1} * r0 + U128{h.h2 * s1};
    std::uint64_t d2 = h.h2 * r0;
    Value out;
    out.h0 = low64(d0);
    d1 += high64(d0);
    out.h1 = low64(d1);
    d2 += high64(d1);
    // Bits from 2^130 up fold back times 5: (d2 >> 2) * 5 = (d2 & ~3) + (d2 >> 2).
    const std::uint64_t fold = (d2 & ~std::uint64_t{3}) + (d2 >> 2);
    out.h2 = d2 & 3;
    U128 t = U128{out.h0} + fold;
    out.h0 = low64(t);
    t = U128{out.h1} + high64(t);
    out.h1 = low64(t);
    out.h2 += high64(t);
    return out;
}

// h + one full 16-byte block (with its 2^128 bit).
inline Value add_block(const Value& h, const std::uint8_t* block) {
    U128 t = U128{h.h0} + scalar::load_le64(block);
    const std::uint64_t h0 = low64(t);
    t = U128{h.h1} + scalar::load_le64(block + 8) + high64(t);
    return {h0, low64(t), h.h2 + high64(t) + 1};
}

// The unique representative in [0, p): h < 2p here, so one masked subtraction of p.
inline Value reduce_fully(const Value& h) {
    U128 t = U128{h.h0} + 5;
    const std::uint64_t g0 = low64(t);
    t = U128{h.h1} + high64(t);
    const std::uint64_t g1 = low64(t);
    const std::uint64_t g2 = h.h2 + high64(t);
    const std::uint64_t take_g = std::uint64_t{0} - (g2 >> 2);  // all ones when h >= p
    return {(h.h0 & ~take_g) | (g0 & take_g), (h.h1 & ~take_g) | (g1 & take_g),
            (h.h2 & ~take_g) | ((g2 & 3) & take_g)};
}

}  // namespace warp::x86::avx2::poly_scalar
