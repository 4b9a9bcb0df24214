// Poly1305 on NEON: two lanes of 26-bit limbs, four blocks per step.
//
// Radix 2^26 (five limbs per number) because UMULL/UMLAL multiply 32-bit lanes into 64-bit
// ones: 26-bit limbs times 29-bit multipliers (5 x a limb, for the 2^130 = 5 wrap) sum ten at
// a time to under 2^60, so a step needs one carry chain. The lanes run Horner on alternate
// blocks with the multipliers applied ahead: a step of blocks m0..m3 (lane 0 takes m0 and m2,
// lane 1 takes m1 and m3) is
//   L = L r^4 + (m0 | m1) r^2 + (m2 | m3)
// so after n blocks lane 0 holds sum m_i r^(n-2-i) over even i and lane 1 sum m_i r^(n-1-i)
// over odd i, and fold_into() forms lane0 r^2 + lane1 r, exactly sum m_i r^(n-i). The
// accumulator borrowed from the scalar state joins as part of the first block (h + m0 gets
// r^n, as it must). Multipliers of the steps are broadcast from one 32-bit lane of a register
// (the by-element form of UMLAL), so a step is 50 multiply-accumulates for 64 bytes.
//
// Constant time: multiplies, adds, shifts and masks; how many steps run is the length's
// business (public).
#include "engine/arm/neon/poly1305_neon.hpp"

#include "engine/scalar/chacha/little_endian.hpp"
#include "engine/secure_memory.hpp"

