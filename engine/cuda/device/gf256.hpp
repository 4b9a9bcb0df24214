// GF(2^8) as AES defines it (FIPS-197 4.2: polynomials modulo x^8 + x^4 + x^3 + x + 1) and the
// AES S-box built from it (FIPS-197 5.1.1: inversion, then the affine map), without tables
// and without branches.
//
// Three users need exactly that: the compile-time generation of the kernels' lookup tables
// (aes_tables.hpp), and, on the host, the constant-time key expansion and H = E(K, 0^128)
// (key_tables.cpp), where a secret byte must choose neither a branch nor a memory address.
// Every function is a fixed sequence of shifts, masks and XORs: a bit of the operand becomes a
// mask (0u - bit), never a condition.
//
// Bytes travel in std::uint32_t (values 0..255) to keep the arithmetic free of narrowing casts.
#pragma once

#include <cstdint>

#include "engine/cuda/device/portability.hpp"

namespace warp::cuda::device {

// a * x.
WARP_HD constexpr std::uint32_t gf256_xtime(std::uint32_t a) {
    return ((a << 1) ^ (0x1bu & (0u - (a >> 7)))) & 0xffu;
}

// a * b: eight conditional additions, each conditioned by a mask.
WARP_HD constexpr std::uint32_t gf256_mul(std::uint32_t a, std::uint32_t b) {
    std::uint32_t product = 0;
    for (int i = 0; i < 8; ++i) {
        product ^= a & (0u - (b & 1u));
        a = gf256_xtime(a);
        b >>= 1;
    }
    return product;
}

// a^254 = a^-1 for a != 0, and 0 for 0 (the S-box's convention), by a fixed addition chain:
// 2, 3, 6, 12, 15, 30, 60, 120, 240, 252, 254.
WARP_HD constexpr std::uint32_t gf256_inverse(std::uint32_t a) {
    const std::uint32_t a2 = gf256_mul(a, a);
    const std::uint32_t a3 = gf256_mul(a2, a);
    const std::uint32_t a6 = gf256_mul(a3, a3);
    const std::uint32_t a12 = gf256_mul(a6, a6);
    const std::uint32_t a15 = gf256_mul(a12, a3);
    std::uint32_t a240 = a15;
    for (int i = 0; i < 4; ++i) a240 = gf256_mul(a240, a240);
    return gf256_mul(gf256_mul(a240, a12), a2);
}

WARP_HD constexpr std::uint32_t rotl8(std::uint32_t b, unsigned n) {
    return ((b << n) | (b >> (8 - n))) & 0xffu;
}

// FIPS-197 5.1.1: the inverse, then b ^ (b <<< 1) ^ (b <<< 2) ^ (b <<< 3) ^ (b <<< 4) ^ 0x63.
WARP_HD constexpr std::uint32_t aes_sbox(std::uint32_t x) {
    const std::uint32_t b = gf256_inverse(x);
    return b ^ rotl8(b, 1) ^ rotl8(b, 2) ^ rotl8(b, 3) ^ rotl8(b, 4) ^ 0x63u;
}

// FIPS-197 5.3.2: the inverse affine map (b <<< 1) ^ (b <<< 3) ^ (b <<< 6) ^ 0x05, then the
// inverse.
WARP_HD constexpr std::uint32_t aes_inv_sbox(std::uint32_t x) {
    return gf256_inverse(rotl8(x, 1) ^ rotl8(x, 3) ^ rotl8(x, 6) ^ 0x05u);
}

}  // namespace warp::cuda::device
