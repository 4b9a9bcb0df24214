// The AES lookup tables of the CUDA kernels, and how the kernels keep them in shared memory.
//
// Tables. Encryption uses ONE table of 32-bit words, T0[x] = MixColumns applied to the column
// (S[x], 0, 0, 0), i.e. the bytes (2·S[x], S[x], S[x], 3·S[x]); the contributions of rows 1..3
// are T0 rotated by 8, 16 and 24 bits (one SHF or PRMT each), so the other three classic tables
// cost no memory. The last round has no MixColumns and needs S[x] itself: it is byte 1 (and
// byte 2) of T0[x]. Decryption (the equivalent inverse cipher, FIPS-197 5.3.5) uses InvT0[x] =
// InvMixColumns of (InvS[x], 0, 0, 0) = (14, 9, 13, 11)·InvS[x] and, for its last round, the
// inverse S-box packed four bytes to a word. All three are generated here at compile time
// from the GF(2^8) definition (gf256.hpp); no table is typed in.
//
// Byte order: a column is a 32-bit word with row 0 in the LOW byte, which is how a 128-bit
// load of a block delivers it (portability.hpp, Words4). So T0[x] = 2s | s << 8 | s << 16 |
// 3s << 24, and row r's table is rotl(T0[x], 8r).
//
// Timing position. A table lookup with a secret index is the classic cache-timing leak of
// software AES. The kernels keep every table in SHARED memory (which has no cache: its timing
// depends only on bank conflicts) REPLICATED 32 times, one copy per lane of a warp, laid out so
// that lane L's copy of a word always sits in bank L (shared memory has 32 banks of 4-byte
// words; the bank of byte offset o is bits 2..6 of o). Whatever indices the 32 lanes of a
// warp look up, each lane reads its own bank: there is never a bank conflict, every lookup
// instruction takes the same time, and that time says nothing about the (secret) indices.
// What this does not cover: a GPU shared with an attacker's concurrent kernels, or power and
// EM measurements; and on the CPU the emulator runs these same lookups through the cache,
// which is why it is a test tool and never a user backend.
//
// Two layouts, both with lane L in bits 2..6 of every byte offset:
// - replicated (the packed inverse S-box, the GHASH tables of gf128.hpp): word i of lane L at
//   byte offset i * 128 + L * 4;
// - PAIRED (the round tables): two 256-entry tables A and B interleaved, entry i of lane L at
//   byte offset i * 256 + L * 4 for A and i * 256 + 128 + L * 4 for B. Encryption pairs T0
//   with T2 = rotl(T0, 16), decryption InvT0 with InvT2 = rotl(InvT0, 16): 64 KiB each. The
//   point of the 256-byte stride is that the index is a whole byte of the offset, so ONE byte
//   permute (PRMT) builds the offset from the state column's byte and a per-thread word
//   holding L * 4 (+ 128 for B): pair_lookup below. Rows 1 and 3 use the same two tables
//   rotated by 8 bits, which costs the round one rotation per column (aes_rounds.hpp).
// Every access goes through these accessors; the emulator and the device share them.
#pragma once

#include <cstdint>

#include "engine/cuda/device/gf256.hpp"
#include "engine/cuda/device/portability.hpp"

