// ML-KEM's NTT, inverse NTT, MultiplyNTTs and coefficient-wise sums on AVX2 (FIPS 203 section
// 4.3, Algorithms 9-12; mlkem_polynomial_avx2.hpp), sixteen coefficients per register; and
// SamplePolyCBD_2 (Algorithm 8), Compress_d (section 4.2.1), ByteDecode12 (Algorithm 6) and
// SampleNTT's rejection loop (Algorithm 7, public data) beside them.
//
// Inside, coefficients are signed 16-bit and products are Montgomery-reduced (a * b * 2^-16
// mod q by vpmullw/vpmulhw, the constants stored times 2^16 mod q); sums are left to grow where
// their bound stays below 2^15 and Barrett-reduced where it would not. Every function ends by
// bringing its output back to [0, q), the representation the portable code uses.
//
// The polynomial is a 16 x 16 matrix, a register per row of 16 consecutive coefficients. NTT
// layers whose butterflies pair coefficients 16 or more apart pair whole rows; the last three
// (distances 8, 4, 2) pair columns, so they run on the transposed matrix, where each lane (a
// row) has its own zeta. No branch or memory index depends on a coefficient.
#include "formats/keys/pq/mlkem_polynomial_avx2.hpp"

#include <immintrin.h>

#include <cstring>

#include "engine/secure_memory.hpp"
#include "engine/x86/isa.hpp"
#include "formats/keys/pq/mlkem_zetas.hpp"
#include "formats/keys/pq/sha3.hpp"

