// Four Keccak-f[1600] states permuted together (FIPS 202, section 3.3, four times), and the
// little of SHAKE128/256 (FIPS 202, section 6.2) that ML-KEM asks of four at once: FIPS 203's
// matrix sampling (Algorithm 7, SampleNTT: four entries of A_hat) and its PRF (section 4.1:
// four noise polynomials). On AVX2 one 256-bit register holds the same lane of the four
// states, so four permutations cost little more than one; elsewhere they run one by one.
//
// Each message is shorter than a block (ML-KEM's are 33 and 34 bytes), so absorbing is one
// padded block, and squeezing one block per permutation: no partial-block bookkeeping.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

namespace warp::formats::pq {

// Lane i of state s is lanes[4 * i + s]: the layout of one __m256i per lane.
struct KeccakX4 {
    alignas(32) std::array<std::uint64_t, 100> lanes{};
    KeccakX4() = default;
    KeccakX4(const KeccakX4&) = delete;
    KeccakX4& operator=(const KeccakX4&) = delete;
    ~KeccakX4();  // wiped: the PRF's states hold the secret seed
};

// The permutation of all four states, on AVX2 when the CPU probe allows (mlkem_dispatch.cpp).
void keccak_f1600_x4(KeccakX4& state) noexcept;
// The two implementations, for the differential test.
void keccak_f1600_x4_portable(KeccakX4& state) noexcept;
#if defined(__x86_64__)
void keccak_f1600_x4_avx2(KeccakX4& state) noexcept;
#endif

using FourMessages = std::array<std::span<const std::uint8_t>, 4>;

// SHAKE (suffix 0x1F) of rate `rate` bytes, state s absorbing messages[s] (each shorter than
// `rate`) and its padding: the state is then ready for its first permutation.
void shake_x4_absorb_short(KeccakX4& state, std::size_t rate, const FourMessages& messages);

// Permutes, then copies the first out_bytes (<= rate) bytes of each state's block to out[s].
void shake_x4_squeeze_block(KeccakX4& state, std::size_t out_bytes,
                            const std::array<std::uint8_t*, 4>& out);

}  // namespace warp::formats::pq
