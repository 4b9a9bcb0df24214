// The word the bitsliced AES works on, and how eight AES blocks become eight such words.
//
// A Slice is two 64-bit lanes (GCC/Clang vector extension). Compilers lower it to SSE2 on
// x86-64 and to NEON on AArch64 with no -m flag, and to pairs of 64-bit operations elsewhere;
// every operation below is a plain bitwise operation, a shift by a constant or a fixed lane
// permutation, so nothing depends on the data's value.
//
// The bitsliced layout ("ct64", one 64-bit lane holds four blocks):
//   plane q[b] holds bit b of every state byte of eight blocks;
//   in lane L, bit  16*row + 4*col + k  is bit b of state byte (row, col) of block 4*L + k,
//   where state byte (row, col) is byte 4*col + row of the 16-byte block (FIPS 197, 3.4).
// So each 64-bit lane is four 16-bit "rows"; inside a row, four 4-bit columns; inside a
// column, one bit per block. ShiftRows rotates each row by a multiple of 4 bits and
// MixColumns rotates the whole lane by multiples of 16 bits.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#if !defined(__GNUC__)
#error "the scalar AES needs the GCC/Clang vector extension (vector_size)"
#endif

namespace warp::scalar::aes {

using Slice = std::uint64_t __attribute__((vector_size(16)));
using Slice32 = std::uint32_t __attribute__((vector_size(16)));
using Slice16 = std::uint16_t __attribute__((vector_size(16)));
using Slice8 = std::uint8_t __attribute__((vector_size(16)));

// The bitsliced state: eight planes.
using Planes = Slice[8];

inline constexpr std::size_t kBlocksPerSlice = 8;  // four per 64-bit lane, two lanes
inline constexpr std::size_t kSliceBytes = kBlocksPerSlice * 16;

constexpr Slice splat(std::uint64_t v) { return Slice{v, v}; }

// a where mask is 0, b where it is 1.
[[gnu::always_inline]] inline Slice select(Slice a, Slice b, Slice mask) { return a ^ ((a ^ b) & mask); }

inline constexpr bool kLittleEndian = std::endian::native == std::endian::little;

// Rotates every 64-bit lane right by 16 * n bits, moving row r + n of each column to row r.
// On a little-endian machine that is a permutation of 16-bit lanes (pshuflw/pshufhw on x86);
// on others, shifts do it.
template <int n>
[[gnu::always_inline]] inline Slice rotate_rows(Slice x) {
    static_assert(n == 1 || n == 2);
    if constexpr (kLittleEndian) {
        const Slice16 v = std::bit_cast<Slice16>(x);
        if constexpr (n == 1)
            return std::bit_cast<Slice>(__builtin_shufflevector(v, v, 1, 2, 3, 0, 5, 6, 7, 4));
        else
            return std::bit_cast<Slice>(__builtin_shufflevector(v, v, 2, 3, 0, 1, 6, 7, 4, 5));
    } else {
        return (x >> (16 * n)) | (x << (64 - 16 * n));
    }
}

// Rotates each 16-bit row right by n bits: column c + n/4 moves to column c.
template <int n>
[[gnu::always_inline]] inline Slice rotate_within_rows(Slice x) {
    const Slice16 v = std::bit_cast<Slice16>(x);
    return std::bit_cast<Slice>(Slice16((v >> n) | (v << (16 - n))));
}

// The 16-bit rows 1 and 3, and rows 2 and 3, of every lane.
inline constexpr std::uint64_t kRows13 = 0xFFFF0000FFFF0000;
inline constexpr std::uint64_t kRows23 = 0xFFFFFFFF00000000;

// Swaps the bits of `a` selected by mask << shift with the bits of `b` selected by mask.
[[gnu::always_inline]] inline void swap_move(Slice& a, Slice& b, Slice mask, int shift) {
    const Slice t = ((a >> shift) ^ b) & mask;
    b ^= t;
    a ^= t << shift;
}

// Transposes, at each byte position, the 8x8 bit matrix formed by the eight words: afterwards
// bit 8*j + m of w[b] is what bit 8*j + b of w[m] was. Its own inverse.
[[gnu::always_inline]] inline void transpose_bits(Planes& w) {
    const Slice m1 = splat(0x5555555555555555), m2 = splat(0x3333333333333333),
                m4 = splat(0x0F0F0F0F0F0F0F0F);
    swap_move(w[0], w[1], m1, 1);
    swap_move(w[2], w[3], m1, 1);
    swap_move(w[4], w[5], m1, 1);
    swap_move(w[6], w[7], m1, 1);
    swap_move(w[0], w[2], m2, 2);
    swap_move(w[1], w[3], m2, 2);
    swap_move(w[4], w[6], m2, 2);
    swap_move(w[5], w[7], m2, 2);
    swap_move(w[0], w[4], m4, 4);
    swap_move(w[1], w[5], m4, 4);
    swap_move(w[2], w[6], m4, 4);
    swap_move(w[3], w[7], m4, 4);
}

// Byte j of each 64-bit lane must be bits 8j..8j+7: true as loaded on little-endian machines.
inline Slice8 bytes_to_lane_order(Slice8 v) {
    if constexpr (kLittleEndian)
        return v;
    else
        return __builtin_shufflevector(v, v, 7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8);
}

inline Slice32 load_block(const std::uint8_t* p) {
    Slice32 v;
    std::memcpy(&v, p, 16);
    return v;
}

// Loads eight 16-byte blocks (in[0..127]) into bitsliced planes.
//
// Before the transpose, word w[k] (k < 4) holds, in lane L, the bytes of columns 0 and 2 of
// block 4L + k interleaved (c0b0, c2b0, c0b1, c2b1, ...), and w[4 + k] columns 1 and 3: byte
// j = 2*row + (col >> 1) of word m = 4*(col & 1) + k. The transpose then puts bit b of that byte
// at bit 8*j + m = 16*row + 4*col + k of plane b, the layout described at the top.
inline void load_planes(const std::uint8_t* in, Planes& q) {
    #pragma GCC unroll 4
    for (std::size_t k = 0; k < 4; ++k) {
        const Slice32 a = load_block(in + 16 * k);        // lane 0
        const Slice32 b = load_block(in + 16 * (k + 4));  // lane 1
        const Slice8 cols01 = std::bit_cast<Slice8>(__builtin_shufflevector(a, b, 0, 4, 1, 5));
        const Slice8 cols23 = std::bit_cast<Slice8>(__builtin_shufflevector(a, b, 2, 6, 3, 7));
        const Slice8 w02 = __builtin_shufflevector(cols01, cols23, 0, 16, 1, 17, 2, 18, 3, 19,
                                                   4, 20, 5, 21, 6, 22, 7, 23);
        const Slice8 w13 = __builtin_shufflevector(cols01, cols23, 8, 24, 9, 25, 10, 26, 11,
                                                   27, 12, 28, 13, 29, 14, 30, 15, 31);
        q[k] = std::bit_cast<Slice>(bytes_to_lane_order(w02));
        q[k + 4] = std::bit_cast<Slice>(bytes_to_lane_order(w13));
    }
    transpose_bits(q);
}

// The inverse of load_planes: hands the eight blocks, in order, to `emit(k, block)`.
// Destroys q.
template <class Emit>
inline void unload_planes(Planes& q, Emit&& emit) {
    transpose_bits(q);
    #pragma GCC unroll 4
    for (std::size_t k = 0; k < 4; ++k) {
        const Slice8 w02 = bytes_to_lane_order(std::bit_cast<Slice8>(q[k]));
        const Slice8 w13 = bytes_to_lane_order(std::bit_cast<Slice8>(q[k + 4]));
        // Even bytes are columns 0 and 1, odd bytes columns 2 and 3 (lane 0, then lane 1).
        const Slice32 cols01 = std::bit_cast<Slice32>(__builtin_shufflevector(
            w02, w13, 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30));
        const Slice32 cols23 = std::bit_cast<Slice32>(__builtin_shufflevector(
            w02, w13, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31));
        emit(k, __builtin_shufflevector(cols01, cols23, 0, 2, 4, 6));
        emit(k + 4, __builtin_shufflevector(cols01, cols23, 1, 3, 5, 7));
    }
}

// Stores the eight blocks to out[0..127].
inline void store_planes(Planes& q, std::uint8_t* out) {
    unload_planes(q, [out](std::size_t k, Slice32 block) { std::memcpy(out + 16 * k, &block, 16); });
}

// out[i] = in[i] ^ block i, for the eight blocks (in == out allowed).
inline void xor_planes_into(Planes& q, const std::uint8_t* in, std::uint8_t* out) {
    unload_planes(q, [in, out](std::size_t k, Slice32 block) {
        block ^= load_block(in + 16 * k);
        std::memcpy(out + 16 * k, &block, 16);
    });
}

}  // namespace warp::scalar::aes
