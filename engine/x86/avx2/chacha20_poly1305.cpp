// ChaCha20-Poly1305 (RFC 8439 2.8) on AVX2 behind the AeadImpl table of engine/aead.hpp.
//
// Per chunk, the short ChaCha path computes blocks 0..3 at once: block 0 gives the one-time
// Poly1305 key (2.6), blocks 1..3 the keystream of the first 192 message bytes. The rest of
// the message is encrypted from block 4 by the eight-block path. The tag covers
//   aad || pad16 || ciphertext || pad16 || le64(aad_len) || le64(ciphertext_len).
//
// After the head, whole 512-byte steps run stitched: the eight-block rounds with the scalar
// Poly1305 of the same bytes interleaved (chacha20_poly1305_stitched.cpp); the tail goes
// through the keystream functions and the MAC beside them. open authenticates in the same
// pass as it decrypts and compares the tag in constant time; a chunk that fails has its out
// zeroed by AeadKey::open, so its plaintext is never released. Both work in place
// (out == in): the MAC always reads a ciphertext before the keystream overwrites it.
#include <algorithm>
#include <cstring>

#include "engine/open_each.hpp"
#include "engine/secure_memory.hpp"
#include "engine/x86/avx2/chacha20_avx2.hpp"
#include "engine/x86/avx2/chacha20_poly1305_stitched.hpp"
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
    ~ChunkStart() { secure_wipe(this, sizeof *this); }  // one call: a third of the cost of three
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

constexpr auto kStepBlocks = static_cast<std::uint32_t>(kStitchedStep / kChaChaBlockSize);

// Whole MAC blocks from `from` up to `to`.
std::size_t blocks_between(const std::uint8_t* from, const std::uint8_t* to) {
    return static_cast<std::size_t>(to - from) / kPolyBlockSize;
}

// One stitched step of n bytes (257..512): straight through when whole, through a stack
// buffer when it is the chunk's short last step; `before_copy_out` runs after the rounds and
// before such a short step's bytes reach out.
template <typename BeforeCopyOut>
void wide_step(ChunkStart& start, std::uint32_t counter, const std::uint8_t* in,
               std::uint8_t* out, std::size_t n, const std::uint8_t* mac_src,
               std::size_t mac_blocks, BeforeCopyOut&& before_copy_out) {
    if (n == kStitchedStep) {
        xor_wide_stitched(start.input, counter, in, out, start.mac, mac_src, mac_blocks);
        return;
    }
    alignas(32) std::uint8_t buffer[kStitchedStep];
    std::memcpy(buffer, in, n);
    xor_wide_stitched(start.input, counter, buffer, buffer, start.mac, mac_src, mac_blocks);
    before_copy_out();
    std::memcpy(out, buffer, n);
    secure_wipe(buffer, sizeof buffer);
}

// seal after the head: steps of 512 bytes (the last one 257..511), then a tail of at most
// 256 bytes. The MAC reads ciphertext, which exists only once written, so it lags: each step
// absorbs what earlier steps (and the head) wrote, and the last step's bytes are absorbed
// after the loop.
void seal_body(ChunkStart& start, const AeadChunk& chunk) {
    std::size_t offset = std::min(chunk.len, kHeadBytes);
    std::uint32_t counter = kBulkFirstBlock;
    const std::uint8_t* mac_at = chunk.out;  // ciphertext before this is absorbed
    while (chunk.len - offset > kChaChaShortBytes) {
        const std::size_t n = std::min(chunk.len - offset, kStitchedStep);
        const std::size_t mac_blocks = blocks_between(mac_at, chunk.out + offset);
        wide_step(start, counter, chunk.in + offset, chunk.out + offset, n, mac_at, mac_blocks,
                  [] {});
        mac_at += mac_blocks * kPolyBlockSize;
        offset += n;
        counter += kStepBlocks;
    }
    if (offset < chunk.len)
        chacha20_xor(start.input, counter, chunk.in + offset, chunk.out + offset,
                     chunk.len - offset);
    poly_absorb_padded(start.mac, mac_at, static_cast<std::size_t>(chunk.out + chunk.len - mac_at));
}

