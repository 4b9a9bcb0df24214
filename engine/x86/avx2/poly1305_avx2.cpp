// Poly1305 with a scalar radix-2^64 core (poly1305_scalar.hpp) and a 4-way AVX2 loop for
// long messages.
//
// Vector (radix 2^26, five limbs per number, one number per 64-bit lane): 4 lanes run Horner
// with the multiplier r^4, each lane taking every fourth block:
//   lane j: H_j = (...((m_j r^4 + m_{j+4}) r^4 + m_{j+8}) r^4 ...)
// and at the end lane j is multiplied by r^(4-j) and the lanes summed, which is exactly
// sum m_i r^(n-i). _mm256_mul_epu32 multiplies the low 32 bits of each 64-bit lane: 26-bit
// limbs (up to 27 bits after adding a message) times 26-bit limbs (29 bits when premultiplied
// by 5 for the 2^130 = 5 wrap) sum five at a time to under 2^60, so the 64-bit columns never
// overflow and the carries can be propagated lazily, once per step.
//
// Constant time: multiplications, additions, shifts and masks only; the final subtraction of
// p is a mask select. Which path runs depends on the message length only (public).
#include "engine/x86/avx2/poly1305_avx2.hpp"
#include "engine/x86/avx2/poly1305_scalar.hpp"

#include <immintrin.h>

#include <cstring>

#include "engine/scalar/chacha/little_endian.hpp"
#include "engine/secure_memory.hpp"
#include "engine/x86/isa.hpp"

