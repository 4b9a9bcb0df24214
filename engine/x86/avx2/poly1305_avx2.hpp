// Poly1305 (RFC 8439 2.5) for the AEAD of RFC 8439 2.8, where every block the MAC sees is a
// full 16-byte block (aad and ciphertext are zero-padded to 16 bytes, then the lengths block),
// so there is no partial-final-block rule here.
//
// The accumulator lives in radix 2^64 (h0 + h1 2^64 + h2 2^128) for scalar steps; long runs of
// blocks go through a 4-way AVX2 Horner loop on 26-bit limbs (poly1305_avx2.cpp says how).
#pragma once

#include <cstddef>
#include <cstdint>

namespace warp::x86::avx2 {

inline constexpr std::size_t kPolyBlockSize = 16;
inline constexpr std::size_t kPolyKeySize = 32;
inline constexpr std::size_t kPolyTagSize = 16;

// r^1 .. r^4 in 26-bit limbs, the multipliers of the vector loop: limbs[k][j] is limb j of
// r^(k+1), and limbs[k][5 + j] is 5 * limb (j+1) (see the reduction in poly1305_avx2.cpp).
struct PolyPowers {
    std::uint32_t limbs[4][9];
};

// The state of one MAC. Holds key material: poly_finish wipes it.
struct PolyState {
    std::uint64_t r0, r1;     // clamped r
    std::uint64_t h0, h1, h2; // accumulator, partially reduced (h2 stays small)
    std::uint64_t s0, s1;     // the pad s
    bool have_powers;
    PolyPowers powers;
};

void poly_init(PolyState& st, const std::uint8_t key[kPolyKeySize]);
// Absorbs `len` bytes as if zero-padded to a multiple of 16 (the AEAD's pad16); msg may be
// nullptr when len == 0.
void poly_absorb_padded(PolyState& st, const std::uint8_t* msg, std::size_t len);
// Absorbs the final lengths block le64(aad_len) || le64(ct_len), writes the tag, wipes st.
void poly_finish(PolyState& st, std::uint64_t aad_len, std::uint64_t ct_len,
                 std::uint8_t tag[kPolyTagSize]);

}  // namespace warp::x86::avx2
