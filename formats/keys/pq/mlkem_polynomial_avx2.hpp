// The AVX2 forms of ML-KEM's ring arithmetic (FIPS 203 sections 4.3, 4.3.1: Algorithms 9-12;
// Algorithm 8, SamplePolyCBD_2; Algorithm 6 for d = 12; Algorithm 7's rejection loop),
// interchangeable with mlkem_polynomial.hpp's portable:: ones: the same Poly in, the same Poly
// out, coefficients in [0, q). x86-64 builds only; mlkem_dispatch.cpp calls them once
// cpu_features() confirmed AVX2, the differential test calls them directly.
#pragma once

#include "formats/keys/pq/mlkem_polynomial.hpp"

#if defined(__x86_64__)
namespace warp::formats::pq::mlkem768::avx2 {

void ntt(Poly& f) noexcept;
void inverse_ntt(Poly& f) noexcept;
void multiply_ntt(const Poly& f, const Poly& g, Poly& out) noexcept;
void multiply_add_ntt(const Poly& f, const Poly& g, Poly& acc) noexcept;
void add(Poly& a, const Poly& b) noexcept;
void subtract(Poly& a, const Poly& b) noexcept;
void sample_cbd2(std::span<const std::uint8_t, 128> bytes, Poly& f) noexcept;
void compress(Poly& f, unsigned d) noexcept;
// ByteDecode12 (Algorithm 6), reduced mod q; returns whether every value was below q.
bool byte_decode_12_checked(std::span<const std::uint8_t, kPolyBytes> in, Poly& f) noexcept;
std::size_t accept_below_q(std::span<const std::uint8_t> block, Poly& f,
                           std::size_t count) noexcept;

}  // namespace warp::formats::pq::mlkem768::avx2
#endif