namespace warp::formats::pq::mlkem768::avx2 {
namespace {

using Vec = __m256i;
using Rows = Vec[16];  // a raw array: std::array would drop __m256i's alignment attribute

constexpr std::int32_t kQSigned = static_cast<std::int32_t>(kQ);
constexpr std::uint32_t kQInverse = 62209;  // q^-1 mod 2^16
static_assert((kQ * kQInverse) % 65536 == 1);

// x * 2^16 mod q, centred in [-q/2, q/2] (smaller products, smaller bounds), and the same
// times q^-1 mod 2^16: the second operand of a Montgomery product, ready for vpmullw.
struct Montgomery {
    std::int16_t value;
    std::int16_t value_q_inverse;
};
constexpr Montgomery montgomery(std::uint32_t x) {
    std::int32_t v = static_cast<std::int32_t>((std::uint64_t{x} << 16) % kQ);
    if (v > kQSigned / 2) v -= kQSigned;
    const auto low = static_cast<std::uint16_t>(static_cast<std::uint32_t>(v) * kQInverse);
    return {static_cast<std::int16_t>(v), static_cast<std::int16_t>(low)};
}

constexpr std::array<Montgomery, 128> kZetasMontgomery = [] {
    std::array<Montgomery, 128> z{};
    for (std::size_t i = 0; i < 128; ++i) z[i] = montgomery(kZetas[i]);
    return z;
}();

// The zetas of the transposed layers, one per lane (row): for the layer of distance len (8, 4,
// 2), block b of each row (8 / len of them), row r is block B = (8 / len) r + b of the layer,
// whose zeta index is 128 / len + B forwards (Algorithm 9) and 2 (128 / len) - 1 - B in the
// inverse (Algorithm 10 counts down).
struct LaneZetas {
    alignas(32) std::array<std::int16_t, 16> value;
    alignas(32) std::array<std::int16_t, 16> value_q_inverse;
};
constexpr LaneZetas lane_zetas(unsigned len, unsigned block, bool inverse) {
    LaneZetas z{};
    for (unsigned row = 0; row < 16; ++row) {
        const unsigned index = 128 / len + (8 / len) * row + block;
        const Montgomery m = kZetasMontgomery[inverse ? 2 * (128 / len) - 1 - (index - 128 / len)
                                                      : index];
        z.value[row] = m.value;
        z.value_q_inverse[row] = m.value_q_inverse;
    }
    return z;
}
// [layer][block]: layer 0 is distance 8 (one block), 1 is 4 (two), 2 is 2 (four).
template <bool inverse>
constexpr std::array<std::array<LaneZetas, 4>, 3> kLaneZetas = [] {
    std::array<std::array<LaneZetas, 4>, 3> z{};
    for (unsigned layer = 0; layer < 3; ++layer)
        for (unsigned block = 0; block < (1u << layer); ++block)
            z[layer][block] = lane_zetas(8 >> layer, block, inverse);
    return z;
}();

// MultiplyNTTs' gamma for coefficient pair i, at both of its lanes.
constexpr std::array<std::array<std::int16_t, 256>, 2> kGammasMontgomery = [] {
    std::array<std::array<std::int16_t, 256>, 2> g{};
    for (std::size_t i = 0; i < 128; ++i) {
        const Montgomery m = montgomery(kGammas[i]);
        g[0][2 * i] = g[0][2 * i + 1] = m.value;
        g[1][2 * i] = g[1][2 * i + 1] = m.value_q_inverse;
    }
    return g;
}();

constexpr Montgomery kTwoTo32 = montgomery((1u << 16) % kQ);  // undoes two 2^-16 factors
constexpr Montgomery kInverse128 = montgomery(3303);          // 128^-1 mod q (Algorithm 10)

WARP_TARGET_AVX2 inline Vec broadcast(std::int16_t x) { return _mm256_set1_epi16(x); }
WARP_TARGET_AVX2 inline Vec q_vector() { return broadcast(static_cast<std::int16_t>(kQ)); }

// a * b * 2^-16 mod q, in (-q, q) when |a * b| < q * 2^15: the high half of a * b less the
// high half of m * q, m = a * b * q^-1 mod 2^16 (their low halves are equal).
WARP_TARGET_AVX2 inline Vec montgomery_multiply(Vec a, Vec b, Vec b_q_inverse) {
    const Vec m = _mm256_mullo_epi16(a, b_q_inverse);
    return _mm256_sub_epi16(_mm256_mulhi_epi16(a, b), _mm256_mulhi_epi16(m, q_vector()));
}
WARP_TARGET_AVX2 inline Vec montgomery_multiply(Vec a, Montgomery b) {
    return montgomery_multiply(a, broadcast(b.value), broadcast(b.value_q_inverse));
}
WARP_TARGET_AVX2 inline Vec montgomery_multiply_variable(Vec a, Vec b) {
    const Vec m = _mm256_mullo_epi16(_mm256_mullo_epi16(a, b),
                                     broadcast(static_cast<std::int16_t>(kQInverse)));
    return _mm256_sub_epi16(_mm256_mulhi_epi16(a, b), _mm256_mulhi_epi16(m, q_vector()));
}

// Barrett: a - round(a / q) q for any 16-bit a, within a few of [-q/2, q/2]. The quotient is
// round(a * 20159 / 2^26), 20159 = round(2^26 / q).
WARP_TARGET_AVX2 inline Vec reduce_centred(Vec a) {
    const Vec high = _mm256_mulhi_epi16(a, broadcast(20159));
    const Vec quotient = _mm256_srai_epi16(_mm256_add_epi16(high, broadcast(512)), 10);
    return _mm256_sub_epi16(a, _mm256_mullo_epi16(quotient, q_vector()));
}

// Any 16-bit value to [0, q): Barrett, then q added where the result is negative.
WARP_TARGET_AVX2 inline Vec reduce_to_canonical(Vec a) {
    const Vec r = reduce_centred(a);
    return _mm256_add_epi16(r, _mm256_and_si256(_mm256_srai_epi16(r, 15), q_vector()));
}

// a + b mod q and a - b mod q for a, b in [0, q): the smaller of x and x - q as unsigned is
// x mod q for x < 2q (below q, x - q wraps above it).
WARP_TARGET_AVX2 inline Vec add_mod(Vec a, Vec b) {
    const Vec sum = _mm256_add_epi16(a, b);
    return _mm256_min_epu16(sum, _mm256_sub_epi16(sum, q_vector()));
}
WARP_TARGET_AVX2 inline Vec subtract_mod(Vec a, Vec b) {
    const Vec difference = _mm256_add_epi16(_mm256_sub_epi16(a, b), q_vector());
    return _mm256_min_epu16(difference, _mm256_sub_epi16(difference, q_vector()));
}

WARP_TARGET_AVX2 inline Vec load(const std::uint16_t* p) {
    return _mm256_loadu_si256(reinterpret_cast<const Vec*>(p));
}
WARP_TARGET_AVX2 inline void store(std::uint16_t* p, Vec v) {
    _mm256_storeu_si256(reinterpret_cast<Vec*>(p), v);
}
WARP_TARGET_AVX2 inline Vec load_table(const std::int16_t* p) {
    return _mm256_loadu_si256(reinterpret_cast<const Vec*>(p));
}

WARP_TARGET_AVX2 inline void load_rows(const Poly& f, Rows& v) {
    for (std::size_t row = 0; row < 16; ++row) v[row] = load(f.c.data() + 16 * row);
}
WARP_TARGET_AVX2 inline void store_rows(const Rows& v, Poly& f) {
    for (std::size_t row = 0; row < 16; ++row) store(f.c.data() + 16 * row, v[row]);
}

// The 16 x 16 transpose of 16-bit elements (its own inverse): 2 x 2 blocks of 16-, 32- and
// 64-bit elements within each 128-bit half, then the halves exchanged.
WARP_TARGET_AVX2 void transpose(Rows& v) {
    Rows u;
    for (std::size_t half = 0; half < 16; half += 8) {
        const Vec* r = v + half;
        const Vec s0 = _mm256_unpacklo_epi16(r[0], r[1]), s1 = _mm256_unpackhi_epi16(r[0], r[1]);
        const Vec s2 = _mm256_unpacklo_epi16(r[2], r[3]), s3 = _mm256_unpackhi_epi16(r[2], r[3]);
        const Vec s4 = _mm256_unpacklo_epi16(r[4], r[5]), s5 = _mm256_unpackhi_epi16(r[4], r[5]);
        const Vec s6 = _mm256_unpacklo_epi16(r[6], r[7]), s7 = _mm256_unpackhi_epi16(r[6], r[7]);
        const Vec t0 = _mm256_unpacklo_epi32(s0, s2), t1 = _mm256_unpackhi_epi32(s0, s2);
        const Vec t2 = _mm256_unpacklo_epi32(s1, s3), t3 = _mm256_unpackhi_epi32(s1, s3);
        const Vec t4 = _mm256_unpacklo_epi32(s4, s6), t5 = _mm256_unpackhi_epi32(s4, s6);
        const Vec t6 = _mm256_unpacklo_epi32(s5, s7), t7 = _mm256_unpackhi_epi32(s5, s7);
        // u[half + k]: column k of these 8 rows, then column k + 8.
        u[half + 0] = _mm256_unpacklo_epi64(t0, t4);
        u[half + 1] = _mm256_unpackhi_epi64(t0, t4);
        u[half + 2] = _mm256_unpacklo_epi64(t1, t5);
        u[half + 3] = _mm256_unpackhi_epi64(t1, t5);
        u[half + 4] = _mm256_unpacklo_epi64(t2, t6);
        u[half + 5] = _mm256_unpackhi_epi64(t2, t6);
        u[half + 6] = _mm256_unpacklo_epi64(t3, t7);
        u[half + 7] = _mm256_unpackhi_epi64(t3, t7);
    }
    for (std::size_t k = 0; k < 8; ++k) {
        v[k] = _mm256_permute2x128_si256(u[k], u[8 + k], 0x20);
        v[k + 8] = _mm256_permute2x128_si256(u[k], u[8 + k], 0x31);
    }
}

// Algorithm 9's butterfly: t = zeta b; (a, b) = (a + t, a - t). Each layer adds less than q to
// the bound: from [0, q), seven layers stay within 8q < 2^15.
WARP_TARGET_AVX2 inline void butterfly(Vec& a, Vec& b, Vec zeta, Vec zeta_q_inverse) {
    const Vec t = montgomery_multiply(b, zeta, zeta_q_inverse);
    b = _mm256_sub_epi16(a, t);
    a = _mm256_add_epi16(a, t);
}

// Algorithm 10's: (a, b) = (a + b, zeta (b - a)), the sum Barrett-reduced so no layer grows it.
WARP_TARGET_AVX2 inline void inverse_butterfly(Vec& a, Vec& b, Vec zeta, Vec zeta_q_inverse) {
    const Vec t = a;
    a = reduce_centred(_mm256_add_epi16(a, b));
    b = montgomery_multiply(_mm256_sub_epi16(b, t), zeta, zeta_q_inverse);
}

}  // namespace

WARP_TARGET_AVX2 void ntt(Poly& f) noexcept {
    Rows v;
    load_rows(f, v);
    // Distances 128, 64, 32, 16: rows `step` apart, one zeta per block of rows.
    for (unsigned len = 128; len >= 16; len /= 2) {
        const unsigned step = len / 16;
        for (unsigned row = 0; row < 16; ++row) {
            if ((row & step) != 0) continue;  // the second row of a pair
            const Montgomery zeta = kZetasMontgomery[128 / len + row / (2 * step)];
            butterfly(v[row], v[row + step], broadcast(zeta.value),
                      broadcast(zeta.value_q_inverse));
        }
    }
    // Distances 8, 4, 2 on columns.
    transpose(v);
    for (unsigned layer = 0, len = 8; layer < 3; ++layer, len /= 2) {
        for (unsigned column = 0; column < 16; ++column) {
            if ((column & len) != 0) continue;
            const LaneZetas& zeta = kLaneZetas<false>[layer][column / (2 * len)];
            butterfly(v[column], v[column + len], load_table(zeta.value.data()),
                      load_table(zeta.value_q_inverse.data()));
        }
    }
    transpose(v);
    for (Vec& row : v) row = reduce_to_canonical(row);
    store_rows(v, f);
}

WARP_TARGET_AVX2 void inverse_ntt(Poly& f) noexcept {
    Rows v;
    load_rows(f, v);
    transpose(v);
    for (unsigned layer = 3, len = 2; layer-- > 0; len *= 2) {
        for (unsigned column = 0; column < 16; ++column) {
            if ((column & len) != 0) continue;
            const LaneZetas& zeta = kLaneZetas<true>[layer][column / (2 * len)];
            inverse_butterfly(v[column], v[column + len], load_table(zeta.value.data()),
                              load_table(zeta.value_q_inverse.data()));
        }
    }
    transpose(v);
    for (unsigned len = 16; len <= 128; len *= 2) {
        const unsigned step = len / 16;
        for (unsigned row = 0; row < 16; ++row) {
            if ((row & step) != 0) continue;
            const Montgomery zeta = kZetasMontgomery[2 * (128 / len) - 1 - row / (2 * step)];
            inverse_butterfly(v[row], v[row + step], broadcast(zeta.value),
                              broadcast(zeta.value_q_inverse));
        }
    }
    for (Vec& row : v) row = reduce_to_canonical(montgomery_multiply(row, kInverse128));
    store_rows(v, f);
}

namespace {

// Algorithm 12 on eight coefficient pairs (a0, a1), (b0, b1): c0 = a0 b0 + a1 b1 gamma and
// c1 = a0 b1 + a1 b0, each times 2^-16 mod q, in (-2q, 2q). Even lanes hold c0, odd lanes c1.
WARP_TARGET_AVX2 inline Vec base_case_multiply(Vec a, Vec b, Vec gamma, Vec gamma_q_inverse) {
    const Vec swap_pairs = _mm256_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13,
                                            2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13);
    const Vec products = montgomery_multiply_variable(a, b);  // a0 b0, a1 b1
    const Vec cross = montgomery_multiply_variable(a, _mm256_shuffle_epi8(b, swap_pairs));
    const Vec times_gamma = montgomery_multiply(products, gamma, gamma_q_inverse);  // a1 b1 gamma
    // Even lanes: a0 b0 plus the odd lane's a1 b1 gamma moved down.
    const Vec even = _mm256_add_epi16(products, _mm256_srli_epi32(times_gamma, 16));
    // Odd lanes: a1 b0 plus the even lane's a0 b1 moved up.
    const Vec odd = _mm256_add_epi16(cross, _mm256_slli_epi32(cross, 16));
    return _mm256_blend_epi16(even, odd, 0xAA);
}

// f * g in the NTT domain, 16 coefficients from `offset`, in [0, q).
WARP_TARGET_AVX2 inline Vec product_at(const Poly& f, const Poly& g, std::size_t offset) {
    const Vec c = base_case_multiply(
        load(f.c.data() + offset), load(g.c.data() + offset),
        load_table(kGammasMontgomery[0].data() + offset),
        load_table(kGammasMontgomery[1].data() + offset));
    return reduce_to_canonical(montgomery_multiply(c, kTwoTo32));
}

}  // namespace