namespace warp::x86::avx2 {
namespace {

using namespace poly_scalar;

using scalar::load_le64;
using scalar::store_le64;

constexpr std::uint64_t kClampLow = 0x0ffffffc0fffffff;   // RFC 8439 2.5.1, low half
constexpr std::uint64_t kClampHigh = 0x0ffffffc0ffffffc;  // and high half
constexpr std::uint64_t kMask26 = (std::uint64_t{1} << 26) - 1;
constexpr std::size_t kLanes = 4;
// Below this many blocks the setup (r^2..r^4, the final lane multiply) costs more than the
// vector loop saves.
constexpr std::size_t kVectorMinBlocks = 16;

void absorb_scalar(PolyState& st, const std::uint8_t* msg, std::size_t blocks) {
    std::uint64_t h0 = st.h0, h1 = st.h1, h2 = st.h2;
    const MacKey key = mac_key(st.r0, st.r1);
    for (; blocks > 0; --blocks, msg += kPolyBlockSize) absorb_block_asm(h0, h1, h2, msg, key);
    st.h0 = h0;
    st.h1 = h1;
    st.h2 = h2;
}

void set_power_limbs(std::uint32_t (&limbs)[9], const Value& reduced) {
    const std::uint64_t l[5] = {reduced.h0 & kMask26, (reduced.h0 >> 26) & kMask26,
                                ((reduced.h0 >> 52) | (reduced.h1 << 12)) & kMask26,
                                (reduced.h1 >> 14) & kMask26,
                                (reduced.h1 >> 40) | (reduced.h2 << 24)};
    for (int j = 0; j < 5; ++j) limbs[j] = static_cast<std::uint32_t>(l[j]);
    for (int j = 1; j < 5; ++j) limbs[4 + j] = static_cast<std::uint32_t>(5 * l[j]);
}

void compute_powers(PolyState& st) {
    Value power{st.r0, st.r1, 0};
    for (int k = 0; k < 4; ++k) {
        if (k > 0) power = multiply(power, st.r0, st.r1);
        set_power_limbs(st.powers.limbs[k], reduce_fully(power));
    }
    secure_wipe(&power, sizeof power);
    st.have_powers = true;
}

// Five 26-bit limbs of four numbers, one number per 64-bit lane.
struct Limbs4 {
    __m256i l[5];
};

// The multiplier: limb j in every lane (r), and 5 * limb j (s, index 1..4).
struct Multiplier4 {
    __m256i r[5];
    __m256i s[5];  // s[0] unused
};

WARP_TARGET_AVX2 static inline Multiplier4 multiplier_broadcast(const std::uint32_t (&p)[9]) {
    Multiplier4 m;
    for (int j = 0; j < 5; ++j) m.r[j] = _mm256_set1_epi64x(p[j]);
    m.s[0] = _mm256_setzero_si256();
    for (int j = 1; j < 5; ++j) m.s[j] = _mm256_set1_epi64x(p[4 + j]);
    return m;
}

WARP_TARGET_AVX2 static inline __m256i lanes(const PolyPowers& pw, const int (&lane_power)[4],
                                             int index) {
    return _mm256_setr_epi64x(pw.limbs[lane_power[0]][index], pw.limbs[lane_power[1]][index],
                              pw.limbs[lane_power[2]][index], pw.limbs[lane_power[3]][index]);
}

// Lane k gets power `lane_power[k]` (index into st.powers).
WARP_TARGET_AVX2 static inline Multiplier4 multiplier_lanes(const PolyPowers& pw,
                                                            const int (&lane_power)[4]) {
    Multiplier4 m;
    for (int j = 0; j < 5; ++j) m.r[j] = lanes(pw, lane_power, j);
    m.s[0] = _mm256_setzero_si256();
    for (int j = 1; j < 5; ++j) m.s[j] = lanes(pw, lane_power, 4 + j);
    return m;
}

WARP_TARGET_AVX2 static inline __m256i mul(__m256i a, __m256i b) { return _mm256_mul_epu32(a, b); }
WARP_TARGET_AVX2 static inline __m256i add(__m256i a, __m256i b) { return _mm256_add_epi64(a, b); }

// Schoolbook product with the 2^130 = 5 wrap folded into the s multipliers; columns unreduced.
WARP_TARGET_AVX2 static inline Limbs4 multiply4(const Limbs4& h, const Multiplier4& m) {
    const __m256i* x = h.l;
    const __m256i *r = m.r, *s = m.s;
    Limbs4 d;
    d.l[0] = add(add(add(mul(x[0], r[0]), mul(x[1], s[4])), add(mul(x[2], s[3]), mul(x[3], s[2]))),
                 mul(x[4], s[1]));
    d.l[1] = add(add(add(mul(x[0], r[1]), mul(x[1], r[0])), add(mul(x[2], s[4]), mul(x[3], s[3]))),
                 mul(x[4], s[2]));
    d.l[2] = add(add(add(mul(x[0], r[2]), mul(x[1], r[1])), add(mul(x[2], r[0]), mul(x[3], s[4]))),
                 mul(x[4], s[3]));
    d.l[3] = add(add(add(mul(x[0], r[3]), mul(x[1], r[2])), add(mul(x[2], r[1]), mul(x[3], r[0]))),
                 mul(x[4], s[4]));
    d.l[4] = add(add(add(mul(x[0], r[4]), mul(x[1], r[3])), add(mul(x[2], r[2]), mul(x[3], r[1]))),
                 mul(x[4], r[0]));
    return d;
}

WARP_TARGET_AVX2 static inline __m256i mask26() {
    return _mm256_set1_epi64x(static_cast<long long>(kMask26));
}

WARP_TARGET_AVX2 static inline void carry_step(Limbs4& d, int from, int to) {
    const __m256i c = _mm256_srli_epi64(d.l[from], 26);
    d.l[from] = _mm256_and_si256(d.l[from], mask26());
    d.l[to] = add(d.l[to], c);
}

// Lazy carry: two interleaved chains (0->1->2->3, 3->4->0*5->1) leave every limb at most a
// little above 26 bits, small enough for the next message add and multiplication.
WARP_TARGET_AVX2 static inline Limbs4 carry4(Limbs4 d) {
    carry_step(d, 0, 1);
    carry_step(d, 3, 4);
    carry_step(d, 1, 2);
    {  // limb 4 overflows past 2^130: its carry re-enters limb 0 times 5
        const __m256i c = _mm256_srli_epi64(d.l[4], 26);
        d.l[4] = _mm256_and_si256(d.l[4], mask26());
        d.l[0] = add(d.l[0], add(c, _mm256_slli_epi64(c, 2)));
    }
    carry_step(d, 2, 3);
    carry_step(d, 0, 1);
    carry_step(d, 3, 4);
    return d;
}

// Four blocks as limbs. Lane order is blocks 0, 2, 1, 3 (what the 64-bit unpacks give);
// the final multiplication accounts for it instead of shuffling every step.
WARP_TARGET_AVX2 static inline Limbs4 load_blocks4(const std::uint8_t* msg) {
    const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(msg));
    const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(msg + 32));
    const __m256i lo = _mm256_unpacklo_epi64(a, b);
    const __m256i hi = _mm256_unpackhi_epi64(a, b);
    const __m256i mask = _mm256_set1_epi64x(static_cast<long long>(kMask26));
    Limbs4 m;
    m.l[0] = _mm256_and_si256(lo, mask);
    m.l[1] = _mm256_and_si256(_mm256_srli_epi64(lo, 26), mask);
    m.l[2] = _mm256_and_si256(_mm256_or_si256(_mm256_srli_epi64(lo, 52), _mm256_slli_epi64(hi, 12)),
                              mask);
    m.l[3] = _mm256_and_si256(_mm256_srli_epi64(hi, 14), mask);
    m.l[4] = _mm256_or_si256(_mm256_srli_epi64(hi, 40), _mm256_set1_epi64x(1 << 24));  // 2^128 bit
    return m;
}

