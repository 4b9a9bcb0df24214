// ChaCha20-Poly1305 (RFC 8439 2.8) behind the AeadImpl table of engine/aead.hpp.
//
// Per chunk: the Poly1305 one-time key is the first 32 bytes of ChaCha20 block 0 under the
// chunk's nonce (2.6); the message is encrypted from block 1; the tag covers
//   aad || pad16 || ciphertext || pad16 || le64(aad_len) || le64(ciphertext_len).
// open authenticates the ciphertext before decrypting a byte of it, so a chunk that fails
// never has plaintext written to out (out is zeroed instead). Neither direction copies the
// message, and both work in place (out == in): seal MACs what it has just written, open
// decrypts only after the MAC has read all of its input.
#include <cstring>

#include "engine/open_each.hpp"
#include "engine/scalar/chacha/aead_mac.hpp"
#include "engine/scalar/chacha/chacha20.hpp"
#include "engine/scalar/chacha/poly1305.hpp"
#include "engine/scalar/scalar.hpp"
#include "engine/secure_memory.hpp"

namespace warp::scalar {
namespace {

// The key state is the key itself: ChaCha20 has no key schedule worth caching, and the
// per-chunk one-time key depends on the nonce. Read-only after init, so shared by threads.
struct KeyState {
    std::uint8_t key[kChaCha20KeySize];
};
static_assert(alignof(KeyState) <= kStateAlignment);

constexpr std::uint32_t kOneTimeKeyBlock = 0;
constexpr std::uint32_t kFirstMessageBlock = 1;
// The MAC keyed by block 0 under the chunk's nonce, having absorbed aad || pad16.
void start_mac(Poly1305State& mac, const KeyState& state, const AeadChunk& chunk) {
    std::uint8_t block0[kChaCha20BlockSize];
    chacha20_block(state.key, kOneTimeKeyBlock, chunk.nonce, block0);
    poly1305_init(mac, block0);  // the first kPoly1305KeySize bytes are the one-time key
    secure_wipe(block0, sizeof block0);
    poly1305_update(mac, chunk.aad, chunk.aad_len);
    poly1305_pad16(mac, chunk.aad_len);
}

void init(void* state, const std::uint8_t* key, std::size_t /*key_len: always 32*/) {
    std::memcpy(static_cast<KeyState*>(state)->key, key, kChaCha20KeySize);
}

void seal(const void* state, std::span<const AeadChunk> chunks, std::size_t tag_len) {
    const auto& key_state = *static_cast<const KeyState*>(state);
    for (const AeadChunk& chunk : chunks) {
        // Two passes over the chunk. Interleaving them in L1-sized stripes was measured and
        // gained nothing, even for 16 MiB chunks: at under 1 GB/s both passes are compute
        // bound, not memory bound.
        chacha20_xor(key_state.key, kFirstMessageBlock, chunk.nonce, chunk.in, chunk.out,
                     chunk.len);
        Poly1305State mac;
        start_mac(mac, key_state, chunk);
        poly1305_update(mac, chunk.out, chunk.len);
        std::uint8_t tag[kPoly1305TagSize];
        poly1305_aead_finish(mac, chunk.aad_len, chunk.len, tag);
        std::memcpy(chunk.tag, tag, tag_len);
    }
}

std::size_t open(const void* state, std::span<const AeadChunk> chunks, std::size_t tag_len,
                 bool* ok) {
    const auto& key_state = *static_cast<const KeyState*>(state);
    return open_each(chunks, ok, [&](const AeadChunk& chunk) {
        // The whole ciphertext is authenticated before any of it is decrypted.
        Poly1305State mac;
        start_mac(mac, key_state, chunk);
        poly1305_update(mac, chunk.in, chunk.len);
        std::uint8_t expected[kPoly1305TagSize];
        poly1305_aead_finish(mac, chunk.aad_len, chunk.len, expected);
        const bool authentic = equal_in_constant_time(expected, chunk.tag, tag_len);
        secure_wipe(expected, sizeof expected);
        if (authentic)
            chacha20_xor(key_state.key, kFirstMessageBlock, chunk.nonce, chunk.in, chunk.out,
                         chunk.len);
        return authentic;
    });
}

}  // namespace

const AeadImpl kChaCha20Poly1305{Aead::chacha20_poly1305, sizeof(KeyState), &init, &seal, &open};

}  // namespace warp::scalar
