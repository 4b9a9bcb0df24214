// ChaCha20-Poly1305 (RFC 8439 2.8) in one pass, for the AArch64 backends: arm-neon
// (neon/chacha20_poly1305.cpp) and arm-sve2 (sve2/chacha20_poly1305.cpp) differ only in the
// four-block ChaCha20 they plug in (two functions), and share this AEAD around it, the NEON
// Poly1305 and one AeadImpl table each. The same structure as the AVX2 kernel
// (engine/x86/avx2/chacha20_poly1305.cpp):
//
// Per chunk, one four-block pass computes blocks 0..3: block 0 gives the one-time Poly1305
// key (2.6), blocks 1..3 the keystream of the first 192 message bytes. The rest of the message
// is encrypted from block 4 by the four-block path. The tag covers
//   aad || pad16 || ciphertext || pad16 || le64(aad_len) || le64(ciphertext_len).
//
// One pass over the data: each 256-byte step is encrypted by the four-block ChaCha20 and MACed
// by the two-lane NEON Poly1305 (poly1305_neon.hpp) while it is in L1; seal MACs the step's
// ciphertext after writing it, open MACs it before decrypting it, so in place (out == in)
// works. The head, the tail under 256 bytes, the pad and the tag go through the portable
// Poly1305 (engine/scalar/chacha/poly1305.hpp), whose accumulator the NEON steps borrow.
// open compares the tag in constant time; a chunk that fails has its out zeroed by
// AeadKey::open, so its plaintext is never released.
#pragma once

#include <algorithm>
#include <cstring>

#include "engine/aead.hpp"
#include "engine/arm/neon/chacha20_neon.hpp"
#include "engine/arm/neon/poly1305_neon.hpp"
#include "engine/open_each.hpp"
#include "engine/scalar/chacha/aead_mac.hpp"
#include "engine/scalar/chacha/poly1305.hpp"
#include "engine/secure_memory.hpp"

namespace warp::arm {

// The four-block ChaCha20 a backend plugs in, as neon/chacha20_neon.hpp declares it: the
// keystream of blocks counter..counter+3, and in -> out XORed from block counter.
using Keystream4Fn = void (*)(const neon::ChaChaInput& input, std::uint32_t counter,
                              std::uint8_t* out);
using XorStreamFn = void (*)(const neon::ChaChaInput& input, std::uint32_t counter,
                             const std::uint8_t* in, std::uint8_t* out, std::size_t len);

namespace one_pass_detail {

using namespace neon;

constexpr std::size_t kKeySize = 32;
constexpr std::size_t kTagSize = scalar::kPoly1305TagSize;
// Blocks 1..3 of the first pass: message bytes covered before the bulk path starts.
constexpr std::size_t kHeadBytes = kChaChaLaneBytes - kChaChaBlockSize;
constexpr std::uint32_t kBulkFirstBlock = kChaChaLanes;
// One step of the pass: four ChaCha20 blocks, four NEON Poly1305 steps.
constexpr std::size_t kStepBytes = kChaChaLaneBytes;
constexpr std::size_t kMacStepsPerStep = kStepBytes / kMacStepBytes;
constexpr auto kStepBlocks = static_cast<std::uint32_t>(kChaChaLanes);

struct KeyState {
    std::uint8_t key[kKeySize];
};
static_assert(alignof(KeyState) <= kStateAlignment);

// The chunk's ChaCha input, its first four keystream blocks, and the MAC keyed by block 0
// having absorbed aad || pad16.
struct ChunkStart {
    ChaChaInput input;
    alignas(16) std::uint8_t head[kChaChaLaneBytes];
    scalar::Poly1305State mac;

    ChunkStart(Keystream4Fn keystream4, const KeyState& state, const AeadChunk& chunk)
        : input(chacha_input(state.key, chunk.nonce)) {
        keystream4(input, 0, head);
        scalar::poly1305_init(mac, head);  // the first 32 bytes of block 0
        scalar::poly1305_update(mac, chunk.aad, chunk.aad_len);
        scalar::poly1305_pad16(mac, chunk.aad_len);
    }
    ~ChunkStart() { secure_wipe(this, sizeof *this); }
    ChunkStart(const ChunkStart&) = delete;
    ChunkStart& operator=(const ChunkStart&) = delete;

