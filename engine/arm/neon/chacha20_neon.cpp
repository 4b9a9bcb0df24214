// ChaCha20 on NEON, "vertical": register i holds word i of four consecutive blocks, one block
// per 32-bit lane. Every quarter round is then the same lane-wise add/xor/rotate on whole
// registers, the column and diagonal rounds differ only in which registers they name, and the
// rounds need no shuffles. The 16 state registers leave 16 of AArch64's 32 vector registers
// for temporaries, so the round loop never touches memory (118 instructions per double round
// with GCC 12). Only the finished keystream is transposed back to block order (4x4 transposes
// of 32-bit words with TRN1/TRN2).
//
// Within a double round the four column (then diagonal) quarter rounds are independent, so
// every step offers four independent vector operations. Running two groups of four blocks
// side by side was tried: 32 state registers fill the whole register file and GCC spilled
// 68 loads/stores per double round (310 instructions per 512 bytes against 118 per 256 bytes
// here), so the bulk loop stays at one group.
//
// Rotations: by 16 one REV32 on halfwords, by 8 one TBL byte permutation, by 12 and 7
// shift-left then shift-right-and-insert (SHL + SRI). Nothing branches on or indexes by secret
// data (TBL's index vector is a constant).
#include "engine/arm/neon/chacha20_neon.hpp"

#include <arm_neon.h>

#include <cstring>

#include "engine/scalar/chacha/little_endian.hpp"
#include "engine/secure_memory.hpp"

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the NEON ChaCha20 stores lanes as little-endian words: AArch64 big-endian is not supported"
#endif

