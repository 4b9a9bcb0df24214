// The Poly1305 framing of ChaCha20-Poly1305 (RFC 8439 2.8) over the portable Poly1305: the
// zeros that pad the AAD and the ciphertext to 16 bytes, and the lengths block and the tag at
// the end. One definition for the scalar AEAD and the AArch64 one-pass AEAD
// (engine/arm/chacha20_poly1305_one_pass.hpp), which both keep their MAC in Poly1305State.
#pragma once

#include <cstddef>
#include <cstdint>

#include "engine/scalar/chacha/little_endian.hpp"
#include "engine/scalar/chacha/poly1305.hpp"

namespace warp::scalar {

// The zeros that take `absorbed` bytes up to a multiple of 16 (the AEAD's pad16).
inline void poly1305_pad16(Poly1305State& mac, std::size_t absorbed) {
    static constexpr std::uint8_t kZeroPad[kPoly1305BlockSize] = {};
    if (const std::size_t partial = absorbed % kPoly1305BlockSize; partial != 0)
        poly1305_update(mac, kZeroPad, kPoly1305BlockSize - partial);
}

// After ct_len bytes of ciphertext: pad16 || le64(aad_len) || le64(ct_len), then the tag
// (poly1305_finish also wipes mac).
inline void poly1305_aead_finish(Poly1305State& mac, std::uint64_t aad_len, std::uint64_t ct_len,
                                 std::uint8_t tag[kPoly1305TagSize]) {
    poly1305_pad16(mac, static_cast<std::size_t>(ct_len));
    std::uint8_t lengths[16];
    store_le64(lengths, aad_len);
    store_le64(lengths + 8, ct_len);
    poly1305_update(mac, lengths, sizeof lengths);
    poly1305_finish(mac, tag);
}

}  // namespace warp::scalar
