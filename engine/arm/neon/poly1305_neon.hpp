// Poly1305 (RFC 8439 2.5) on AArch64 NEON for the long runs of whole blocks in the AEAD: two
// lanes of 26-bit limbs, four blocks per step. The scalar Poly1305 (engine/scalar/chacha/
// poly1305.hpp) keeps the key, the partial blocks, the final pad and the tag; NeonMac borrows
// its accumulator for a run of steps and gives it back (poly1305_neon.cpp says how).
#pragma once

#include <arm_neon.h>

#include <cstddef>
#include <cstdint>

#include "engine/scalar/chacha/poly1305.hpp"

namespace warp::arm::neon {

inline constexpr std::size_t kMacStepBlocks = 4;
inline constexpr std::size_t kMacStepBytes = kMacStepBlocks * scalar::kPoly1305BlockSize;

// The accumulator of a run in two lanes, and the powers of r it needs. Holds key material:
// fold_into() wipes it.
class NeonMac {
public:
    // Takes over `state`'s accumulator (whatever it absorbed so far). state must hold no
    // partial block (state.buffered == 0), and must not be updated until fold_into().
    explicit NeonMac(const scalar::Poly1305State& state);
    ~NeonMac();
    NeonMac(const NeonMac&) = delete;
    NeonMac& operator=(const NeonMac&) = delete;

    // Absorbs `steps` x 64 bytes of whole blocks (each with its 2^128 bit).
    void absorb(const std::uint8_t* msg, std::size_t steps);
    // Hands the accumulator back to state, as if state had absorbed everything itself.
    void fold_into(scalar::Poly1305State& state);

private:
    // Multipliers in 32-bit lanes: r^4 and r^2 as limbs 0..4 then 5 * limbs 1..4 (lanes of
    // by_lane: [r4_0 r4_1 r4_2 r4_3] [r4_4 5r4_1 5r4_2 5r4_3] [5r4_4 r2_0 r2_1 r2_2]
    // [r2_3 r2_4 5r2_1 5r2_2] [5r2_3 5r2_4 - -]); for the fold, per-lane pairs (r^2, r).
    uint32x4_t by_lane_[5];
    std::uint32_t fold_[9][2];
    uint32x2_t lanes_[5];  // limb j of lane 0 and lane 1
    bool started_ = false;  // a step ran: lanes_ hold the run, not the borrowed h alone
};

}  // namespace warp::arm::neon