WARP_TARGET_AVX2 void multiply_ntt(const Poly& f, const Poly& g, Poly& out) noexcept {
    for (std::size_t offset = 0; offset < kN; offset += 16)
        store(out.c.data() + offset, product_at(f, g, offset));
}

WARP_TARGET_AVX2 void multiply_add_ntt(const Poly& f, const Poly& g, Poly& acc) noexcept {
    for (std::size_t offset = 0; offset < kN; offset += 16)
        store(acc.c.data() + offset,
              add_mod(load(acc.c.data() + offset), product_at(f, g, offset)));
}

WARP_TARGET_AVX2 void add(Poly& a, const Poly& b) noexcept {
    for (std::size_t offset = 0; offset < kN; offset += 16)
        store(a.c.data() + offset, add_mod(load(a.c.data() + offset), load(b.c.data() + offset)));
}

WARP_TARGET_AVX2 void subtract(Poly& a, const Poly& b) noexcept {
    for (std::size_t offset = 0; offset < kN; offset += 16)
        store(a.c.data() + offset,
              subtract_mod(load(a.c.data() + offset), load(b.c.data() + offset)));
}

// Compress_d (section 4.2.1) as the portable compress_value computes it: round(2^d x / q) =
// floor(n / q), n = 2^d x + (q - 1) / 2, the quotient (n * ceil(2^35 / q)) >> 35, exact for
// n < 13,000,000; 64-bit products of 32-bit lanes, four at a time (even lanes, then odd).
WARP_TARGET_AVX2 inline Vec compress_32bit_lanes(Vec x, unsigned d) {
    const Vec inverse = _mm256_set1_epi64x((std::int64_t{1} << 35) / kQ + 1);
    const Vec n = _mm256_add_epi32(_mm256_sll_epi32(x, _mm_cvtsi32_si128(static_cast<int>(d))),
                                   _mm256_set1_epi32((kQSigned - 1) / 2));
    const Vec even = _mm256_srli_epi64(_mm256_mul_epu32(n, inverse), 35);
    const Vec odd = _mm256_srli_epi64(_mm256_mul_epu32(_mm256_srli_epi64(n, 32), inverse), 35);
    const Vec quotient = _mm256_or_si256(even, _mm256_slli_epi64(odd, 32));
    return _mm256_and_si256(quotient, _mm256_set1_epi32((1 << d) - 1));
}

