// ChaCha20-Poly1305 (RFC 8439 2.8) on AVX2 behind the AeadImpl table of engine/aead.hpp.
//
// Per chunk, the short ChaCha path computes blocks 0..3 at once: block 0 gives the one-time
// Poly1305 key (2.6), blocks 1..3 the keystream of the first 192 message bytes. The rest of
// the message is encrypted from block 4 by the eight-block path. The tag covers
//   aad || pad16 || ciphertext || pad16 || le64(aad_len) || le64(ciphertext_len).
//
// seal works in stripes that stay in L1/L2: encrypt a stripe, then MAC the ciphertext just
// written while it is still in cache. open MACs the whole ciphertext first, compares the tag in
// constant time, and only then decrypts; a chunk that fails has its out zeroed, never
// plaintext. Both work in place (out == in).
#include <sodium.h>

#include <algorithm>
#include <cstring>

#include "engine/open_each.hpp"
#include "engine/secure_memory.hpp"
#include "engine/x86/avx2/chacha20_avx2.hpp"
#include "engine/x86/avx2/poly1305_avx2.hpp"
#include "engine/x86/x86.hpp"

namespace warp::x86 {
namespace {

using namespace avx2;

constexpr std::size_t kKeySize = 32;
constexpr std::size_t kTagSize = kMaxTagSize;  // Poly1305: the engine's 16-byte tag
// Blocks 1..3 of the first short call: message bytes covered before the bulk path starts.
constexpr std::size_t kHeadBytes = kChaChaShortBytes - kChaChaBlockSize;
constexpr std::uint32_t kBulkFirstBlock = kChaChaShortBlocks;
// Encrypt-then-MAC granularity of seal: a multiple of the 512-byte wide step, small enough
// that the ciphertext is still in L1/L2 when Poly1305 reads it back.
constexpr std::size_t kStripeBytes = 16 * 1024;

struct KeyState {
    std::uint8_t key[kKeySize];
};
static_assert(alignof(KeyState) <= kStateAlignment);

// The chunk's ChaCha input, its first four keystream blocks, and the MAC keyed by block 0
// having absorbed aad || pad16.
struct ChunkStart {
    ChaChaInput input;
    alignas(32) std::uint8_t head[kChaChaShortBytes];
    PolyState mac;

    ChunkStart(const KeyState& state, const AeadChunk& chunk)
        : input(chacha_input(state.key, chunk.nonce)) {
        chacha20_keystream4(input, 0, head);
        poly_init(mac, head);  // the first 32 bytes of block 0
        poly_absorb_padded(mac, chunk.aad, chunk.aad_len);
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
        poly_absorb_padded(start.mac, chunk.out, done);
        while (done < chunk.len) {
            const std::size_t n = std::min(chunk.len - done, kStripeBytes);
            const auto block = static_cast<std::uint32_t>(1 + done / kChaChaBlockSize);
            chacha20_xor(start.input, block, chunk.in + done, chunk.out + done, n);
            poly_absorb_padded(start.mac, chunk.out + done, n);
            done += n;
        }
        std::uint8_t tag[kTagSize];
        poly_finish(start.mac, chunk.aad_len, chunk.len, tag);
        std::memcpy(chunk.tag, tag, tag_len);
    }
}

std::size_t open(const void* state, std::span<const AeadChunk> chunks, std::size_t tag_len,
                 bool* ok) {
    const auto& key_state = *static_cast<const KeyState*>(state);
    return open_each(chunks, ok, [&](const AeadChunk& chunk) {
        ChunkStart start(key_state, chunk);
        // The whole ciphertext is authenticated before any of it is decrypted.
        poly_absorb_padded(start.mac, chunk.in, chunk.len);
        std::uint8_t expected[kTagSize];
        poly_finish(start.mac, chunk.aad_len, chunk.len, expected);
        const bool authentic = sodium_memcmp(expected, chunk.tag, tag_len) == 0;  // constant time
        secure_wipe(expected, sizeof expected);
        if (authentic) start.apply_keystream(chunk.in, chunk.out, chunk.len);
        return authentic;
    });
}

const AeadImpl kTable{Aead::chacha20_poly1305, sizeof(KeyState), &init, &seal, &open};

}  // namespace

const AeadImpl* const kChaCha20Poly1305Avx2 = &kTable;

}  // namespace warp::x86
