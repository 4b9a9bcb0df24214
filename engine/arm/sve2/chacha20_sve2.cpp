// ChaCha20 with SVE2, "vertical" as on NEON (engine/arm/neon/chacha20_neon.cpp): register i
// holds word i of four consecutive blocks, one block per 32-bit lane, so both halves of a
// double round are lane-wise operations on whole registers and need no shuffles.
//
// Why SVE2: base NEON has no rotate, so a quarter round costs 14 instructions per register
// (4 ADD, 4 EOR, then REV32 for 16, TBL for 8, SHL + SRI for 12 and for 7); SVE2's XAR does
// "xor, then rotate right" in one, so the quarter round is 4 ADD + 4 XAR = 8, and a double
// round 64 instructions instead of 112. The rest (state setup, the final additions, the
// 4x4 transposes with TRN1/TRN2, loads, XOR, stores) is the NEON kernel's, in SVE form.
//
// Vector length: SVE registers hold 128 bits or more. Only lanes 0..3 (the low 128 bits)
// carry the four blocks; loads and stores are predicated to those 16 bytes (SV_VL4 / SV_VL16),
// TRN1/TRN2 on 32- and 64-bit elements pair elements within each 128-bit segment, and any
// lanes above compute harmless garbage that is never stored. So the code is correct at every
// vector length (tests run it under qemu at 512 and 128 bits) and does the work of four blocks
// at each; every ARMv9 core shipping today implements 128 bits.
//
// Constant time: adds, XARs, TRNs, predicated loads and stores at public offsets; nothing
// branches on or indexes by secret data. Lengths and the block counter are public.
#include "engine/arm/sve2/chacha20_sve2.hpp"

#include <arm_sve.h>

#include "engine/arm/isa.hpp"
#include "engine/secure_memory.hpp"

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the SVE2 ChaCha20 stores lanes as little-endian words: AArch64 big-endian is not supported"
#endif