WARP_TARGET_AVX2 void compress(Poly& f, unsigned d) noexcept {
    static_assert((std::uint64_t{1} << 35) % kQ != 0);  // so the constant above is the ceiling
    for (std::size_t offset = 0; offset < kN; offset += 16) {
        const Vec x = load(f.c.data() + offset);
        const Vec low = compress_32bit_lanes(_mm256_cvtepu16_epi32(_mm256_castsi256_si128(x)), d);
        const Vec high =
            compress_32bit_lanes(_mm256_cvtepu16_epi32(_mm256_extracti128_si256(x, 1)), d);
        // packus interleaves the 128-bit halves; the permutation puts them back in order.
        store(f.c.data() + offset,
              _mm256_permute4x64_epi64(_mm256_packus_epi32(low, high), 0xD8));
    }
}

// Algorithm 8 for eta = 2, 32 coefficients per 16 bytes: in each byte, the two bit pairs of
// each nibble summed (x, y), and x - y is the coefficient (the low nibble's first), as
// sample_cbd2 in mlkem_polynomial.cpp. Masks and subtractions only: the bytes are secret.
WARP_TARGET_AVX2 void sample_cbd2(std::span<const std::uint8_t, 128> bytes, Poly& f) noexcept {
    const __m128i pairs = _mm_set1_epi8(0x55), two_bits = _mm_set1_epi8(0x03);
    for (std::size_t i = 0; i < 8; ++i) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(bytes.data() + 16 * i));
        // Each bit pair of `sums` counts the ones in that pair of v (16-bit shifts, then masks).
        const __m128i sums = _mm_add_epi8(_mm_and_si128(v, pairs),
                                          _mm_and_si128(_mm_srli_epi16(v, 1), pairs));
        const auto field = [&](int shift) {
            return _mm_and_si128(_mm_srli_epi16(sums, shift), two_bits);
        };
        const __m128i low = _mm_sub_epi8(field(0), field(2));   // each byte's first coefficient
        const __m128i high = _mm_sub_epi8(field(4), field(6));  // and its second
        for (int half = 0; half < 2; ++half) {
            const __m128i interleaved =
                half == 0 ? _mm_unpacklo_epi8(low, high) : _mm_unpackhi_epi8(low, high);
            const Vec signed_values = _mm256_cvtepi8_epi16(interleaved);  // in [-2, 2]
            const Vec canonical = _mm256_add_epi16(
                signed_values, _mm256_and_si256(_mm256_srai_epi16(signed_values, 15), q_vector()));
            store(f.c.data() + 32 * i + 16 * half, canonical);
        }
    }
}

