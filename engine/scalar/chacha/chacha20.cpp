// ChaCha20 (RFC 8439 2.3-2.4), portable.
//
// Two paths share one round function:
// - one block at a time on plain 32-bit words: chacha20_block, short tails, and the whole of
//   chacha20_xor on a big-endian host;
// - four consecutive blocks at once in GCC/Clang vector types (`vector_size(16)`, which compile
//   to SSE2 on x86-64 and NEON on AArch64; no intrinsics, no target flags). The layout is
//   "vertical": vector i holds word i of the four blocks, one block per lane, so each quarter
//   round is the same lane-wise add/xor/rotate and the rounds need no shuffles at all. Only
//   the finished keystream is transposed back to block order, four words at a time.
// ChaCha20 is add-rotate-xor on fixed positions: nothing here branches on or indexes by secret
// data, whichever path runs.
#include "engine/scalar/chacha/chacha20.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

#include "engine/scalar/chacha/little_endian.hpp"
#include "engine/secure_memory.hpp"

namespace warp::scalar {
namespace {

constexpr int kDoubleRounds = 10;  // ChaCha20 = 20 rounds = 10 column + 10 diagonal rounds
constexpr std::size_t kCounterWord = 12;

// RFC 8439 2.3: words 0-3 "expand 32-byte k", 4-11 the key, 12 the block counter, 13-15 the
// nonce, all little-endian.
struct BlockInput {
    std::uint32_t word[16];
};

BlockInput block_input(const std::uint8_t key[32], std::uint32_t counter,
                       const std::uint8_t nonce[12]) {
    BlockInput input{{0x61707865, 0x3320646e, 0x79622d32, 0x6b206574}};
    for (std::size_t i = 0; i < 8; ++i) input.word[4 + i] = load_le32(key + 4 * i);
    input.word[kCounterWord] = counter;
    for (std::size_t i = 0; i < 3; ++i) input.word[13 + i] = load_le32(nonce + 4 * i);
    return input;
}

using U32x4 = std::uint32_t __attribute__((vector_size(16)));

template <int Bits>
std::uint32_t rotate_left(std::uint32_t x) {
    return std::rotl(x, Bits);
}

using U16x8 = std::uint16_t __attribute__((vector_size(16)));

template <int Bits>
U32x4 rotate_left(U32x4 x) {
    if constexpr (Bits == 16) {
        // Swapping the 16-bit halves of each lane is one shuffle per half on SSE2
        // (pshuflw/pshufhw) instead of two shifts, a copy and an OR.
        const U16x8 halves = reinterpret_cast<U16x8>(x);
        return reinterpret_cast<U32x4>(
            __builtin_shufflevector(halves, halves, 1, 0, 3, 2, 5, 4, 7, 6));
    } else {
        return (x << Bits) | (x >> (32 - Bits));
    }
}

// The quarter round and the 20 rounds are written once for any word type with wrapping +, ^
// and a rotate_left overload: std::uint32_t for one block, U32x4 for four.
template <class Word>
inline void quarter_round(Word& a, Word& b, Word& c, Word& d) {
    a += b; d ^= a; d = rotate_left<16>(d);
    c += d; b ^= c; b = rotate_left<12>(b);
    a += b; d ^= a; d = rotate_left<8>(d);
    c += d; b ^= c; b = rotate_left<7>(b);
}

template <class Word>
inline void twenty_rounds(Word (&x)[16]) {
    for (int i = 0; i < kDoubleRounds; ++i) {
        quarter_round(x[0], x[4], x[8], x[12]);  // columns
        quarter_round(x[1], x[5], x[9], x[13]);
        quarter_round(x[2], x[6], x[10], x[14]);
        quarter_round(x[3], x[7], x[11], x[15]);
        quarter_round(x[0], x[5], x[10], x[15]);  // diagonals
        quarter_round(x[1], x[6], x[11], x[12]);
        quarter_round(x[2], x[7], x[8], x[13]);
        quarter_round(x[3], x[4], x[9], x[14]);
    }
}

// One serialised keystream block for input.word[12].
void keystream_block(const BlockInput& input, std::uint8_t out[64]) {
    std::uint32_t x[16];
    std::memcpy(x, input.word, sizeof x);
    twenty_rounds(x);
    for (std::size_t i = 0; i < 16; ++i) store_le32(out + 4 * i, x[i] + input.word[i]);
    secure_wipe(x, sizeof x);
}

// The vector path loads keystream-sized pieces of the message straight into lanes, which
// matches the little-endian serialisation only on a little-endian host.
constexpr bool kFourBlockPath = std::endian::native == std::endian::little;
constexpr std::size_t kFourBlocks = 4 * kChaCha20BlockSize;

U32x4 splat(std::uint32_t v) { return U32x4{v, v, v, v}; }

U32x4 load_16(const std::uint8_t* p) {
    U32x4 v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

void store_16(std::uint8_t* p, U32x4 v) { std::memcpy(p, &v, sizeof v); }

// Lanes {a0 a1 a2 a3}, {b..}, {c..}, {d..} -> {a0 b0 c0 d0}, {a1 b1 c1 d1}, ...: turns four
// words of four blocks into 16 contiguous keystream bytes of each block (unpack lo/hi pairs).
void transpose_4x4(U32x4& a, U32x4& b, U32x4& c, U32x4& d) {
    const U32x4 ab_lo = __builtin_shufflevector(a, b, 0, 4, 1, 5);
    const U32x4 ab_hi = __builtin_shufflevector(a, b, 2, 6, 3, 7);
    const U32x4 cd_lo = __builtin_shufflevector(c, d, 0, 4, 1, 5);
    const U32x4 cd_hi = __builtin_shufflevector(c, d, 2, 6, 3, 7);
    a = __builtin_shufflevector(ab_lo, cd_lo, 0, 1, 4, 5);
    b = __builtin_shufflevector(ab_lo, cd_lo, 2, 3, 6, 7);
    c = __builtin_shufflevector(ab_hi, cd_hi, 0, 1, 4, 5);
    d = __builtin_shufflevector(ab_hi, cd_hi, 2, 3, 6, 7);
}

// XORs blocks input.word[12] .. +3 into 256 bytes in -> out (out == in allowed).
void xor_four_blocks(const BlockInput& input, const std::uint8_t* in, std::uint8_t* out) {
    const U32x4 lane_counter = {0, 1, 2, 3};
    U32x4 x[16];
    for (std::size_t i = 0; i < 16; ++i) x[i] = splat(input.word[i]);
    x[kCounterWord] += lane_counter;
    twenty_rounds(x);
    // The feed-forward re-splats the input instead of keeping a copy: 16 more live vectors
    // would not fit in 16 SSE2 registers.
    for (std::size_t i = 0; i < 16; ++i) x[i] += splat(input.word[i]);
    x[kCounterWord] += lane_counter;

    // Row g of a block is its words 4g..4g+3, i.e. bytes 16g..16g+15.
    for (std::size_t g = 0; g < 4; ++g) {
        U32x4 row[4] = {x[4 * g], x[4 * g + 1], x[4 * g + 2], x[4 * g + 3]};
        transpose_4x4(row[0], row[1], row[2], row[3]);
        for (std::size_t block = 0; block < 4; ++block) {
            const std::size_t at = block * kChaCha20BlockSize + 16 * g;
            store_16(out + at, load_16(in + at) ^ row[block]);
        }
    }
}

}  // namespace

void chacha20_block(const std::uint8_t key[32], std::uint32_t counter,
                    const std::uint8_t nonce[12], std::uint8_t out[64]) {
    BlockInput input = block_input(key, counter, nonce);
    keystream_block(input, out);
    secure_wipe(&input, sizeof input);
}

void chacha20_xor(const std::uint8_t key[32], std::uint32_t counter,
                  const std::uint8_t nonce[12], const std::uint8_t* in, std::uint8_t* out,
                  std::size_t len) {
    BlockInput input = block_input(key, counter, nonce);
    std::uint32_t& block_counter = input.word[kCounterWord];

    if constexpr (kFourBlockPath) {
        for (; len >= kFourBlocks; len -= kFourBlocks) {
            xor_four_blocks(input, in, out);
            block_counter += 4;
            in += kFourBlocks;
            out += kFourBlocks;
        }
        // A tail of two to four blocks still costs less in one four-block pass than block
        // by block.
        if (len > kChaCha20BlockSize) {
            std::uint8_t tail[kFourBlocks];
            std::memcpy(tail, in, len);
            xor_four_blocks(input, tail, tail);
            std::memcpy(out, tail, len);
            secure_wipe(tail, sizeof tail);
            len = 0;
        }
    }

    std::uint8_t keystream[kChaCha20BlockSize];
    while (len > 0) {
        keystream_block(input, keystream);
        const std::size_t n = std::min(len, kChaCha20BlockSize);
        for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<std::uint8_t>(in[i] ^ keystream[i]);
        ++block_counter;
        in += n;
        out += n;
        len -= n;
    }
    secure_wipe(keystream, sizeof keystream);
    secure_wipe(&input, sizeof input);
}

}  // namespace warp::scalar