namespace warp::cuda::device {

inline constexpr std::uint32_t kLanes = 32;  // copies of each table: one per lane of a warp

inline constexpr std::uint32_t kAesTableEntries = 256;
inline constexpr std::uint32_t kInvSboxWords = kAesTableEntries / 4;  // four bytes per word
// Words of the tables in shared memory.
inline constexpr std::uint32_t kAesPairWords = kAesTableEntries * 2 * kLanes;  // 64 KiB
inline constexpr std::uint32_t kInvSboxTableWords = kInvSboxWords * kLanes;    // 8 KiB

WARP_HD constexpr std::uint32_t aes_t0_entry(std::uint32_t x) {
    const std::uint32_t s = aes_sbox(x);
    return gf256_mul(s, 2) | (s << 8) | (s << 16) | (gf256_mul(s, 3) << 24);
}

WARP_HD constexpr std::uint32_t aes_inv_t0_entry(std::uint32_t x) {
    const std::uint32_t s = aes_inv_sbox(x);
    return gf256_mul(s, 14) | (gf256_mul(s, 9) << 8) | (gf256_mul(s, 13) << 16) |
           (gf256_mul(s, 11) << 24);
}

// InvS[4k] | InvS[4k+1] << 8 | InvS[4k+2] << 16 | InvS[4k+3] << 24.
WARP_HD constexpr std::uint32_t aes_inv_sbox_word(std::uint32_t k) {
    std::uint32_t word = 0;
    for (std::uint32_t b = 0; b < 4; ++b) word |= aes_inv_sbox(4 * k + b) << (8 * b);
    return word;
}

// The tables, one copy, as the load phases read them to fill shared memory.
struct AesTableSource {
    std::uint32_t t0[kAesTableEntries];
    std::uint32_t inv_t0[kAesTableEntries];
    std::uint32_t inv_sbox[kInvSboxWords];
};

WARP_HD constexpr AesTableSource make_aes_table_source() {
    AesTableSource source{};
    for (std::uint32_t x = 0; x < kAesTableEntries; ++x) {
        source.t0[x] = aes_t0_entry(x);
        source.inv_t0[x] = aes_inv_t0_entry(x);
    }
    for (std::uint32_t k = 0; k < kInvSboxWords; ++k) source.inv_sbox[k] = aes_inv_sbox_word(k);
    return source;
}

// A device variable cannot be read by host code and vice versa, so each side has its copy of
// the same constant and aes_table_source() picks the one of the side it is compiled for.
inline constexpr AesTableSource kAesTableSourceHost = make_aes_table_source();
#if defined(__CUDACC__)
__device__ static constexpr AesTableSource kAesTableSourceDevice = make_aes_table_source();
#endif

WARP_HD WARP_INLINE const AesTableSource& aes_table_source() {
#if defined(__CUDA_ARCH__)
    return kAesTableSourceDevice;
#else
    return kAesTableSourceHost;
#endif
}

// FIPS-197 5.1.1's example S[0x53] = 0xed, and Te0[0] of the usual tables (c6 63 63 a5).
static_assert(aes_sbox(0x53) == 0xed && aes_inv_sbox(0xed) == 0x53);
static_assert(kAesTableSourceHost.t0[0] == 0xa56363c6u);

// Lane `lane`'s copy of word `index` of a replicated table (see the timing position above).
WARP_HD WARP_INLINE std::uint32_t replicated_load(const std::uint32_t* table, std::uint32_t index,
                                                  std::uint32_t lane) {
    return table[(index * kLanes) | lane];
}

// Paired tables (see the top of the file): which of the two, and lane `lane`'s copy of
// entry `index` of it.
enum class PairHalf : std::uint32_t { a = 0, b = 1 };

WARP_HD WARP_INLINE std::uint32_t pair_load(const std::uint32_t* table, std::uint32_t index,
                                            PairHalf half, std::uint32_t lane) {
    return table[index * 2 * kLanes + static_cast<std::uint32_t>(half) * kLanes + lane];
}

// What pair_lookup needs besides the column: the low byte of the offset, L * 4 for table A
// or 128 + L * 4 for B, with zero bytes above it. Computed once per thread.
WARP_HD WARP_INLINE constexpr std::uint32_t pair_select(std::uint32_t lane, PairHalf half) {
    return lane * 4 | static_cast<std::uint32_t>(half) << 7;
}

// The word at byte `offset` of a table (offsets computed as below and in gf128.hpp).
WARP_HD WARP_INLINE const std::uint32_t* at_byte(const std::uint32_t* table, std::uint32_t offset) {
    return reinterpret_cast<const std::uint32_t*>(reinterpret_cast<const unsigned char*>(table) +
                                                  offset);
}

// The byte offset of pair_load(table, byte `row` of `column`, half, lane), with `select` =
// pair_select(lane, half): select's low byte, then the column's byte, then two zero bytes of
// select, i.e. one PRMT. Its bits 2..6 are select's, the lane: the layout, and so the absence
// of bank conflicts whatever the indices, is the one above.
WARP_HD WARP_INLINE std::uint32_t pair_offset(std::uint32_t column, unsigned row,
                                              std::uint32_t select) {
    return byte_perm(column, select, 0x5504u | row << 4);
}

// pair_load by pair_offset: the table's base is the LDS's other operand.
WARP_HD WARP_INLINE std::uint32_t pair_lookup(const std::uint32_t* table, std::uint32_t column,
                                              unsigned row, std::uint32_t select) {
    return *at_byte(table, pair_offset(column, row, select));
}

// Writes `value` as word `index` of all 32 copies. On the GPU lane L starts at copy L, so at
// each step the 32 lanes of a warp (filling 32 different words) write 32 different banks; on
// the host the order does not matter and a plain loop lets the compiler vectorise the fill.
WARP_HD WARP_INLINE void replicate_entry(std::uint32_t* table, std::uint32_t index,
                                         std::uint32_t value, std::uint32_t lane) {
    std::uint32_t* copies = table + index * kLanes;
#if defined(__CUDA_ARCH__)
    WARP_UNROLL
    for (std::uint32_t k = 0; k < kLanes; ++k) copies[(k + lane) & (kLanes - 1)] = value;
#else
    (void)lane;
    for (std::uint32_t k = 0; k < kLanes; ++k) copies[k] = value;
#endif
}

// Writes entry `index` of both paired tables, a_value and b_value, in all 32 copies.
WARP_HD WARP_INLINE void replicate_pair_entry(std::uint32_t* table, std::uint32_t index,
                                              std::uint32_t a_value, std::uint32_t b_value,
                                              std::uint32_t lane) {
    replicate_entry(table, 2 * index, a_value, lane);  // words (2i) * 32 + L: half A of entry i
    replicate_entry(table, 2 * index + 1, b_value, lane);
}

}  // namespace warp::cuda::device
