// ChaCha20-Poly1305 (RFC 8439 2.8) on AVX-512 with IFMA: the shared driver
// (avx2/chacha20_poly1305_driver.hpp) around 1024-byte steps, each the sixteen-block ChaCha20
// rounds (chacha_rounds_avx512.hpp) with the eight-lane IFMA Poly1305 (poly1305_ifma.hpp) of
// up to 80 blocks, earlier bytes' or its own, interleaved: groups of eight MAC blocks in pairs,
// a pair after each of the first double rounds.
//
// Why stitched: the rounds are a chain of dependent adds, xors and rotates per row, and the
// MAC a chain of dependent multiplies; apart, each leaves the ports idle while it waits on
// its own latency (OpenSSL 3.0 runs them as two passes), together the out-of-order core
// fills the gaps of one with the other. The radix-2^64 scalar MAC the AVX2 kernel stitches
// in would not keep up with sixteen blocks of rounds: it needs about 1 cycle per byte.
//
// Steps of at most 512 bytes (a chunk's short last step) go to the AVX2 kernel, which costs
// half as much there; heads and tails are the driver's. Measured against OpenSSL and x86-avx2,
// and what was tried and dropped: docs/measurements/bench-avx512-chacha-2026-12-06.md.
#include <utility>

#include "engine/x86/avx2/chacha20_poly1305_driver.hpp"
#include "engine/x86/avx512/chacha20_poly1305_stitched.hpp"
#include "engine/x86/isa.hpp"
#include "engine/x86/x86.hpp"

namespace warp::x86::avx512 {

using avx2::PolyState;

namespace {

// `groups` groups of eight MAC blocks from `src`, in units of two groups (one carry for both)
// and a lone first group when the count is odd; the lanes are left to the radix-2^64 state
// right after the last unit. Everything is inlined: between the rounds the count is a
// compile-time constant and the whole MAC straight-line code.
class IfmaGroups {
public:
    [[gnu::always_inline]] IfmaGroups(PolyState& mac, const IfmaPowers& powers,
                                      const std::uint8_t* src, std::size_t groups)
        : mac_(mac), powers_(powers), next_(src), lone_first_(groups % 2 == 1),
          units_(units(groups)) {}

    static constexpr std::size_t units(std::size_t groups) { return groups % 2 + groups / 2; }
    // The powers unit() reads: r^1..r^8 to leave the lanes and for a pair, r^16 from the
    // second unit on.
    static constexpr std::size_t highest_power(std::size_t groups) {
        return units(groups) >= 2 ? 2 * kPolyLanes : kPolyLanes;
    }
    std::size_t units() const { return units_; }

    // Absorbs unit `unit` (0, 1, ... in order).
    [[gnu::always_inline]] WARP_TARGET_AVX512_IFMA void unit(std::size_t unit) {
        if (unit == 0) {
            step_ = splat_multiplier(powers_.step);
            double_step_ = splat_multiplier(powers_.double_step);
            const Limbs8 first =
                add(message_limbs(next_), lane0_limbs({mac_.h0, mac_.h1, mac_.h2}));
            if (lone_first_) {
                u_ = first;
                next_ += kPolyGroupBytes;
            } else {
                Columns c = columns_of(message_limbs(next_ + kPolyGroupBytes));
                accumulate(c, first, step_);
                u_ = carry(c);
                next_ += 2 * kPolyGroupBytes;
            }
        } else {
            Columns c = columns_of(message_limbs(next_ + kPolyGroupBytes));
            accumulate(c, u_, double_step_);
            accumulate(c, message_limbs(next_), step_);
            u_ = carry(c);
            next_ += 2 * kPolyGroupBytes;
        }
        if (unit + 1 == units_) {
            const Value h = leave_lanes(u_, last_multiplier(powers_));
            mac_.h0 = h.h0;
            mac_.h1 = h.h1;
            mac_.h2 = h.h2;
        }
    }

private:
    PolyState& mac_;
    const IfmaPowers& powers_;
    const std::uint8_t* next_;  // the next group's blocks
    bool lone_first_;
    std::size_t units_;
    Multiplier8 step_{}, double_step_{};
    Limbs8 u_{};
};

// The MAC half of a step: a unit after each of the first double rounds.
template <std::size_t kGroups>
struct GroupsBetweenRounds {
    static_assert(IfmaGroups::units(kGroups) <= kDoubleRounds);
    IfmaGroups groups;

    [[gnu::always_inline]] WARP_TARGET_AVX512_IFMA void operator()(int point) {
        if (static_cast<std::size_t>(point) < IfmaGroups::units(kGroups))
            groups.unit(static_cast<std::size_t>(point));
    }
};

template <std::size_t kGroups>
WARP_TARGET_AVX512_IFMA void stitched_step(const ChaChaInput& input, std::uint32_t counter,
                                           const std::uint8_t* in, std::uint8_t* out,
                                           PolyState& mac, IfmaPowers& powers,
                                           const std::uint8_t* mac_src) {
    if (kGroups > 0)
        compute_ifma_powers(powers, mac.r0, mac.r1, IfmaGroups::highest_power(kGroups));
    GroupsBetweenRounds<kGroups> between{IfmaGroups(mac, powers, mac_src, kGroups)};
    xor16_with(input, counter, in, out, between);
}

template <std::size_t... kGroups>
void stitched_step_of(std::size_t groups, const ChaChaInput& input, std::uint32_t counter,
                      const std::uint8_t* in, std::uint8_t* out, PolyState& mac,
                      IfmaPowers& powers, const std::uint8_t* mac_src,
                      std::index_sequence<kGroups...>) {
    // One comparison per instantiation; `groups` is public (a length).
    ((groups == kGroups ? stitched_step<kGroups>(input, counter, in, out, mac, powers, mac_src)
                        : void()),
     ...);
}

// Block 0 of the chunk (the Poly1305 key, RFC 8439 2.6) one double round after each of the
// step's own, a block in four 128-bit rows (words 0-3, 4-7, 8-11, 12-15): alone it is a
// chain of about 260 dependent instructions that leaves the ports idle; beside sixteen blocks'
// rounds it costs their ports about a tenth of a step. Rows 1..3 are rotated to put the
// diagonals in columns and back, as in the AVX2 keystream.
class KeyBlockBetweenRounds {
public:
    [[gnu::always_inline]] WARP_TARGET_AVX512_IFMA explicit KeyBlockBetweenRounds(
        const ChaChaInput& input)
        : input_(input) {
        for (int r = 0; r < 4; ++r) row_[r] = input_row4(r);
    }