namespace warp::arm::sve2 {
namespace {

constexpr int kDoubleRounds = 10;

// x := rotate_left(x ^ y, Bits), as XAR's rotate right by 32 - Bits.
template <int Bits>
WARP_TARGET_ARM_SVE2 inline svuint32_t xor_rotate(svuint32_t x, svuint32_t y) {
    return svxar_n_u32(x, y, 32 - Bits);
}

WARP_TARGET_ARM_SVE2 inline svuint32_t add(svuint32_t x, svuint32_t y) {
    return svadd_u32_x(svptrue_b32(), x, y);
}

// One quarter round on four lanes (four blocks) at once.
WARP_TARGET_ARM_SVE2 inline void quarter_round(svuint32_t& a, svuint32_t& b, svuint32_t& c,
                                               svuint32_t& d) {
    a = add(a, b);
    d = xor_rotate<16>(d, a);
    c = add(c, d);
    b = xor_rotate<12>(b, c);
    a = add(a, b);
    d = xor_rotate<8>(d, a);
    c = add(c, d);
    b = xor_rotate<7>(b, c);
}

// SVE vectors are sizeless: they cannot be members of a struct or array, so the 16 words
// of the state are named variables and the rounds spell out which ones they touch.
#define WARP_CHACHA_STATE(X) \
    X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15)

// Words 4q..4q+3 of blocks 0..3, transposed back to block order, go to out + 64 * block + 16 * q
// (out and in already offset by 16 * q): XORed with in when kXor, else stored as they are.
template <bool kXor>
WARP_TARGET_ARM_SVE2 inline void store_quarter(svuint32_t a, svuint32_t b, svuint32_t c,
                                               svuint32_t d, const std::uint8_t* in,
                                               std::uint8_t* out) {
    const svuint64_t ab_even = svreinterpret_u64_u32(svtrn1_u32(a, b));  // a0 b0 a2 b2
    const svuint64_t ab_odd = svreinterpret_u64_u32(svtrn2_u32(a, b));   // a1 b1 a3 b3
    const svuint64_t cd_even = svreinterpret_u64_u32(svtrn1_u32(c, d));
    const svuint64_t cd_odd = svreinterpret_u64_u32(svtrn2_u32(c, d));
    const svuint8_t block0 = svreinterpret_u8_u64(svtrn1_u64(ab_even, cd_even));
    const svuint8_t block1 = svreinterpret_u8_u64(svtrn1_u64(ab_odd, cd_odd));
    const svuint8_t block2 = svreinterpret_u8_u64(svtrn2_u64(ab_even, cd_even));
    const svuint8_t block3 = svreinterpret_u8_u64(svtrn2_u64(ab_odd, cd_odd));
    const svbool_t first16 = svptrue_pat_b8(SV_VL16);
    const auto put = [&](std::size_t at, svuint8_t keystream) WARP_TARGET_ARM_SVE2 {
        if constexpr (kXor)
            keystream = sveor_u8_x(svptrue_b8(), svld1_u8(first16, in + at), keystream);
        svst1_u8(first16, out + at, keystream);
    };
    put(0, block0);
    put(64, block1);
    put(128, block2);
    put(192, block3);
}

// Word i of the input in every lane; word 12, the block counter, counts counter + j in lane j
// (wrapping modulo 2^32, as in the scalar code).
WARP_TARGET_ARM_SVE2 inline svuint32_t initial_word(const ChaChaInput& input, int i,
                                                    std::uint32_t counter) {
    return i == 12 ? svindex_u32(counter, 1) : svdup_n_u32(input.word[i]);
}

// The keystream of blocks counter .. counter+3 (the 20 rounds plus the input): XORed into 256
// bytes of in -> out when kXor, else stored to out.
template <bool kXor>
WARP_TARGET_ARM_SVE2 inline void four_blocks(const ChaChaInput& input, std::uint32_t counter,
                                             const std::uint8_t* in, std::uint8_t* out) {
#define WARP_START(i) const svuint32_t start##i = initial_word(input, i, counter);
#define WARP_WORKING(i) svuint32_t w##i = start##i;
#define WARP_FINISH(i) w##i = add(w##i, start##i);
    WARP_CHACHA_STATE(WARP_START)
    WARP_CHACHA_STATE(WARP_WORKING)
    for (int round = 0; round < kDoubleRounds; ++round) {
        quarter_round(w0, w4, w8, w12);  // columns
        quarter_round(w1, w5, w9, w13);
        quarter_round(w2, w6, w10, w14);
        quarter_round(w3, w7, w11, w15);
        quarter_round(w0, w5, w10, w15);  // diagonals
        quarter_round(w1, w6, w11, w12);
        quarter_round(w2, w7, w8, w13);
        quarter_round(w3, w4, w9, w14);
    }
    WARP_CHACHA_STATE(WARP_FINISH)
#undef WARP_START
#undef WARP_WORKING
#undef WARP_FINISH
    store_quarter<kXor>(w0, w1, w2, w3, in, out);
    store_quarter<kXor>(w4, w5, w6, w7, in + 16, out + 16);
    store_quarter<kXor>(w8, w9, w10, w11, in + 32, out + 32);
    store_quarter<kXor>(w12, w13, w14, w15, in + 48, out + 48);
}

}  // namespace

WARP_TARGET_ARM_SVE2 void chacha20_keystream4(const ChaChaInput& input, std::uint32_t counter,
                                              std::uint8_t out[kChaChaLaneBytes]) {
    four_blocks<false>(input, counter, out, out);
}

WARP_TARGET_ARM_SVE2 void chacha20_xor(const ChaChaInput& input, std::uint32_t counter,
                                       const std::uint8_t* in, std::uint8_t* out,
                                       std::size_t len) {
    for (; len >= kChaChaLaneBytes;
         len -= kChaChaLaneBytes, in += kChaChaLaneBytes, out += kChaChaLaneBytes) {
        four_blocks<true>(input, counter, in, out);
        counter += static_cast<std::uint32_t>(neon::kChaChaLanes);
    }
    if (len == 0) return;
    // A tail under 256 bytes: keystream into a stack buffer, XOR the bytes that exist, wipe.
    alignas(16) std::uint8_t keystream[kChaChaLaneBytes];
    four_blocks<false>(input, counter, keystream, keystream);
    for (std::size_t i = 0; i < len; ++i) out[i] = static_cast<std::uint8_t>(in[i] ^ keystream[i]);
    secure_wipe(keystream, sizeof keystream);
}

}  // namespace warp::arm::sve2
