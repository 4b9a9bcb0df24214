// What lets one header of arithmetic compile as CUDA device code (kernels.cu, nvcc) and as plain
// C++ (the CPU emulator and the tests, g++): the WARP_HD annotation, a portable unroll hint,
// and the few operations whose best form differs between the two (byte swaps, rotations,
// 16-byte loads and stores).
//
// Rule for everything under engine/cuda/device/: no CUDA header, no warp intrinsic (shuffles,
// ballots, __syncthreads), no standard library beyond <cstdint>, so that the emulator runs
// exactly the code the GPU runs. Where the two paths below differ, they compute the same value.
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define WARP_HD __host__ __device__
#define WARP_INLINE __forceinline__
#else
#define WARP_HD
#define WARP_INLINE inline __attribute__((always_inline))
#endif

// Unroll hints: nvcc's device pass knows `#pragma unroll`, g++ `GCC unroll`, and each warns
// about the other's. nvcc's host pass (the host side of kernels.cu) gets none: it runs no
// kernel code.
#if defined(__CUDA_ARCH__)
#define WARP_UNROLL _Pragma("unroll")
#elif defined(__CUDACC__)
#define WARP_UNROLL
#else
#define WARP_UNROLL _Pragma("GCC unroll 16")
#endif

namespace warp::cuda::device {

WARP_HD WARP_INLINE std::uint32_t byte_swap32(std::uint32_t x) {
#if defined(__CUDA_ARCH__)
    return __byte_perm(x, 0, 0x0123);  // one PRMT
#else
    return (x >> 24) | ((x >> 8) & 0xff00u) | ((x << 8) & 0xff0000u) | (x << 24);
#endif
}

// Rotations by a compile-time amount, 0 < n < 32 (one SHF or PRMT on the GPU).
WARP_HD WARP_INLINE constexpr std::uint32_t rotl32(std::uint32_t x, unsigned n) {
    return (x << n) | (x >> (32 - n));
}

// Byte permute (PTX prmt, CUDA __byte_perm, one PRMT on the GPU): byte n of the result is
// byte (selector >> 4n) & 7 of the eight bytes b:a (a's bytes are 0..3, b's 4..7). Only this
// default mode, without the sign-replicating selector bit, is used here.
WARP_HD WARP_INLINE std::uint32_t byte_perm(std::uint32_t a, std::uint32_t b,
                                            std::uint32_t selector) {
#if defined(__CUDA_ARCH__)
    return __byte_perm(a, b, selector);
#else
    const std::uint64_t bytes = (std::uint64_t{b} << 32) | a;
    std::uint32_t out = 0;
    for (unsigned n = 0; n < 4; ++n)
        out |= static_cast<std::uint32_t>((bytes >> (8 * ((selector >> (4 * n)) & 7u))) & 0xffu)
               << (8 * n);
    return out;
#endif
}

// The high word of a * b: on the GPU one IMAD.HI, which runs on the FMA pipe. With b = 2^k
// it is a >> (32 - k), a right shift the ALU pipe need not do. The host computes the same
// product, so the emulator tests this exact arithmetic.
WARP_HD WARP_INLINE std::uint32_t mul_high(std::uint32_t a, std::uint32_t b) {
#if defined(__CUDA_ARCH__)
    return __umulhi(a, b);
#else
    return static_cast<std::uint32_t>((std::uint64_t{a} * b) >> 32);
#endif
}

// A 16-byte block as four 32-bit words, word i = bytes 4i..4i+3 little-endian (byte 4i in the
// low bits): the order a GPU's 128-bit load produces, so blocks need no shuffling on the way in.
struct Words4 {
    std::uint32_t w[4];
};

// Loads and stores of whole blocks at 16-byte-aligned addresses (global or shared memory): one
// 128-bit access on the GPU; byte by byte on the host, which the compiler merges and which
// does not depend on the host's byte order.
WARP_HD WARP_INLINE Words4 load_block_aligned(const std::uint8_t* p) {
#if defined(__CUDA_ARCH__)
    const uint4 v = *reinterpret_cast<const uint4*>(p);
    return {{v.x, v.y, v.z, v.w}};
#else
    Words4 out{};
    for (int i = 0; i < 4; ++i)
        out.w[i] = std::uint32_t{p[4 * i]} | (std::uint32_t{p[4 * i + 1]} << 8) |
                   (std::uint32_t{p[4 * i + 2]} << 16) | (std::uint32_t{p[4 * i + 3]} << 24);
    return out;
#endif
}

WARP_HD WARP_INLINE void store_block_aligned(std::uint8_t* p, const Words4& v) {
#if defined(__CUDA_ARCH__)
    *reinterpret_cast<uint4*>(p) = make_uint4(v.w[0], v.w[1], v.w[2], v.w[3]);
#else
    for (int i = 0; i < 4; ++i)
        for (int b = 0; b < 4; ++b) p[4 * i + b] = static_cast<std::uint8_t>(v.w[i] >> (8 * b));
#endif
}

// Four consecutive 16-byte-aligned words (round keys in shared memory: one broadcast LDS.128).
WARP_HD WARP_INLINE Words4 load_words4(const std::uint32_t* p) {
#if defined(__CUDA_ARCH__)
    const uint4 v = *reinterpret_cast<const uint4*>(p);
    return {{v.x, v.y, v.z, v.w}};
#else
    return {{p[0], p[1], p[2], p[3]}};
#endif
}

WARP_HD WARP_INLINE void store_words4(std::uint32_t* p, const Words4& v) {
#if defined(__CUDA_ARCH__)
    *reinterpret_cast<uint4*>(p) = make_uint4(v.w[0], v.w[1], v.w[2], v.w[3]);
#else
    for (int i = 0; i < 4; ++i) p[i] = v.w[i];
#endif
}

}  // namespace warp::cuda::device
