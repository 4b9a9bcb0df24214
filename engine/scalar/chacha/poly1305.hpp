// Poly1305 (RFC 8439 2.5): a one-time authenticator. The 32-byte key is r || s; r is clamped,
// the message is read as 16-byte little-endian numbers with a 1 appended, and
// tag = ((sum of m_i * r^(n-i+1)) mod 2^130 - 5 + s) mod 2^128.
//
// Constant time: the accumulator lives in three 64-bit limbs of 44, 44 and 42 bits; products
// are 64x64 -> 128-bit multiplications, and the final reduction selects with a mask, so no
// branch or index depends on the key, the message or the tag.
#pragma once

#include <cstddef>
#include <cstdint>

namespace warp::scalar {

inline constexpr std::size_t kPoly1305KeySize = 32;
inline constexpr std::size_t kPoly1305TagSize = 16;
inline constexpr std::size_t kPoly1305BlockSize = 16;

// The incremental state. Treat as opaque; it holds the key, so poly1305_finish wipes it.
struct Poly1305State {
    // Clamped r and r^2 mod p as multipliers: 44/44/42-bit limbs, then 20 * limb 1 and
    // 20 * limb 2 (poly1305.cpp says why 20).
    std::uint64_t r[5];
    std::uint64_t r_squared[5];
    std::uint64_t h[3];  // accumulator, same limbs, partially carried
    std::uint64_t s[2];  // the pad s, little-endian 64-bit halves
    std::uint8_t buffer[kPoly1305BlockSize];
    std::size_t buffered;  // bytes of a partial block waiting in buffer
};

void poly1305_init(Poly1305State& state, const std::uint8_t key[32]);
// Absorbs len bytes (msg may be nullptr when len == 0); any split of a message into updates
// gives the same tag.
void poly1305_update(Poly1305State& state, const std::uint8_t* msg, std::size_t len);
// Writes the tag and wipes the state; the state must be initialised again before reuse.
void poly1305_finish(Poly1305State& state, std::uint8_t tag[16]);

// One-shot: the tag of msg under key.
void poly1305_mac(const std::uint8_t key[32], const std::uint8_t* msg, std::size_t len,
                  std::uint8_t tag[16]);

}  // namespace warp::scalar
