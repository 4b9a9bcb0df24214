// The scalar Poly1305 core in radix 2^64 (after OpenSSL's 64-bit C code): short messages,
// the blocks around the vector loop, r^2..r^4 for it (poly1305_avx2.cpp), and the MAC
// blocks the stitched kernel interleaves with its vector ChaCha rounds
// (chacha20_poly1305_stitched.cpp), which is why it is a header.
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

// h0 + h1 2^64 + h2 2^128 mod p, partially reduced (h2 <= 4 afterwards): the bits from 2^130
// up fold back times 5, (h2 >> 2) * 5 = (h2 & ~3) + (h2 >> 2).
inline Value fold_above_2_130(std::uint64_t h0, std::uint64_t h1, std::uint64_t h2) {
    const std::uint64_t fold = (h2 & ~std::uint64_t{3}) + (h2 >> 2);
    Value out;
    U128 t = U128{h0} + fold;
    out.h0 = low64(t);
    t = U128{h1} + high64(t);
    out.h1 = low64(t);
    out.h2 = (h2 & 3) + high64(t);
    return out;
}

// h * r mod p, partially reduced (h2 <= 4 afterwards).
inline Value multiply(const Value& h, std::uint64_t r0, std::uint64_t r1) {
    const std::uint64_t s1 = r1 + (r1 >> 2);
    const U128 d0 = U128{h.h0} * r0 + U128{h.h1} * s1;
    U128 d1 = U128{h.h0} * r1 + U128{h.h1} * r0 + U128{h.h2 * s1};
    d1 += high64(d0);
    const std::uint64_t d2 = h.h2 * r0 + high64(d1);
    return fold_above_2_130(low64(d0), low64(d1), d2);
}

// h = (h + block + 2^128) * r mod p, partially reduced: the arithmetic of multiply above with
// the block added first, written as one asm block so it stays in general registers in the
// middle of a stitched kernel's vector code. (GCC spills unsigned __int128 temporaries to the stack when
// all YMM and most general registers are taken; this block needs three registers of its
// own beside rax:rdx.) r0, r1 and s1 = r1 + r1/4 are memory operands, read by the multiplies.
// The operation order after OpenSSL's poly1305-x86_64.pl __poly1305_block; no branches.
struct MacKey {
    std::uint64_t r0, r1, s1;
};

inline MacKey mac_key(std::uint64_t r0, std::uint64_t r1) { return {r0, r1, r1 + (r1 >> 2)}; }

inline void absorb_block_asm(std::uint64_t& h0, std::uint64_t& h1, std::uint64_t& h2,
                             const std::uint8_t* block, const MacKey& key) {
    std::uint64_t d1, d2, d3;
    __asm__(
        "addq %[m0], %[h0]\n\t"
        "adcq %[m1], %[h1]\n\t"
        "adcq $1, %[h2]\n\t"
        "movq %[r1], %%rax\n\t"
        "mulq %[h0]\n\t"          // h0 r1
        "movq %%rax, %[d2]\n\t"
        "movq %[r0], %%rax\n\t"
        "movq %%rdx, %[d3]\n\t"
        "mulq %[h0]\n\t"          // h0 r0
        "movq %%rax, %[h0]\n\t"
        "movq %[r0], %%rax\n\t"
        "movq %%rdx, %[d1]\n\t"
        "mulq %[h1]\n\t"          // h1 r0
        "addq %%rax, %[d2]\n\t"
        "movq %[s1], %%rax\n\t"
        "adcq %%rdx, %[d3]\n\t"
        "mulq %[h1]\n\t"          // h1 s1
        "movq %[h2], %[h1]\n\t"
        "addq %%rax, %[h0]\n\t"
        "adcq %%rdx, %[d1]\n\t"
        "imulq %[s1], %[h1]\n\t"  // h2 s1
        "addq %[h1], %[d2]\n\t"
        "movq %[d1], %[h1]\n\t"
        "adcq $0, %[d3]\n\t"
        "imulq %[r0], %[h2]\n\t"  // h2 r0
        "addq %[d2], %[h1]\n\t"
        "movq $-4, %%rax\n\t"
        "adcq %[h2], %[d3]\n\t"
        "andq %[d3], %%rax\n\t"   // fold the bits from 2^130 up, times 5
        "movq %[d3], %[h2]\n\t"
        "shrq $2, %[d3]\n\t"
        "andq $3, %[h2]\n\t"
        "addq %[d3], %%rax\n\t"
        "addq %%rax, %[h0]\n\t"
        "adcq $0, %[h1]\n\t"
        "adcq $0, %[h2]"
        : [h0] "+&r"(h0), [h1] "+&r"(h1), [h2] "+&r"(h2), [d1] "=&r"(d1), [d2] "=&r"(d2),
          [d3] "=&r"(d3)
        : [m0] "m"(*reinterpret_cast<const std::uint64_t*>(block)),
          [m1] "m"(*reinterpret_cast<const std::uint64_t*>(block + 8)), [r0] "m"(key.r0),
          [r1] "m"(key.r1), [s1] "m"(key.s1)
        : "rax", "rdx", "cc");
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