namespace warp::arm::neon {
namespace {

constexpr int kDoubleRounds = 10;

template <int Bits>
inline uint32x4_t rotate_left(uint32x4_t x) {
    if constexpr (Bits == 16) {
        return vreinterpretq_u32_u16(vrev32q_u16(vreinterpretq_u16_u32(x)));
    } else if constexpr (Bits == 8) {
        // Byte j of each word takes byte j-1 (mod 4) of the same word.
        static constexpr std::uint8_t kRotate8[16] = {3, 0, 1, 2, 7, 4, 5, 6,
                                                      11, 8, 9, 10, 15, 12, 13, 14};
        return vreinterpretq_u32_u8(vqtbl1q_u8(vreinterpretq_u8_u32(x), vld1q_u8(kRotate8)));
    } else {
        return vsriq_n_u32(vshlq_n_u32(x, Bits), x, 32 - Bits);
    }
}

// One quarter round on four lanes (four blocks) at once.
inline void quarter_round(uint32x4_t& a, uint32x4_t& b, uint32x4_t& c, uint32x4_t& d) {
    a = vaddq_u32(a, b);
    d = rotate_left<16>(veorq_u32(d, a));
    c = vaddq_u32(c, d);
    b = rotate_left<12>(veorq_u32(b, c));
    a = vaddq_u32(a, b);
    d = rotate_left<8>(veorq_u32(d, a));
    c = vaddq_u32(c, d);
    b = rotate_left<7>(veorq_u32(b, c));
}

// The state of four consecutive blocks, word i of block j in lane j of word[i].
struct Lanes {
    uint32x4_t word[16];
};

inline Lanes initial_lanes(const ChaChaInput& input, std::uint32_t counter) {
    static constexpr std::uint32_t kLaneOffsets[4] = {0, 1, 2, 3};
    Lanes s;
#pragma GCC unroll 16
    for (int i = 0; i < 16; ++i) s.word[i] = vdupq_n_u32(input.word[i]);
    s.word[12] = vaddq_u32(vdupq_n_u32(counter), vld1q_u32(kLaneOffsets));
    return s;
}

// The column round then the diagonal round (RFC 8439 2.3).
inline void double_round(Lanes& s) {
    quarter_round(s.word[0], s.word[4], s.word[8], s.word[12]);  // columns
    quarter_round(s.word[1], s.word[5], s.word[9], s.word[13]);
    quarter_round(s.word[2], s.word[6], s.word[10], s.word[14]);
    quarter_round(s.word[3], s.word[7], s.word[11], s.word[15]);
    quarter_round(s.word[0], s.word[5], s.word[10], s.word[15]);  // diagonals
    quarter_round(s.word[1], s.word[6], s.word[11], s.word[12]);
    quarter_round(s.word[2], s.word[7], s.word[8], s.word[13]);
    quarter_round(s.word[3], s.word[4], s.word[9], s.word[14]);
}

// The keystream of blocks counter .. counter+3: the 20 rounds plus the input.
inline Lanes keystream_lanes(const ChaChaInput& input, std::uint32_t counter) {
    const Lanes start = initial_lanes(input, counter);
    Lanes s = start;
    for (int round = 0; round < kDoubleRounds; ++round) double_round(s);
#pragma GCC unroll 16
    for (int i = 0; i < 16; ++i) s.word[i] = vaddq_u32(s.word[i], start.word[i]);
    return s;
}

// Words 4q..4q+3 of blocks 0..3: the 4x4 transpose of registers 4q..4q+3.
struct Quarter {
    uint32x4_t block[4];
};

inline Quarter transpose(const Lanes& s, int q) {
    const uint32x4_t a = s.word[4 * q], b = s.word[4 * q + 1];
    const uint32x4_t c = s.word[4 * q + 2], d = s.word[4 * q + 3];
    const uint64x2_t ab_even = vreinterpretq_u64_u32(vtrn1q_u32(a, b));  // a0 b0 a2 b2
    const uint64x2_t ab_odd = vreinterpretq_u64_u32(vtrn2q_u32(a, b));   // a1 b1 a3 b3
    const uint64x2_t cd_even = vreinterpretq_u64_u32(vtrn1q_u32(c, d));
    const uint64x2_t cd_odd = vreinterpretq_u64_u32(vtrn2q_u32(c, d));
    return {{vreinterpretq_u32_u64(vtrn1q_u64(ab_even, cd_even)),
             vreinterpretq_u32_u64(vtrn1q_u64(ab_odd, cd_odd)),
             vreinterpretq_u32_u64(vtrn2q_u64(ab_even, cd_even)),
             vreinterpretq_u32_u64(vtrn2q_u64(ab_odd, cd_odd))}};
}

// XORs the four blocks of `s` into 256 bytes of in -> out.
inline void xor_lanes(const Lanes& s, const std::uint8_t* in, std::uint8_t* out) {
#pragma GCC unroll 16
    for (int q = 0; q < 4; ++q) {
        const Quarter t = transpose(s, q);
#pragma GCC unroll 16
        for (int b = 0; b < 4; ++b) {
            const std::size_t at = static_cast<std::size_t>(64 * b + 16 * q);
            vst1q_u8(out + at, veorq_u8(vld1q_u8(in + at), vreinterpretq_u8_u32(t.block[b])));
        }
    }
}

}  // namespace

void chacha20_keystream4(const ChaChaInput& input, std::uint32_t counter,
                         std::uint8_t out[kChaChaLaneBytes]) {
    const Lanes s = keystream_lanes(input, counter);
#pragma GCC unroll 16
    for (int q = 0; q < 4; ++q) {
        const Quarter t = transpose(s, q);
#pragma GCC unroll 16
        for (int b = 0; b < 4; ++b)
            vst1q_u8(out + 64 * b + 16 * q, vreinterpretq_u8_u32(t.block[b]));
    }
}

void chacha20_xor(const ChaChaInput& input, std::uint32_t counter, const std::uint8_t* in,
                  std::uint8_t* out, std::size_t len) {
    for (; len >= kChaChaLaneBytes;
         len -= kChaChaLaneBytes, in += kChaChaLaneBytes, out += kChaChaLaneBytes) {
        xor_lanes(keystream_lanes(input, counter), in, out);
        counter += static_cast<std::uint32_t>(kChaChaLanes);
    }
    if (len == 0) return;
    // A tail under 256 bytes: keystream into a stack buffer, XOR the bytes that exist, wipe.
    alignas(16) std::uint8_t keystream[kChaChaLaneBytes];
    chacha20_keystream4(input, counter, keystream);
    for (std::size_t i = 0; i < len; ++i) out[i] = static_cast<std::uint8_t>(in[i] ^ keystream[i]);
    secure_wipe(keystream, sizeof keystream);
}

}  // namespace warp::arm::neon