namespace {

// Sixteen 12-bit values from 24 bytes at p (reading 28): bytes 0-11 into the low 128-bit half,
// 12-23 into the high one, then each value's two bytes into its 16-bit lane, the odd values
// shifted down by their 4 bits.
WARP_TARGET_AVX2 inline Vec unpack_12bit(const std::uint8_t* p) {
    const Vec bytes = _mm256_inserti128_si256(
        _mm256_castsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))),
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 12)), 1);
    const Vec pairs = _mm256_shuffle_epi8(
        bytes, _mm256_setr_epi8(0, 1, 1, 2, 3, 4, 4, 5, 6, 7, 7, 8, 9, 10, 10, 11, 0, 1, 1, 2, 3,
                                4, 4, 5, 6, 7, 7, 8, 9, 10, 10, 11));
    const Vec even = _mm256_and_si256(pairs, broadcast(0x0FFF));
    const Vec odd = _mm256_srli_epi16(pairs, 4);
    return _mm256_blend_epi16(even, odd, 0xAA);
}

}  // namespace

WARP_TARGET_AVX2 bool byte_decode_12_checked(std::span<const std::uint8_t, kPolyBytes> in,
                                             Poly& f) noexcept {
    // A copy with room for the last group's over-read; wiped after (dk_PKE is secret).
    alignas(32) std::array<std::uint8_t, kPolyBytes + 8> padded{};
    std::memcpy(padded.data(), in.data(), kPolyBytes);
    Vec above = _mm256_setzero_si256();
    const Vec q_minus_1 = broadcast(static_cast<std::int16_t>(kQ - 1));
    for (std::size_t group = 0; group < kN / 16; ++group) {
        const Vec raw = unpack_12bit(padded.data() + 24 * group);
        above = _mm256_or_si256(above, _mm256_cmpgt_epi16(raw, q_minus_1));
        // Below 2^12 < 2q: x - q where that does not wrap, as add_mod does.
        store(f.c.data() + 16 * group, _mm256_min_epu16(raw, _mm256_sub_epi16(raw, q_vector())));
    }
    secure_wipe(padded.data(), padded.size());
    return _mm256_testz_si256(above, above) != 0;  // the verdict is public: ek's check
}

