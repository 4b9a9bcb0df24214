// GHASH (SP 800-38D, 6.4) in constant time, without tables.
//
// Elements of GF(2^128) are kept as GCM stores them: a 16-byte block read as a big-endian
// 128-bit number, whose most significant bit is the coefficient of x^0 ("bit-reflected").
// Multiplication is a carry-less product built from ordinary integer multiplications (see
// ghash.cpp), four blocks per reduction with precomputed powers of H.
#pragma once

#include <cstddef>
#include <cstdint>

namespace warp::scalar::aes {

// A 16-byte block as two big-endian 64-bit halves: hi = bytes 0..7.
struct Block128 {
    std::uint64_t hi = 0;
    std::uint64_t lo = 0;
};

Block128 load_block128(const std::uint8_t* p);
void store_block128(std::uint8_t* p, Block128 v);

inline constexpr std::size_t kGhashPowers = 4;  // blocks absorbed per reduction

// H^1..H^4, each prepared for the multiplier (ghash.cpp): Karatsuba's three operands (the
// 64-bit halves lo, hi and lo ^ hi), each as is and bit-reversed, each split into four words
// by bit position modulo 4.
struct GhashKey {
    std::uint64_t powers[kGhashPowers][3][2][4];
};

// h is the hash subkey E_K(0^128).
void ghash_init(GhashKey& key, const std::uint8_t h[16]);

// Absorbs `len` bytes into y (y = (y + X_1) H, then + X_2 ...); a final partial block is
// padded with zero bytes, as GCM pads A and C.
void ghash_update(const GhashKey& key, Block128& y, const std::uint8_t* data, std::size_t len);

// Absorbs one block given as a value (GCM's length block).
void ghash_block(const GhashKey& key, Block128& y, Block128 x);

}  // namespace warp::scalar::aes