// open: the same steps, but the MAC reads ahead of the decryption, so that an in-place open
// (out == in) never overwrites ciphertext the MAC has not read: each step absorbs everything
// up to its own end before its stores (the first step also the head, which is decrypted
// after it), and a short last step absorbs the final partial block before its copy out.
void open_body(ChunkStart& start, const AeadChunk& chunk) {
    const std::uint8_t* const end = chunk.in + chunk.len;
    std::size_t offset = std::min(chunk.len, kHeadBytes);
    std::uint32_t counter = kBulkFirstBlock;
    const std::uint8_t* mac_at = chunk.in;  // ciphertext before this is absorbed
    bool head_decrypted = false;
    while (chunk.len - offset > kChaChaShortBytes) {
        const std::size_t n = std::min(chunk.len - offset, kStitchedStep);
        const std::size_t mac_blocks = blocks_between(mac_at, chunk.in + offset + n);
        const std::uint8_t* mac_src = mac_at;
        mac_at += mac_blocks * kPolyBlockSize;
        wide_step(start, counter, chunk.in + offset, chunk.out + offset, n, mac_src, mac_blocks,
                  [&] {
                      poly_absorb_padded(start.mac, mac_at, static_cast<std::size_t>(end - mac_at));
                      mac_at = end;
                  });
        if (!head_decrypted) {
            start.apply_head(chunk.in, chunk.out, chunk.len);
            head_decrypted = true;
        }
        offset += n;
        counter += kStepBlocks;
    }
    poly_absorb_padded(start.mac, mac_at, static_cast<std::size_t>(end - mac_at));
    if (!head_decrypted) start.apply_head(chunk.in, chunk.out, chunk.len);
    if (offset < chunk.len)
        chacha20_xor(start.input, counter, chunk.in + offset, chunk.out + offset,
                     chunk.len - offset);
}

void init(void* state, const std::uint8_t* key, std::size_t /*key_len: always 32*/) {
    std::memcpy(static_cast<KeyState*>(state)->key, key, kKeySize);
}

void seal(const void* state, std::span<const AeadChunk> chunks, std::size_t tag_len) {
    const auto& key_state = *static_cast<const KeyState*>(state);
    for (const AeadChunk& chunk : chunks) {
        ChunkStart start(key_state, chunk);
        start.apply_head(chunk.in, chunk.out, chunk.len);
        seal_body(start, chunk);
        std::uint8_t tag[kTagSize];
        poly_finish(start.mac, chunk.aad_len, chunk.len, tag);
        std::memcpy(chunk.tag, tag, tag_len);
    }
}

// One pass: the MAC reads each part of the ciphertext just before it is decrypted. What the
// pass wrote is plaintext of a chunk not yet authenticated; AeadKey::open zeroes it when the
// tag does not match, before anything returns to a caller.
std::size_t open(const void* state, std::span<const AeadChunk> chunks, std::size_t tag_len,
                 bool* ok) {
    const auto& key_state = *static_cast<const KeyState*>(state);
    return open_each(chunks, ok, [&](const AeadChunk& chunk) {
        ChunkStart start(key_state, chunk);
        open_body(start, chunk);
        std::uint8_t expected[kTagSize];
        poly_finish(start.mac, chunk.aad_len, chunk.len, expected);
        const bool authentic = equal_in_constant_time(expected, chunk.tag, tag_len);
        secure_wipe(expected, sizeof expected);
        return authentic;
    });
}

const AeadImpl kTable{Aead::chacha20_poly1305, sizeof(KeyState), &init, &seal, &open};

}  // namespace

const AeadImpl* const kChaCha20Poly1305Avx2 = &kTable;

}  // namespace warp::x86
