// ChaCha20-Poly1305 (RFC 8439 2.8) on AVX-512 with IFMA: the shared driver
// (avx2/chacha20_poly1305_driver.hpp) around 1024-byte steps, each the sixteen-block ChaCha20
// rounds (chacha_rounds_avx512.hpp) with the eight-lane IFMA Poly1305 (poly1305_ifma.hpp) of
// up to 80 earlier or own bytes' blocks interleaved: one group of eight MAC blocks after each
// double round.
//
// Why stitched: the rounds are a chain of dependent adds, xors and rotates per row, and the
// MAC a chain of dependent multiplies; apart, each leaves the ports idle while it waits on
// its own latency (OpenSSL 3.0 runs them as two passes), together the out-of-order core
// fills the gaps of one with the other. The radix-2^64 scalar MAC the AVX2 kernel stitches
// in would not keep up with sixteen blocks of rounds: it needs about 1 cycle per byte.
//
// Steps of at most 512 bytes (a chunk's short last step) go to the AVX2 kernel, which costs
// half as much there; heads and tails are the driver's.
#include <utility>

#include "engine/secure_memory.hpp"
#include "engine/x86/avx2/chacha20_poly1305_driver.hpp"
#include "engine/x86/avx2/chacha20_poly1305_stitched.hpp"
#include "engine/x86/avx512/chacha_rounds_avx512.hpp"
#include "engine/x86/avx512/poly1305_ifma.hpp"
#include "engine/x86/isa.hpp"
#include "engine/x86/x86.hpp"

namespace warp::x86::avx512 {

void compute_ifma_powers(IfmaPowers& powers, std::uint64_t r0, std::uint64_t r1) {
    using namespace avx2::poly_scalar;
    Value power{r0, r1, 0};
    for (std::size_t k = 1; k <= kPolyLanes; ++k) {  // r^k, into lane 8 - k of `last`
        if (k > 1) power = multiply(power, r0, r1);
        const Value r = reduce_fully(power);
        const std::uint64_t limbs[3] = {r.h0 & kMask44, ((r.h0 >> 44) | (r.h1 << 20)) & kMask44,
                                        (r.h1 >> 24) | (r.h2 << 40)};
        const std::uint64_t all[5] = {limbs[0], limbs[1], limbs[2], 20 * limbs[1],
                                      20 * limbs[2]};
        for (int i = 0; i < 5; ++i) powers.last[i][kPolyLanes - k] = all[i];
        if (k == kPolyLanes)
            for (int i = 0; i < 5; ++i) powers.step[i] = all[i];
    }
    secure_wipe(&power, sizeof power);
    powers.ready = true;
}

namespace {

using avx2::PolyState;

// The MAC half of a step: kGroups groups of eight blocks from `src`, one after each of the
// first kGroups double rounds, and the lanes left to the radix-2^64 state right after the
// last group. kGroups is a compile-time constant so that the whole MAC is straight-line code
// inside the unrolled rounds.
template <std::size_t kGroups>
struct GroupsBetweenRounds {
    static_assert(kGroups <= kDoubleRounds);
    PolyState& mac;
    const IfmaPowers& powers;
    const std::uint8_t* src;
    Multiplier8 step{};
    Limbs8 u{};

    WARP_TARGET_AVX512_IFMA void operator()(int point) {
        const auto group = static_cast<std::size_t>(point);
        if (group >= kGroups) return;
        const Limbs8 m = message_limbs(src + group * kPolyGroupBytes);
        if (group == 0) {
            step = step_multiplier(powers);
            u = add(m, lane0_limbs({mac.h0, mac.h1, mac.h2}));
        } else {
            u = multiply_add(u, step, m);
        }
        if (group + 1 == kGroups) {
            const Value h = leave_lanes(u, last_multiplier(powers));
            mac.h0 = h.h0;
            mac.h1 = h.h1;
            mac.h2 = h.h2;
        }
    }
};

template <std::size_t kGroups>
WARP_TARGET_AVX512_IFMA void stitched_step(const ChaChaInput& input, std::uint32_t counter,
                                           const std::uint8_t* in, std::uint8_t* out,
                                           PolyState& mac, IfmaPowers& powers,
                                           const std::uint8_t* mac_src) {
    if (kGroups > 0 && !powers.ready) compute_ifma_powers(powers, mac.r0, mac.r1);
    GroupsBetweenRounds<kGroups> groups{mac, powers, mac_src};
    xor16_with(input, counter, in, out, groups);
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

// The step kernel of the shared driver (chacha20_poly1305_driver.hpp says what it provides).
struct Stitched16 {
    static constexpr std::size_t kBytes = kBlock16Bytes;
    static constexpr std::size_t kMaxMacBlocks = kDoubleRounds * kPolyLanes;
    using MacExtra = IfmaPowers;
    using Smaller = avx2::StitchedStep;

    static void step(const ChaChaInput& input, std::uint32_t counter, const std::uint8_t* in,
                     std::uint8_t* out, PolyState& mac, IfmaPowers& powers,
                     const std::uint8_t* mac_src, std::size_t mac_blocks) {
        // The blocks beyond a multiple of eight (at most 7) go first: the MAC takes its blocks
        // in order, and every one must be read before the step's stores.
        const std::size_t leading = mac_blocks % kPolyLanes;
        if (leading > 0) avx2::poly_absorb_padded(mac, mac_src, leading * 16);  // no pad
        stitched_step_of(mac_blocks / kPolyLanes, input, counter, in, out, mac, powers,
                         mac_src + leading * 16,
                         std::make_index_sequence<kDoubleRounds + 1>{});
    }
};

const AeadImpl kTable = chacha_driver::aead_table<Stitched16>();

}  // namespace
}  // namespace warp::x86::avx512

namespace warp::x86 {
const AeadImpl* const kChaCha20Poly1305Avx512 = &avx512::kTable;
}  // namespace warp::x86
