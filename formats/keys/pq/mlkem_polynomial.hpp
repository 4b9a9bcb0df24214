// FIPS 203 sections 4.2.1 and 4.3: the ring R_q = Z_q[X]/(X^256 + 1), q = 3329, of ML-KEM, for
// mlkem768.cpp: reduction, the NTT and its inverse, multiplication in the NTT domain,
// compression and the byte encodings. Coefficients are kept reduced, in [0, q).
//
// Constant time: every function runs the same operations for every coefficient value; the
// reductions use multiplications and masks, never a branch or a division instruction (the
// compiler's division by a constant is a multiplication too, but compress() spells its own
// out so that no build setting can change it).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

namespace warp::formats::pq::mlkem768 {

inline constexpr std::uint32_t kQ = 3329;
inline constexpr std::size_t kN = 256;
inline constexpr std::size_t kK = 3;  // ML-KEM-768: k = 3, eta1 = eta2 = 2, du = 10, dv = 4
inline constexpr unsigned kDu = 10;
inline constexpr unsigned kDv = 4;
inline constexpr std::size_t kPolyBytes = 384;  // ByteEncode12 of one polynomial

struct Poly {
    std::array<std::uint16_t, kN> c{};
};
using PolyVec = std::array<Poly, kK>;

// x mod q for x < 2^32 / 64 (every sum of products below is), in constant time.
std::uint16_t reduce(std::uint32_t x) noexcept;

// Algorithms 9, 10, 11: NTT, NTT^-1, MultiplyNTTs (with BaseCaseMultiply), in place / into out.
// These six run on AVX2 where the CPU probe allows (mlkem_dispatch.cpp), else as portable::,
// and so do sample_cbd2, compress, ByteDecode12 and SampleNTT's rejection loop.
void ntt(Poly& f) noexcept;
void inverse_ntt(Poly& f) noexcept;
void multiply_ntt(const Poly& f, const Poly& g, Poly& out) noexcept;  // out = f * g
void multiply_add_ntt(const Poly& f, const Poly& g, Poly& acc) noexcept;  // acc += f * g

void add(Poly& a, const Poly& b) noexcept;       // a += b
void subtract(Poly& a, const Poly& b) noexcept;  // a -= b

// The portable forms of those, called by the dispatch and the differential test.
namespace portable {
void ntt(Poly& f) noexcept;
void inverse_ntt(Poly& f) noexcept;
void multiply_ntt(const Poly& f, const Poly& g, Poly& out) noexcept;
void multiply_add_ntt(const Poly& f, const Poly& g, Poly& acc) noexcept;
void add(Poly& a, const Poly& b) noexcept;
void subtract(Poly& a, const Poly& b) noexcept;
void sample_cbd2(std::span<const std::uint8_t, 128> bytes, Poly& f) noexcept;
void compress(Poly& f, unsigned d) noexcept;
void byte_decode(std::span<const std::uint8_t> in, unsigned d, Poly& f) noexcept;
bool byte_decode_12_checked(std::span<const std::uint8_t, kPolyBytes> in, Poly& f) noexcept;
std::size_t accept_below_q(std::span<const std::uint8_t> block, Poly& f,
                           std::size_t count) noexcept;
}  // namespace portable

// "avx2" or "portable": which of the two the dispatch chose for this process, decided once
// from warp::cpu_features() (so WARPCRYPT_CPU_MASK=avx2 selects the portable code).
const char* active_implementation() noexcept;

// Section 4.2.1, Compress_d and Decompress_d of every coefficient (d in 1..11).
void compress(Poly& f, unsigned d) noexcept;
void decompress(Poly& f, unsigned d) noexcept;
// One value, for the tests (which check compress against its definition for every x < q).
std::uint16_t compress_value(std::uint16_t x, unsigned d) noexcept;

// Algorithms 5 and 6, ByteEncode_d and ByteDecode_d: 32 * d bytes per polynomial. Decoding
// with d = 12 reduces mod q, as FIPS 203 says; decode_12_canonical tells whether every 12-bit
// value was already below q (the encapsulation key check, section 7.2).
void byte_encode(const Poly& f, unsigned d, std::span<std::uint8_t> out) noexcept;
void byte_decode(std::span<const std::uint8_t> in, unsigned d, Poly& f) noexcept;
bool decode_12_canonical(std::span<const std::uint8_t, kPolyBytes> in) noexcept;
// ByteDecode12 and that check in one pass: false when a value is not below q.
bool byte_decode_12_checked(std::span<const std::uint8_t, kPolyBytes> in, Poly& f) noexcept;

// Algorithms 7 and 8: SampleNTT from SHAKE128(rho || j || i) (public data: rejection
// sampling branches on it) and SamplePolyCBD_2 from 128 bytes of PRF output (secret).
void sample_ntt(std::span<const std::uint8_t, 32> rho, std::uint8_t j, std::uint8_t i,
                Poly& f) noexcept;
// SampleNTT for four entries at once, f[s] from rho || indices[s] (j, i), on keccak_x4.hpp's
// four-way SHAKE128.
void sample_ntt_x4(std::span<const std::uint8_t, 32> rho,
                   const std::array<std::array<std::uint8_t, 2>, 4>& indices,
                   const std::array<Poly*, 4>& f) noexcept;
void sample_cbd2(std::span<const std::uint8_t, 128> bytes, Poly& f) noexcept;

// Algorithm 7's loop over one block of XOF output: appends to f the 12-bit values below q,
// from f.c[count] on (up to kN of them), and returns the new count. Public data. Past the
// count it may leave scratch values, which the next block's values overwrite.
std::size_t accept_below_q(std::span<const std::uint8_t> block, Poly& f,
                           std::size_t count) noexcept;

}  // namespace warp::formats::pq::mlkem768