WARP_TARGET_AVX2 static inline std::uint64_t sum_lanes(__m256i x) {
    const __m128i pair = _mm_add_epi64(_mm256_castsi256_si128(x), _mm256_extracti128_si256(x, 1));
    return static_cast<std::uint64_t>(_mm_cvtsi128_si64(_mm_add_epi64(pair, _mm_unpackhi_epi64(pair, pair))));
}

// blocks is a multiple of 4 and at least 4.
WARP_TARGET_AVX2 static void absorb_vector(PolyState& st, const std::uint8_t* msg,
                                           std::size_t blocks) {
    Limbs4 h = load_blocks4(msg);
    {  // the running scalar accumulator joins lane 0 (the first block)
        const std::uint64_t acc[5] = {st.h0 & kMask26, (st.h0 >> 26) & kMask26,
                                      ((st.h0 >> 52) | (st.h1 << 12)) & kMask26,
                                      (st.h1 >> 14) & kMask26, (st.h1 >> 40) | (st.h2 << 24)};
        for (int j = 0; j < 5; ++j)
            h.l[j] = add(h.l[j], _mm256_setr_epi64x(static_cast<long long>(acc[j]), 0, 0, 0));
    }
    const Multiplier4 r4 = multiplier_broadcast(st.powers.limbs[3]);
    for (std::size_t done = kLanes; done < blocks; done += kLanes) {
        h = carry4(multiply4(h, r4));
        const Limbs4 m = load_blocks4(msg + done * kPolyBlockSize);
        for (int j = 0; j < 5; ++j) h.l[j] = add(h.l[j], m.l[j]);
    }
    // Lanes hold blocks 0, 2, 1, 3 of the last group: multiply by r^4, r^2, r^3, r^1.
    const int lane_power[4] = {3, 1, 2, 0};
    const Limbs4 d = multiply4(h, multiplier_lanes(st.powers, lane_power));
    std::uint64_t l[5];
    for (int j = 0; j < 5; ++j) l[j] = sum_lanes(d.l[j]);
    // Carry once around so the limbs are ~26 bits, then repack into radix 2^64.
    for (int j = 0; j < 4; ++j) {
        l[j + 1] += l[j] >> 26;
        l[j] &= kMask26;
    }
    l[0] += (l[4] >> 26) * 5;
    l[4] &= kMask26;
    l[1] += l[0] >> 26;
    l[0] &= kMask26;
    const U128 low = U128{l[0]} + (U128{l[1]} << 26) + (U128{l[2]} << 52);
    const U128 high = U128{high64(low)} + (U128{l[3]} << 14) + (U128{l[4]} << 40);
    st.h0 = low64(low);
    st.h1 = low64(high);
    st.h2 = high64(high);
}

void absorb_blocks(PolyState& st, const std::uint8_t* msg, std::size_t blocks) {
    if (blocks >= kVectorMinBlocks) {
        if (!st.have_powers) compute_powers(st);
        const std::size_t vector_blocks = blocks - blocks % kLanes;
        absorb_vector(st, msg, vector_blocks);
        msg += vector_blocks * kPolyBlockSize;
        blocks -= vector_blocks;
    }
    absorb_scalar(st, msg, blocks);
}

}  // namespace

void poly_init(PolyState& st, const std::uint8_t key[kPolyKeySize]) {
    st.r0 = load_le64(key) & kClampLow;
    st.r1 = load_le64(key + 8) & kClampHigh;
    st.h0 = st.h1 = st.h2 = 0;
    st.s0 = load_le64(key + 16);
    st.s1 = load_le64(key + 24);
    st.have_powers = false;
}

void poly_absorb_padded(PolyState& st, const std::uint8_t* msg, std::size_t len) {
    const std::size_t whole = len / kPolyBlockSize;
    if (whole > 0) absorb_blocks(st, msg, whole);
    if (const std::size_t rest = len % kPolyBlockSize; rest != 0) {
        std::uint8_t block[kPolyBlockSize] = {};
        std::memcpy(block, msg + whole * kPolyBlockSize, rest);
        absorb_scalar(st, block, 1);
        secure_wipe(block, sizeof block);
    }
}

void poly_finish(PolyState& st, std::uint64_t aad_len, std::uint64_t ct_len,
                 std::uint8_t tag[kPolyTagSize]) {
    std::uint8_t lengths[kPolyBlockSize];
    store_le64(lengths, aad_len);
    store_le64(lengths + 8, ct_len);
    absorb_scalar(st, lengths, 1);
    const Value h = reduce_fully({st.h0, st.h1, st.h2});
    // tag = (h + s) mod 2^128
    const U128 low = U128{h.h0} + st.s0;
    store_le64(tag, low64(low));
    store_le64(tag + 8, h.h1 + st.s1 + high64(low));
    secure_wipe(&st, sizeof st);
}

}  // namespace warp::x86::avx2
