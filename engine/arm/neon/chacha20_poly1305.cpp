// ChaCha20-Poly1305 (RFC 8439 2.8) on NEON behind the AeadImpl table of engine/aead.hpp.
// The same structure as the AVX2 kernel (engine/x86/avx2/chacha20_poly1305.cpp):
//
// Per chunk, one four-block pass computes blocks 0..3: block 0 gives the one-time Poly1305
// key (2.6), blocks 1..3 the keystream of the first 192 message bytes. The rest of the message
// is encrypted from block 4 by the four-block path. The tag covers
//   aad || pad16 || ciphertext || pad16 || le64(aad_len) || le64(ciphertext_len).
// Poly1305 is the portable scalar one (engine/scalar/chacha/poly1305.hpp): AArch64's MUL/UMULH
// pair makes its 64x64->128 products cheap.
//
// seal works in stripes that stay in L1/L2: encrypt a stripe, then MAC the ciphertext just
// written while it is still in cache. open MACs the whole ciphertext first, compares the tag in
// constant time, and only then decrypts; a chunk that fails has its out zeroed, never
// plaintext. Both work in place (out == in).
#include <algorithm>
#include <cstring>

#include "engine/arm/arm.hpp"
#include "engine/arm/neon/chacha20_neon.hpp"
#include "engine/open_each.hpp"
#include "engine/scalar/chacha/little_endian.hpp"
#include "engine/scalar/chacha/poly1305.hpp"
#include "engine/secure_memory.hpp"

namespace warp::arm {
namespace {

using namespace neon;

constexpr std::size_t kKeySize = 32;
constexpr std::size_t kTagSize = scalar::kPoly1305TagSize;
// Blocks 1..3 of the first pass: message bytes covered before the bulk path starts.
constexpr std::size_t kHeadBytes = kChaChaLaneBytes - kChaChaBlockSize;
constexpr std::uint32_t kBulkFirstBlock = kChaChaLanes;
// Encrypt-then-MAC granularity of seal: a multiple of the 256-byte four-block step, small enough
// that the ciphertext is still in L1/L2 when Poly1305 reads it back.
constexpr std::size_t kStripeBytes = 16 * 1024;
constexpr std::uint8_t kZeroPad[scalar::kPoly1305BlockSize] = {};

struct KeyState {
    std::uint8_t key[kKeySize];
};
static_assert(alignof(KeyState) <= kStateAlignment);

// Absorbs len bytes, then zeros up to a multiple of 16 (the AEAD's pad16).
void absorb_padded(scalar::Poly1305State& mac, const std::uint8_t* msg, std::size_t len) {
    scalar::poly1305_update(mac, msg, len);
    if (const std::size_t partial = len % scalar::kPoly1305BlockSize; partial != 0)
        scalar::poly1305_update(mac, kZeroPad, scalar::kPoly1305BlockSize - partial);
}

// The chunk's ChaCha input, its first four keystream blocks, and the MAC keyed by block 0
// having absorbed aad || pad16.
struct ChunkStart {
    ChaChaInput input;
    alignas(16) std::uint8_t head[kChaChaLaneBytes];
    scalar::Poly1305State mac;

    ChunkStart(const KeyState& state, const AeadChunk& chunk)
        : input(chacha_input(state.key, chunk.nonce)) {
        chacha20_keystream4(input, 0, head);
        scalar::poly1305_init(mac, head);  // the first 32 bytes of block 0
        absorb_padded(mac, chunk.aad, chunk.aad_len);
    }
    ~ChunkStart() {
        secure_wipe(&input, sizeof input);
        secure_wipe(head, sizeof head);
        secure_wipe(&mac, sizeof mac);
    }
    ChunkStart(const ChunkStart&) = delete;
    ChunkStart& operator=(const ChunkStart&) = delete;

    // Encrypts or decrypts the whole chunk: the head from blocks 1..3, the rest from block 4.
    void apply_keystream(const std::uint8_t* in, std::uint8_t* out, std::size_t len) const {
        const std::size_t head_len = std::min(len, kHeadBytes);
        const std::uint8_t* keystream = head + kChaChaBlockSize;
        for (std::size_t i = 0; i < head_len; ++i)
            out[i] = static_cast<std::uint8_t>(in[i] ^ keystream[i]);
        if (len > head_len)
            chacha20_xor(input, kBulkFirstBlock, in + head_len, out + head_len, len - head_len);
    }

    // pad16 of the ciphertext is done by the caller; this absorbs the lengths block and
    // writes the tag (poly1305_finish also wipes the MAC state).
    void finish(std::uint64_t aad_len, std::uint64_t ct_len, std::uint8_t tag[kTagSize]) {
        std::uint8_t lengths[16];
        scalar::store_le64(lengths, aad_len);
        scalar::store_le64(lengths + 8, ct_len);
        scalar::poly1305_update(mac, lengths, sizeof lengths);
        scalar::poly1305_finish(mac, tag);
    }
};

void init(void* state, const std::uint8_t* key, std::size_t /*key_len: always 32*/) {
    std::memcpy(static_cast<KeyState*>(state)->key, key, kKeySize);
}

void seal(const void* state, std::span<const AeadChunk> chunks, std::size_t tag_len) {
    const auto& key_state = *static_cast<const KeyState*>(state);
    for (const AeadChunk& chunk : chunks) {
        ChunkStart start(key_state, chunk);
        // The head and the first stripe together, then whole stripes. Every stripe but the
        // last is a multiple of 64 bytes, so its keystream starts at block 1 + offset / 64 and
        // the MAC sees whole 16-byte blocks (padding only at the real end).
        std::size_t done = std::min(chunk.len, kHeadBytes + kStripeBytes);
        start.apply_keystream(chunk.in, chunk.out, done);
        scalar::poly1305_update(start.mac, chunk.out, done);
        while (done < chunk.len) {
            const std::size_t n = std::min(chunk.len - done, kStripeBytes);
            const auto block = static_cast<std::uint32_t>(1 + done / kChaChaBlockSize);
            chacha20_xor(start.input, block, chunk.in + done, chunk.out + done, n);
            scalar::poly1305_update(start.mac, chunk.out + done, n);
            done += n;
        }
        if (const std::size_t partial = chunk.len % scalar::kPoly1305BlockSize; partial != 0)
            scalar::poly1305_update(start.mac, kZeroPad, scalar::kPoly1305BlockSize - partial);
        std::uint8_t tag[kTagSize];
        start.finish(chunk.aad_len, chunk.len, tag);
        std::memcpy(chunk.tag, tag, tag_len);
    }
}

std::size_t open(const void* state, std::span<const AeadChunk> chunks, std::size_t tag_len,
                 bool* ok) {
    const auto& key_state = *static_cast<const KeyState*>(state);
    return open_each(chunks, ok, [&](const AeadChunk& chunk) {
        ChunkStart start(key_state, chunk);
        // The whole ciphertext is authenticated before any of it is decrypted.
        absorb_padded(start.mac, chunk.in, chunk.len);
        std::uint8_t expected[kTagSize];
        start.finish(chunk.aad_len, chunk.len, expected);
        const bool authentic = equal_in_constant_time(expected, chunk.tag, tag_len);
        secure_wipe(expected, sizeof expected);
        if (authentic) start.apply_keystream(chunk.in, chunk.out, chunk.len);
        return authentic;
    });
}

const AeadImpl kTable{Aead::chacha20_poly1305, sizeof(KeyState), &init, &seal, &open};

}  // namespace

const AeadImpl* const kChaCha20Poly1305Neon = &kTable;

}  // namespace warp::arm