namespace {

// For each 8-bit mask of accepted values, the byte shuffle that moves those 16-bit values to
// the front, in order: indexed by which of 8 matrix candidates are below q, which is public.
constexpr std::array<std::array<std::uint8_t, 16>, 256> kCompactAccepted = [] {
    std::array<std::array<std::uint8_t, 16>, 256> table{};
    for (unsigned mask = 0; mask < 256; ++mask) {
        unsigned out = 0;
        for (unsigned lane = 0; lane < 8; ++lane) {
            if ((mask >> lane) & 1) {
                table[mask][2 * out] = static_cast<std::uint8_t>(2 * lane);
                table[mask][2 * out + 1] = static_cast<std::uint8_t>(2 * lane + 1);
                ++out;
            }
        }
        for (unsigned rest = 2 * out; rest < 16; ++rest) table[mask][rest] = 0x80;  // zero
    }
    return table;
}();

WARP_TARGET_AVX2 inline std::size_t append_accepted(__m128i values, unsigned mask,
                                                    std::uint16_t* out) {
    const __m128i shuffle = _mm_loadu_si128(
        reinterpret_cast<const __m128i*>(kCompactAccepted[mask].data()));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out), _mm_shuffle_epi8(values, shuffle));
    return static_cast<std::size_t>(__builtin_popcount(mask));
}

}  // namespace