    [[gnu::always_inline]] WARP_TARGET_AVX512_IFMA void operator()(int point) {
        if (point >= kDoubleRounds) return;
        quarter_round4();  // columns
        row_[1] = _mm_shuffle_epi32(row_[1], 0x39);
        row_[2] = _mm_shuffle_epi32(row_[2], 0x4e);
        row_[3] = _mm_shuffle_epi32(row_[3], 0x93);
        quarter_round4();  // diagonals
        row_[1] = _mm_shuffle_epi32(row_[1], 0x93);
        row_[2] = _mm_shuffle_epi32(row_[2], 0x4e);
        row_[3] = _mm_shuffle_epi32(row_[3], 0x39);
    }

    // The finished block, 64 bytes.
    [[gnu::always_inline]] WARP_TARGET_AVX512_IFMA void store(std::uint8_t* out) {
        for (int r = 0; r < 4; ++r)
            _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 16 * r),
                             _mm_add_epi32(row_[r], input_row4(r)));
    }

private:
    // Words 4r..4r+3 of block 0 (word 12, the counter, is 0 in the input).
    [[gnu::always_inline]] WARP_TARGET_AVX512_IFMA __m128i input_row4(int r) const {
        return _mm_loadu_si128(reinterpret_cast<const __m128i*>(&input_.word[4 * r]));
    }
    template <int Bits>
    [[gnu::always_inline]] WARP_TARGET_AVX512_IFMA static __m128i rotl4(__m128i x) {
        return _mm_rol_epi32(x, Bits);
    }
    [[gnu::always_inline]] WARP_TARGET_AVX512_IFMA void quarter_round4() {
        __m128i& a = row_[0];
        __m128i& b = row_[1];
        __m128i& c = row_[2];
        __m128i& d = row_[3];
        a = _mm_add_epi32(a, b); d = rotl4<16>(_mm_xor_si128(d, a));
        c = _mm_add_epi32(c, d); b = rotl4<12>(_mm_xor_si128(b, c));
        a = _mm_add_epi32(a, b); d = rotl4<8>(_mm_xor_si128(d, a));
        c = _mm_add_epi32(c, d); b = rotl4<7>(_mm_xor_si128(b, c));
    }

    const ChaChaInput& input_;
    __m128i row_[4];
};

}  // namespace

WARP_TARGET_AVX512_IFMA void xor16_with_key_block(const ChaChaInput& input,
                                                  std::uint32_t counter, const std::uint8_t* in,
                                                  std::uint8_t* out,
                                                  std::uint8_t key_block[64]) {
    KeyBlockBetweenRounds key(input);
    xor16_with(input, counter, in, out, key);
    key.store(key_block);
}

WARP_TARGET_AVX512_IFMA void poly_absorb_ifma(PolyState& mac, IfmaPowers& powers,
                                              const std::uint8_t* src, std::size_t len) {
    const std::size_t blocks = len / 16;
    const std::size_t leading = blocks % kPolyLanes;  // first, on the scalar path
    avx2::poly_absorb_padded(mac, src, leading * 16);
    const std::size_t groups = blocks / kPolyLanes;
    if (groups > 0) {
        compute_ifma_powers(powers, mac.r0, mac.r1, IfmaGroups::highest_power(groups));
        IfmaGroups run(mac, powers, src + leading * 16, groups);
        for (std::size_t unit = 0; unit < run.units(); ++unit) run.unit(unit);
    }
    const std::size_t done = 16 * blocks;
    avx2::poly_absorb_padded(mac, src + done, len - done);  // the partial last block, padded
}

void xor16_stitched(const ChaChaInput& input, std::uint32_t counter, const std::uint8_t* in,
                    std::uint8_t* out, PolyState& mac, IfmaPowers& powers,
                    const std::uint8_t* mac_src, std::size_t mac_blocks) {
    // The blocks beyond a multiple of eight (at most 7) go first: the MAC takes its blocks in
    // order, and every one must be read before the step's stores.
    const std::size_t leading = mac_blocks % kPolyLanes;
    if (leading > 0) avx2::poly_absorb_padded(mac, mac_src, leading * 16);  // no pad
    stitched_step_of(mac_blocks / kPolyLanes, input, counter, in, out, mac, powers,
                     mac_src + leading * 16, std::make_index_sequence<kDoubleRounds + 1>{});
}

namespace {

const AeadImpl kTable = chacha_driver::aead_table<StitchedStep>();

}  // namespace
}  // namespace warp::x86::avx512

namespace warp::x86 {
const AeadImpl* const kChaCha20Poly1305Avx512 = &avx512::kTable;
}  // namespace warp::x86