namespace warp::arm::neon {
namespace {

constexpr std::uint32_t kMask26 = (1u << 26) - 1;
constexpr std::uint64_t kMask44 = (std::uint64_t{1} << 44) - 1;
constexpr std::uint64_t kMask42 = (std::uint64_t{1} << 42) - 1;

struct Limbs26 {
    std::uint64_t l[5];
};

// The scalar state's radix-2^44 limbs (l0 < 2^44, l1 < 2^44 + 2^15, l2 < 2^42 + small) as
// 26-bit limbs; adds, not ors, so a limb's bits above its width carry on.
Limbs26 from_radix44(const std::uint64_t* h) {
    const std::uint64_t t0 = h[0], t1 = h[1], t2 = h[2];
    Limbs26 out{{t0 & kMask26, (t0 >> 26) + ((t1 << 18) & kMask26), (t1 >> 8) & kMask26,
                 (t1 >> 34) + ((t2 << 10) & kMask26), t2 >> 16}};
    // Carry so that every limb but the top is under 2^26.
    for (int j = 0; j < 4; ++j) {
        out.l[j + 1] += out.l[j] >> 26;
        out.l[j] &= kMask26;
    }
    return out;
}

// Two passes of carries through the limbs, 2^130 folded back as 5 each time: every limb
// under 2^26 but limb 0 (under 2^26 + a few).
void carry_fully(Limbs26& a) {
    for (int pass = 0; pass < 2; ++pass) {
        for (int j = 0; j < 4; ++j) {
            a.l[j + 1] += a.l[j] >> 26;
            a.l[j] &= kMask26;
        }
        const std::uint64_t top = a.l[4] >> 26;
        a.l[4] &= kMask26;
        a.l[0] += top * 5;  // 2^130 = 5
    }
}

// Carried fully, then back to the scalar state's limbs, within its bounds.
void to_radix44(Limbs26 a, std::uint64_t* h) {
    carry_fully(a);
    std::uint64_t t = a.l[0] + (a.l[1] << 26);
    h[0] = t & kMask44;
    t = (t >> 44) + (a.l[2] << 8) + (a.l[3] << 34);
    h[1] = t & kMask44;
    t = (t >> 44) + (a.l[4] << 16);
    h[2] = t & kMask42;
    h[0] += (t >> 42) * 5;
    h[1] += h[0] >> 44;
    h[0] &= kMask44;
}

// a * b mod p, carried (the powers of r; scalar, once per run).
Limbs26 multiply(const Limbs26& a, const Limbs26& b) {
    std::uint64_t d[5] = {};
    for (int i = 0; i < 5; ++i)
        for (int j = 0; j < 5; ++j) {
            const std::uint64_t product = a.l[i] * b.l[j];
            if (i + j < 5)
                d[i + j] += product;
            else
                d[i + j - 5] += 5 * product;
        }
    Limbs26 out{{d[0], d[1], d[2], d[3], d[4]}};
    carry_fully(out);
    return out;
}

// Where the multipliers sit in by_lane_: r^4 at 0, r^2 at 9; limb j at base + j, 5 x limb j
// (j = 1..4) at base + 4 + j.
constexpr int kPow4 = 0;
constexpr int kPow2 = 9;

template <int kFlat>
inline uint64x2_t mla(uint64x2_t acc, uint32x2_t a, const uint32x4_t (&m)[5]) {
    return vmlal_laneq_u32(acc, a, m[kFlat / 4], kFlat % 4);
}
template <int kFlat>
inline uint64x2_t mul(uint32x2_t a, const uint32x4_t (&m)[5]) {
    return vmull_laneq_u32(a, m[kFlat / 4], kFlat % 4);
}

// d (+)= a * the multiplier at `kBase` (columns of a 5 x 5 limb product, 2^130 = 5 folded).
template <int kBase, bool kStart>
inline void multiply_into(uint64x2_t (&d)[5], const uint32x2_t (&a)[5], const uint32x4_t (&m)[5]) {
    constexpr int R0 = kBase, R1 = kBase + 1, R2 = kBase + 2, R3 = kBase + 3, R4 = kBase + 4;
    constexpr int S1 = kBase + 5, S2 = kBase + 6, S3 = kBase + 7, S4 = kBase + 8;
    if constexpr (kStart) {
        d[0] = mul<R0>(a[0], m);
        d[1] = mul<R1>(a[0], m);
        d[2] = mul<R2>(a[0], m);
        d[3] = mul<R3>(a[0], m);
        d[4] = mul<R4>(a[0], m);
    } else {
        d[0] = mla<R0>(d[0], a[0], m);
        d[1] = mla<R1>(d[1], a[0], m);
        d[2] = mla<R2>(d[2], a[0], m);
        d[3] = mla<R3>(d[3], a[0], m);
        d[4] = mla<R4>(d[4], a[0], m);
    }
    d[0] = mla<S4>(d[0], a[1], m);
    d[1] = mla<R0>(d[1], a[1], m);
    d[2] = mla<R1>(d[2], a[1], m);
    d[3] = mla<R2>(d[3], a[1], m);
    d[4] = mla<R3>(d[4], a[1], m);
    d[0] = mla<S3>(d[0], a[2], m);
    d[1] = mla<S4>(d[1], a[2], m);
    d[2] = mla<R0>(d[2], a[2], m);
    d[3] = mla<R1>(d[3], a[2], m);
    d[4] = mla<R2>(d[4], a[2], m);
    d[0] = mla<S2>(d[0], a[3], m);
    d[1] = mla<S3>(d[1], a[3], m);
    d[2] = mla<S4>(d[2], a[3], m);
    d[3] = mla<R0>(d[3], a[3], m);
    d[4] = mla<R1>(d[4], a[3], m);
    d[0] = mla<S1>(d[0], a[4], m);
    d[1] = mla<S2>(d[1], a[4], m);
    d[2] = mla<S3>(d[2], a[4], m);
    d[3] = mla<S4>(d[3], a[4], m);
    d[4] = mla<R0>(d[4], a[4], m);
}

// (The `#pragma GCC unroll` in the step code: GCC 12 left these five-iteration loops rolled,
// keeping the vectors in memory.)

// One carry chain through the columns, 2^130 folded back as 5: limbs under 2^26 again but
// limb 1 (under 2^26 + 2^6), narrowed to 32-bit lanes.
inline void carry_into(uint64x2_t (&d)[5], uint32x2_t (&out)[5]) {
    const uint64x2_t mask = vdupq_n_u64(kMask26);
    #pragma GCC unroll 5
    for (int j = 0; j < 4; ++j) {
        d[j + 1] = vsraq_n_u64(d[j + 1], d[j], 26);  // d[j+1] += d[j] >> 26
        d[j] = vandq_u64(d[j], mask);
    }
    const uint64x2_t top = vshrq_n_u64(d[4], 26);
    d[4] = vandq_u64(d[4], mask);
    d[0] = vaddq_u64(d[0], vaddq_u64(top, vshlq_n_u64(top, 2)));  // + 5 * top
    d[1] = vsraq_n_u64(d[1], d[0], 26);
    d[0] = vandq_u64(d[0], mask);
    #pragma GCC unroll 5
    for (int j = 0; j < 5; ++j) out[j] = vmovn_u64(d[j]);
}

// Four blocks as 26-bit limbs, block b in lane b: limbs of m0, m1 in the low halves, of m2,
// m3 in the high halves. Each block gets its 2^128 bit (bit 24 of limb 4).
struct BlockLimbs {
    uint32x4_t l[5];
};

inline BlockLimbs load_blocks(const std::uint8_t* msg) {
    const uint32x4x4_t w = vld4q_u32(reinterpret_cast<const std::uint32_t*>(msg));
    const uint32x4_t mask = vdupq_n_u32(kMask26);
    return {{vandq_u32(w.val[0], mask),
             vandq_u32(vsliq_n_u32(vshrq_n_u32(w.val[0], 26), w.val[1], 6), mask),
             vandq_u32(vsliq_n_u32(vshrq_n_u32(w.val[1], 20), w.val[2], 12), mask),
             vandq_u32(vsliq_n_u32(vshrq_n_u32(w.val[2], 14), w.val[3], 18), mask),
             vorrq_u32(vshrq_n_u32(w.val[3], 8), vdupq_n_u32(1u << 24))}};
}

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "load_blocks reads the message as little-endian 32-bit lanes"
#endif

}  // namespace

NeonMac::NeonMac(const scalar::Poly1305State& state) {
    const Limbs26 r = from_radix44(state.r);
    const Limbs26 r2 = from_radix44(state.r_squared);
    const Limbs26 r4 = multiply(r2, r2);
    std::uint32_t flat[20] = {};
    for (int j = 0; j < 5; ++j) {
        flat[kPow4 + j] = static_cast<std::uint32_t>(r4.l[j]);
        flat[kPow2 + j] = static_cast<std::uint32_t>(r2.l[j]);
    }
    for (int j = 1; j < 5; ++j) {
        flat[kPow4 + 4 + j] = static_cast<std::uint32_t>(5 * r4.l[j]);
        flat[kPow2 + 4 + j] = static_cast<std::uint32_t>(5 * r2.l[j]);
    }
    for (int k = 0; k < 5; ++k) by_lane_[k] = vld1q_u32(flat + 4 * k);
    // The fold: lane 0 times r^2, lane 1 times r, as limbs 0..4 then 5 x limbs 1..4.
    for (int j = 0; j < 5; ++j) {
        fold_[j][0] = static_cast<std::uint32_t>(r2.l[j]);
        fold_[j][1] = static_cast<std::uint32_t>(r.l[j]);
    }
    for (int j = 1; j < 5; ++j) {
        fold_[4 + j][0] = static_cast<std::uint32_t>(5 * r2.l[j]);
        fold_[4 + j][1] = static_cast<std::uint32_t>(5 * r.l[j]);
    }
    // The borrowed accumulator waits in lane 0 until the first step adds it to m0.
    const Limbs26 h = from_radix44(state.h);
    for (int j = 0; j < 5; ++j)
        lanes_[j] = vset_lane_u32(static_cast<std::uint32_t>(h.l[j]), vdup_n_u32(0), 0);
    secure_wipe(flat, sizeof flat);
}

NeonMac::~NeonMac() { secure_wipe(this, sizeof *this); }

void NeonMac::absorb(const std::uint8_t* msg, std::size_t steps) {
    if (steps == 0) return;
    uint32x2_t lanes[5];
    #pragma GCC unroll 5
    for (int j = 0; j < 5; ++j) lanes[j] = lanes_[j];
    uint64x2_t d[5];
    if (!started_) {  // the first step: L is only the borrowed h, which joins m0
        const BlockLimbs m = load_blocks(msg);
        uint32x2_t first[5];
        #pragma GCC unroll 5
        for (int j = 0; j < 5; ++j) first[j] = vadd_u32(vget_low_u32(m.l[j]), lanes[j]);
        multiply_into<kPow2, true>(d, first, by_lane_);
        #pragma GCC unroll 5
        for (int j = 0; j < 5; ++j) d[j] = vaddw_high_u32(d[j], m.l[j]);
        carry_into(d, lanes);
        msg += kMacStepBytes;
        --steps;
        started_ = true;
    }
    for (; steps > 0; --steps, msg += kMacStepBytes) {
        const BlockLimbs m = load_blocks(msg);
        uint32x2_t low[5];
        #pragma GCC unroll 5
        for (int j = 0; j < 5; ++j) low[j] = vget_low_u32(m.l[j]);
        multiply_into<kPow4, true>(d, lanes, by_lane_);  // L r^4
        multiply_into<kPow2, false>(d, low, by_lane_);   // + (m0 | m1) r^2
        #pragma GCC unroll 5
        for (int j = 0; j < 5; ++j) d[j] = vaddw_high_u32(d[j], m.l[j]);  // + (m2 | m3)
        carry_into(d, lanes);
    }
    #pragma GCC unroll 5
    for (int j = 0; j < 5; ++j) lanes_[j] = lanes[j];
}

void NeonMac::fold_into(scalar::Poly1305State& state) {
    if (!started_) return;  // nothing absorbed: state's accumulator is still its own
    uint32x2_t fold[9];
    for (int k = 0; k < 9; ++k) fold[k] = vld1_u32(fold_[k]);
    // Columns of lanes x (r^2 | r), the same pattern as multiply_into with per-lane vectors.
    const auto product = [&](int i, int k) { return vmull_u32(lanes_[i], fold[k]); };
    const int S[5] = {0, 5, 6, 7, 8};  // index of 5 x limb j
    uint64x2_t d[5];
    for (int c = 0; c < 5; ++c) {
        d[c] = product(0, c);
        for (int i = 1; i < 5; ++i) {
            const int j = c - i;
            d[c] = vaddq_u64(d[c], j >= 0 ? product(i, j) : product(i, S[j + 5]));
        }
    }
    Limbs26 sum;
    for (int j = 0; j < 5; ++j) sum.l[j] = vgetq_lane_u64(d[j], 0) + vgetq_lane_u64(d[j], 1);
    to_radix44(sum, state.h);
    secure_wipe(&sum, sizeof sum);
    started_ = false;
}

}  // namespace warp::arm::neon
