// Poly1305 (RFC 8439 2.5) in radix 2^44: h = h0 + h1 2^44 + h2 2^88, likewise r.
//
// Why this radix: with 44/44/42-bit limbs every partial product h_i * r_j fits easily in the
// 128 bits of one 64x64-bit multiplication, six of them summed still do (the two-block step
// below needs that), and a limb takes a message block plus the carries of the previous step
// without overflowing. So a block costs nine multiplications, and carries stay short.
//
// Why "20": products land at 2^0 .. 2^176. Modulo p = 2^130 - 5, 2^130 = 5, so
// 2^132 = 4 * 5 = 20 and 2^176 = 20 * 2^44: the terms at 2^132 and 2^176 fold back into limbs
// 0 and 1 multiplied by 20. Precomputing 20 * r1 and 20 * r2 makes that free.
#include "engine/scalar/chacha/poly1305.hpp"

#include <algorithm>
#include <cstring>

#include "engine/scalar/chacha/little_endian.hpp"
#include "engine/secure_memory.hpp"

namespace warp::scalar {
namespace {

__extension__ typedef unsigned __int128 U128;  // __extension__: a GCC/Clang type, on purpose

constexpr std::uint64_t kMask44 = (std::uint64_t{1} << 44) - 1;
constexpr std::uint64_t kMask42 = (std::uint64_t{1} << 42) - 1;
// The 1 appended to every full 16-byte block (bit 128), as it falls into limb 2 (bit 88).
constexpr std::uint64_t kFullBlockBit = std::uint64_t{1} << 40;

// RFC 8439 2.5.1: r &= 0x0ffffffc0ffffffc0ffffffc0fffffff, as two little-endian halves.
constexpr std::uint64_t kClampLow = 0x0ffffffc0fffffff;
constexpr std::uint64_t kClampHigh = 0x0ffffffc0ffffffc;

std::uint64_t low64(U128 x) { return static_cast<std::uint64_t>(x); }

// A 16-byte block as limbs, with `final_bit` (kFullBlockBit, or 0 for a padded last block).
struct Limbs {
    std::uint64_t l0, l1, l2;
};

Limbs block_limbs(const std::uint8_t* msg, std::uint64_t final_bit) {
    const std::uint64_t low = load_le64(msg);
    const std::uint64_t high = load_le64(msg + 8);
    return {low & kMask44, ((low >> 44) | (high << 20)) & kMask44, (high >> 24) | final_bit};
}

// The three 128-bit columns of a product before carrying (see the top of the file).
struct Columns {
    U128 c0, c1, c2;
};

Columns multiply(const Limbs& a, const std::uint64_t (&k)[5]) {
    const std::uint64_t k0 = k[0], k1 = k[1], k2 = k[2], k1_20 = k[3], k2_20 = k[4];
    return {U128{a.l0} * k0 + U128{a.l1} * k2_20 + U128{a.l2} * k1_20,
            U128{a.l0} * k1 + U128{a.l1} * k0 + U128{a.l2} * k2_20,
            U128{a.l0} * k2 + U128{a.l1} * k1 + U128{a.l2} * k0};
}

// A partial carry: enough to keep every limb small for the next multiplication (l0 < 2^44,
// l1 < 2^44 + 2^15, l2 < 2^42), not a full reduction (that happens once, in finish).
Limbs carry(Columns d) {
    d.c1 += low64(d.c0 >> 44);
    d.c2 += low64(d.c1 >> 44);
    const std::uint64_t top = low64(d.c2 >> 42);
    std::uint64_t l0 = (low64(d.c0) & kMask44) + top * 5;  // 2^130 = 5
    const std::uint64_t l1 = (low64(d.c1) & kMask44) + (l0 >> 44);
    l0 &= kMask44;
    return {l0, l1, low64(d.c2) & kMask42};
}

void set_multiplier(std::uint64_t (&k)[5], const Limbs& value) {
    k[0] = value.l0;
    k[1] = value.l1;
    k[2] = value.l2;
    k[3] = value.l1 * 20;
    k[4] = value.l2 * 20;
}

// h = (h + m) * r mod p (partially reduced) for `blocks` 16-byte blocks.
//
// Two blocks per step as h = (h + m1) * r^2 + m2 * r: the same nine multiplications per
// block, but one carry chain per two blocks instead of per block. The chain (multiply, add
// the columns, carry, carry, fold) is what bounds a block-at-a-time loop, so this runs about
// twice as many multiplications in flight.
void absorb_blocks(Poly1305State& st, const std::uint8_t* msg, std::size_t blocks,
                   std::uint64_t final_bit) {
    Limbs h{st.h[0], st.h[1], st.h[2]};
    for (; blocks >= 2; blocks -= 2, msg += 2 * kPoly1305BlockSize) {
        const Limbs m1 = block_limbs(msg, final_bit);
        const Limbs m2 = block_limbs(msg + kPoly1305BlockSize, final_bit);
        const Columns a = multiply({h.l0 + m1.l0, h.l1 + m1.l1, h.l2 + m1.l2}, st.r_squared);
        const Columns b = multiply(m2, st.r);
        h = carry({a.c0 + b.c0, a.c1 + b.c1, a.c2 + b.c2});
    }
    if (blocks == 1) {
        const Limbs m = block_limbs(msg, final_bit);
        h = carry(multiply({h.l0 + m.l0, h.l1 + m.l1, h.l2 + m.l2}, st.r));
    }
    st.h[0] = h.l0;
    st.h[1] = h.l1;
    st.h[2] = h.l2;
}

}  // namespace

void poly1305_init(Poly1305State& st, const std::uint8_t key[32]) {
    const std::uint64_t r_low = load_le64(key) & kClampLow;
    const std::uint64_t r_high = load_le64(key + 8) & kClampHigh;
    const Limbs r{r_low & kMask44, ((r_low >> 44) | (r_high << 20)) & kMask44, r_high >> 24};
    set_multiplier(st.r, r);
    set_multiplier(st.r_squared, carry(multiply(r, st.r)));
    st.h[0] = st.h[1] = st.h[2] = 0;
    st.s[0] = load_le64(key + 16);
    st.s[1] = load_le64(key + 24);
    std::memset(st.buffer, 0, sizeof st.buffer);
    st.buffered = 0;
}

void poly1305_update(Poly1305State& st, const std::uint8_t* msg, std::size_t len) {
    if (len == 0) return;  // msg may be nullptr then
    if (st.buffered > 0) {
        const std::size_t take = std::min(len, kPoly1305BlockSize - st.buffered);
        std::memcpy(st.buffer + st.buffered, msg, take);
        st.buffered += take;
        msg += take;
        len -= take;
        if (st.buffered < kPoly1305BlockSize) return;
        absorb_blocks(st, st.buffer, 1, kFullBlockBit);
        st.buffered = 0;
    }
    const std::size_t whole = len / kPoly1305BlockSize;
    if (whole > 0) {
        absorb_blocks(st, msg, whole, kFullBlockBit);
        msg += whole * kPoly1305BlockSize;
        len -= whole * kPoly1305BlockSize;
    }
    if (len > 0) {
        std::memcpy(st.buffer, msg, len);
        st.buffered = len;
    }
}

void poly1305_finish(Poly1305State& st, std::uint8_t tag[16]) {
    if (st.buffered > 0) {
        // RFC 8439 2.5.1: a short last block gets its 1 byte right after the message bytes
        // and zeros up to 16 bytes, and no bit 128.
        st.buffer[st.buffered] = 1;
        std::memset(st.buffer + st.buffered + 1, 0, kPoly1305BlockSize - st.buffered - 1);
        absorb_blocks(st, st.buffer, 1, 0);
    }

    // Carry fully: afterwards h0, h1 < 2^44, h2 <= 2^42, so h < 2p.
    std::uint64_t h0 = st.h[0], h1 = st.h[1], h2 = st.h[2];
    std::uint64_t c;
    c = h0 >> 44; h0 &= kMask44; h1 += c;
    c = h1 >> 44; h1 &= kMask44; h2 += c;
    c = h2 >> 42; h2 &= kMask42; h0 += c * 5;
    c = h0 >> 44; h0 &= kMask44; h1 += c;
    c = h1 >> 44; h1 &= kMask44; h2 += c;

    // g = h - p = h + 5 - 2^130. If that does not borrow, h >= p and g is the answer. The
    // choice is a mask taken from g2's sign bit, not a branch.
    std::uint64_t g0 = h0 + 5;
    c = g0 >> 44; g0 &= kMask44;
    std::uint64_t g1 = h1 + c;
    c = g1 >> 44; g1 &= kMask44;
    const std::uint64_t g2 = h2 + c - (std::uint64_t{1} << 42);
    const std::uint64_t take_g = (g2 >> 63) - 1;  // all ones when no borrow
    h0 = (h0 & ~take_g) | (g0 & take_g);
    h1 = (h1 & ~take_g) | (g1 & take_g);
    h2 = (h2 & ~take_g) | (g2 & take_g);

    // tag = (h + s) mod 2^128.
    const std::uint64_t h_low = h0 | (h1 << 44);
    const std::uint64_t h_high = (h1 >> 20) | (h2 << 24);
    const U128 low_sum = U128{h_low} + st.s[0];
    const std::uint64_t tag_high = h_high + st.s[1] + low64(low_sum >> 64);
    store_le64(tag, low64(low_sum));
    store_le64(tag + 8, tag_high);

    secure_wipe(&st, sizeof st);
}

void poly1305_mac(const std::uint8_t key[32], const std::uint8_t* msg, std::size_t len,
                  std::uint8_t tag[16]) {
    Poly1305State st;
    poly1305_init(st, key);
    poly1305_update(st, msg, len);
    poly1305_finish(st, tag);
}

}  // namespace warp::scalar
