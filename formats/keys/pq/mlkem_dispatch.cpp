// The one place that decides whether ML-KEM's ring arithmetic (mlkem_polynomial_avx2.cpp) and
// four-way Keccak (keccak_x4_avx2.cpp) run on AVX2 or portably (FIPS 203 section 4.3, FIPS 202
// section 3.3: both compute the same function). Decided once per process from the engine's
// CPU probe, which honours WARPCRYPT_CPU_MASK, so the tests run both paths on one machine.
#include "engine/cpu_features.hpp"
#include "formats/keys/pq/keccak_x4.hpp"
#include "formats/keys/pq/mlkem_polynomial.hpp"
#include "formats/keys/pq/mlkem_polynomial_avx2.hpp"

namespace warp::formats::pq {
namespace {

bool use_avx2() noexcept {
#if defined(__x86_64__)
    static const bool avx2 = cpu_features().avx2;
    return avx2;
#else
    return false;
#endif
}

}  // namespace

// Returns what the chosen form returns (nothing, for most). Without AVX2 in the build, the
// AVX2 branch is compiled out and the portable one runs.
#if defined(__x86_64__)
#define WARP_MLKEM_DISPATCH(call)          \
    do {                                   \
        if (use_avx2()) return avx2::call; \
        return portable::call;             \
    } while (false)
#else
#define WARP_MLKEM_DISPATCH(call) return portable::call
#endif

void keccak_f1600_x4(KeccakX4& state) noexcept {
#if defined(__x86_64__)
    if (use_avx2()) return keccak_f1600_x4_avx2(state);
#endif
    keccak_f1600_x4_portable(state);
}

namespace mlkem768 {

const char* active_implementation() noexcept { return use_avx2() ? "avx2" : "portable"; }

void ntt(Poly& f) noexcept { WARP_MLKEM_DISPATCH(ntt(f)); }
void inverse_ntt(Poly& f) noexcept { WARP_MLKEM_DISPATCH(inverse_ntt(f)); }
void multiply_ntt(const Poly& f, const Poly& g, Poly& out) noexcept {
    WARP_MLKEM_DISPATCH(multiply_ntt(f, g, out));
}
void multiply_add_ntt(const Poly& f, const Poly& g, Poly& acc) noexcept {
    WARP_MLKEM_DISPATCH(multiply_add_ntt(f, g, acc));
}
void add(Poly& a, const Poly& b) noexcept { WARP_MLKEM_DISPATCH(add(a, b)); }
void subtract(Poly& a, const Poly& b) noexcept { WARP_MLKEM_DISPATCH(subtract(a, b)); }
void sample_cbd2(std::span<const std::uint8_t, 128> bytes, Poly& f) noexcept {
    WARP_MLKEM_DISPATCH(sample_cbd2(bytes, f));
}
void compress(Poly& f, unsigned d) noexcept { WARP_MLKEM_DISPATCH(compress(f, d)); }
std::size_t accept_below_q(std::span<const std::uint8_t> block, Poly& f,
                           std::size_t count) noexcept {
    WARP_MLKEM_DISPATCH(accept_below_q(block, f, count));
}
bool byte_decode_12_checked(std::span<const std::uint8_t, kPolyBytes> in, Poly& f) noexcept {
    WARP_MLKEM_DISPATCH(byte_decode_12_checked(in, f));
}

void byte_decode(std::span<const std::uint8_t> in, unsigned d, Poly& f) noexcept {
#if defined(__x86_64__)
    if (d == 12 && use_avx2()) {  // d is a parameter, not data
        avx2::byte_decode_12_checked(in.first<kPolyBytes>(), f);
        return;
    }
#endif
    portable::byte_decode(in, d, f);
}

}  // namespace mlkem768
}  // namespace warp::formats::pq