// Algorithm 7's loop, sixteen candidates at a time: those below q stored compacted by a table
// shuffle (public data: the matrix), while sixteen more fit; the portable loop finishes.
WARP_TARGET_AVX2 std::size_t accept_below_q(std::span<const std::uint8_t> block, Poly& f,
                                            std::size_t count) noexcept {
    std::size_t b = 0;
    alignas(32) std::array<std::uint8_t, kShake128Rate + 8> padded{};
    if (block.size() <= kShake128Rate) {
        std::memcpy(padded.data(), block.data(), block.size());
        const Vec q = q_vector();
        for (; b + 24 <= block.size() && count + 16 <= kN; b += 24) {
            const Vec raw = unpack_12bit(padded.data() + b);
            const Vec below = _mm256_cmpgt_epi16(q, raw);
            // One bit per candidate: bits 0-7 the low half's, bits 16-23 the high half's.
            const auto bits = static_cast<unsigned>(
                _mm256_movemask_epi8(_mm256_packs_epi16(below, _mm256_setzero_si256())));
            count += append_accepted(_mm256_castsi256_si128(raw), bits & 0xFF, f.c.data() + count);
            count += append_accepted(_mm256_extracti128_si256(raw, 1), (bits >> 16) & 0xFF,
                                     f.c.data() + count);
        }
    }
    return portable::accept_below_q(block.subspan(b), f, count);
}

}  // namespace warp::formats::pq::mlkem768::avx2