    // The head of the chunk (up to 192 bytes) from blocks 1..3; returns its length.
    std::size_t apply_head(const std::uint8_t* in, std::uint8_t* out, std::size_t len) const {
        const std::size_t head_len = std::min(len, kHeadBytes);
        const std::uint8_t* keystream = head + kChaChaBlockSize;
        for (std::size_t i = 0; i < head_len; ++i)
            out[i] = static_cast<std::uint8_t>(in[i] ^ keystream[i]);
        return head_len;
    }
};

inline void init(void* state, const std::uint8_t* key, std::size_t /*key_len: always 32*/) {
    std::memcpy(static_cast<KeyState*>(state)->key, key, kKeySize);
}

// The whole-step part of the pass after the head, from `offset` (whole MAC blocks behind it,
// nothing buffered in the scalar MAC); returns where it stopped. kSeal: encrypt a step, then
// MAC its ciphertext; otherwise MAC a step's ciphertext, then decrypt it.
template <XorStreamFn kXorStream, bool kSeal>
std::size_t one_pass(ChunkStart& start, const AeadChunk& chunk, std::size_t offset) {
    if (chunk.len - offset < kStepBytes) return offset;
    NeonMac mac(start.mac);
    std::uint32_t counter = kBulkFirstBlock;
    for (; chunk.len - offset >= kStepBytes; offset += kStepBytes, counter += kStepBlocks) {
        if (!kSeal) mac.absorb(chunk.in + offset, kMacStepsPerStep);
        kXorStream(start.input, counter, chunk.in + offset, chunk.out + offset, kStepBytes);
        if (kSeal) mac.absorb(chunk.out + offset, kMacStepsPerStep);
    }
    mac.fold_into(start.mac);
    return offset;
}

template <Keystream4Fn kKeystream4, XorStreamFn kXorStream>
void seal(const void* state, std::span<const AeadChunk> chunks, std::size_t tag_len) {
    const auto& key_state = *static_cast<const KeyState*>(state);
    for (const AeadChunk& chunk : chunks) {
        ChunkStart start(kKeystream4, key_state, chunk);
        const std::size_t head = start.apply_head(chunk.in, chunk.out, chunk.len);
        scalar::poly1305_update(start.mac, chunk.out, head);  // 192 bytes: whole blocks
        const std::size_t done = one_pass<kXorStream, true>(start, chunk, head);
        const std::size_t tail = chunk.len - done;
        const auto block = static_cast<std::uint32_t>(1 + done / kChaChaBlockSize);
        kXorStream(start.input, block, chunk.in + done, chunk.out + done, tail);
        scalar::poly1305_update(start.mac, chunk.out + done, tail);
        std::uint8_t tag[kTagSize];
        scalar::poly1305_aead_finish(start.mac, chunk.aad_len, chunk.len, tag);
        std::memcpy(chunk.tag, tag, tag_len);
    }
}

template <Keystream4Fn kKeystream4, XorStreamFn kXorStream>
std::size_t open(const void* state, std::span<const AeadChunk> chunks, std::size_t tag_len,
                 bool* ok) {
    const auto& key_state = *static_cast<const KeyState*>(state);
    return open_each(chunks, ok, [&](const AeadChunk& chunk) {
        ChunkStart start(kKeystream4, key_state, chunk);
        const std::size_t head = std::min(chunk.len, kHeadBytes);
        scalar::poly1305_update(start.mac, chunk.in, head);  // before an in-place decrypt
        start.apply_head(chunk.in, chunk.out, chunk.len);
        const std::size_t done = one_pass<kXorStream, false>(start, chunk, head);
        const std::size_t tail = chunk.len - done;
        scalar::poly1305_update(start.mac, chunk.in + done, tail);  // before an in-place decrypt
        const auto block = static_cast<std::uint32_t>(1 + done / kChaChaBlockSize);
        kXorStream(start.input, block, chunk.in + done, chunk.out + done, tail);
        std::uint8_t expected[kTagSize];
        scalar::poly1305_aead_finish(start.mac, chunk.aad_len, chunk.len, expected);
        const bool authentic = equal_in_constant_time(expected, chunk.tag, tag_len);
        secure_wipe(expected, sizeof expected);
        return authentic;
    });
}

}  // namespace one_pass_detail

// The AeadImpl table of ChaCha20-Poly1305 with this four-block ChaCha20.
template <Keystream4Fn kKeystream4, XorStreamFn kXorStream>
inline constexpr AeadImpl kOnePassChaCha20Poly1305{
    Aead::chacha20_poly1305, sizeof(one_pass_detail::KeyState), &one_pass_detail::init,
    &one_pass_detail::seal<kKeystream4, kXorStream>,
    &one_pass_detail::open<kKeystream4, kXorStream>};

}  // namespace warp::arm
