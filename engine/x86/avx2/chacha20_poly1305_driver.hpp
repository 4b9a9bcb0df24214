// ChaCha20-Poly1305 (RFC 8439 2.8) around a stitched step kernel: the one driver of the x86
// ChaCha20-Poly1305 backends (x86-avx2 with eight-block steps, x86-avx512 with sixteen), as
// vaes/gcm_driver.hpp is for AES-GCM.
//
// Per chunk, the short ChaCha path computes blocks 0..3 at once: block 0 gives the one-time
// Poly1305 key (2.6), blocks 1..3 the keystream of the message's head, its first 0 to 192
// bytes (head_length), and the step kernel encrypts the rest from the block after the head.
// (A kernel that can compute block 0 beside its first step does so where the chunk has no
// head and its MAC lags: key_in_first_step.)
// The tag covers
//   aad || pad16 || ciphertext || pad16 || le64(aad_len) || le64(ciphertext_len).
//
// After the head, whole steps run stitched: the kernel's ChaCha20 rounds with the Poly1305 of
// earlier bytes interleaved; the tail goes through the keystream functions and the MAC beside
// them. open authenticates in the same pass as it decrypts and compares the tag in constant
// time; a chunk that fails has its out zeroed by AeadKey::open, so its plaintext is never
// released. Both work in place (out == in): the MAC always reads a ciphertext before the
// keystream overwrites it.
//
// A step kernel K provides:
//   K::kBytes          the bytes of one step (a multiple of 64, above kChaChaShortBytes)
//   K::kMaxMacBlocks   the most MAC blocks one step may absorb
//   K::MacExtra        per-chunk state of its MAC beyond PolyState (powers of r), wiped with
//                      the chunk; default-constructible
//   K::step(input, counter, in, out, mac, extra, mac_src, mac_blocks)
//                      out = in ^ kBytes of keystream from block `counter`, mac absorbing
//                      mac_blocks whole blocks of mac_src, every read before the first store;
//                      `extra` is the chunk's MacExtra of the outermost kernel
//   K::absorb(mac, extra, src, len)
//                      (optional) the MAC alone over len bytes, zero-padded to 16: a sealed
//                      chunk's last step and tail, absorbed after the loop
//   K::Smaller         (optional) a kernel for steps of at most Smaller::kBytes bytes, whose
//                      step takes (and may ignore) the outer kernel's MacExtra
//   K::step_with_key_block(input, counter, in, out, key_block)
//                      (optional) a whole step with no MAC, block 0 (the MAC key block)
//                      computed beside it into key_block[64]: see key_in_first_step
//
// Constant time: which code runs depends on lengths only, which are public.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

#include "engine/aead.hpp"
#include "engine/open_each.hpp"
#include "engine/secure_memory.hpp"
#include "engine/x86/avx2/chacha20_avx2.hpp"
#include "engine/x86/avx2/poly1305_avx2.hpp"

namespace warp::x86::chacha_driver {

using avx2::ChaChaInput;
using avx2::kChaChaBlockSize;
using avx2::kChaChaShortBlocks;
using avx2::kChaChaShortBytes;
using avx2::kPolyBlockSize;
using avx2::PolyState;

inline constexpr std::size_t kKeySize = 32;
inline constexpr std::size_t kTagSize = kMaxTagSize;  // Poly1305: the engine's 16-byte tag
// Blocks 1..3 of the first short call: the most message bytes they cover.
inline constexpr std::size_t kHeadBytes = kChaChaShortBytes - kChaChaBlockSize;

struct KeyState {
    std::uint8_t key[kKeySize];
};
static_assert(alignof(KeyState) <= kStateAlignment);

// How much of a message of len bytes blocks 1..3 cover: all of a message of up to 192 bytes;
// otherwise whole blocks, as many as leave the rest in whole steps of the kernel where that
// can be (none for a message of whole steps, such as the pipeline's 16 and 64 KiB chunks), and
// at most three. A fixed 192-byte head left such a message's last step short, which a step
// kernel runs through a stack buffer: at 16 KiB, 7% of x86-avx512's time went to that step.
template <typename K>
constexpr std::size_t head_length(std::size_t len) {
    if (len <= kHeadBytes) return len;
    const std::size_t beyond_steps = len % K::kBytes;
    return std::min(kHeadBytes, beyond_steps / kChaChaBlockSize * kChaChaBlockSize);
}

template <typename K>
concept HasKeyBlockStep = requires(const ChaChaInput& input, const std::uint8_t* in,
                                   std::uint8_t* out) {
    K::step_with_key_block(input, std::uint32_t{1}, in, out, out);
};

// Whether the chunk's first step computes block 0 beside its own blocks, instead of the four
// short blocks computing it before: where the kernel can, where the MAC lags the stores (a
// seal, an open out of place), so that the first step has no MAC blocks and needs no key yet,
// and where there is no head (which needs blocks 1..3) and a whole first step. Alone, the
// short blocks are a chain of dependent instructions that leaves the ports idle: at 16 KiB
// they cost x86-avx512 4% of a chunk.
template <typename K>
bool key_in_first_step(const AeadChunk& chunk, bool mac_lags) {
    if constexpr (HasKeyBlockStep<K>)
        return mac_lags && head_length<K>(chunk.len) == 0 && chunk.len >= K::kBytes;
    return false;
}

// The chunk's ChaCha input, its first four keystream blocks, and the MAC keyed by block 0
// having absorbed aad || pad16; or, where the first step computes block 0 (key_in_first_step),
// neither blocks nor MAC until begin_mac.
template <typename K>
struct ChunkStart {
    ChaChaInput input;
    alignas(32) std::uint8_t head[kChaChaShortBytes];
    PolyState mac;
    typename K::MacExtra extra{};
    std::size_t head_len;       // head_length(chunk.len)
    std::uint32_t bulk_counter;  // the block the step kernel starts from
    bool key_in_first_step;     // the caller's key_in_first_step(chunk, ...)

    ChunkStart(const KeyState& state, const AeadChunk& chunk, bool key_block_in_first_step)
        : input(avx2::chacha_input(state.key, chunk.nonce)),
          head_len(head_length<K>(chunk.len)),
          bulk_counter(static_cast<std::uint32_t>(1 + head_len / kChaChaBlockSize)),
          key_in_first_step(key_block_in_first_step) {
        if (key_in_first_step) return;
        avx2::chacha20_keystream4(input, 0, head);
        begin_mac(chunk);
    }
    ~ChunkStart() { secure_wipe(this, sizeof *this); }  // one call: a third of the cost of three
    ChunkStart(const ChunkStart&) = delete;
    ChunkStart& operator=(const ChunkStart&) = delete;

    // The MAC keyed by block 0, in head, absorbs aad || pad16.
    void begin_mac(const AeadChunk& chunk) {
        avx2::poly_init(mac, head);  // the first 32 bytes of block 0
        avx2::poly_absorb_padded(mac, chunk.aad, chunk.aad_len);
    }

    // The head of the chunk from blocks 1..3.
    void apply_head(const std::uint8_t* in, std::uint8_t* out) const {
        const std::uint8_t* keystream = head + kChaChaBlockSize;
        for (std::size_t i = 0; i < head_len; ++i)
            out[i] = static_cast<std::uint8_t>(in[i] ^ keystream[i]);
    }
};

// Whole MAC blocks from `from` up to `to`.
inline std::size_t blocks_between(const std::uint8_t* from, const std::uint8_t* to) {
    return static_cast<std::size_t>(to - from) / kPolyBlockSize;
}

template <typename K>
concept HasSmallerStep = requires { typename K::Smaller; };

// The MAC over len bytes zero-padded to 16, through the kernel's own MAC loop where it has one.
template <typename K>
void absorb_padded(ChunkStart<K>& start, const std::uint8_t* src, std::size_t len) {
    if constexpr (requires { K::absorb(start.mac, start.extra, src, len); })
        K::absorb(start.mac, start.extra, src, len);
    else
        avx2::poly_absorb_padded(start.mac, src, len);
}

// One stitched step of n bytes (kChaChaShortBytes < n <= K::kBytes): straight through when
// whole, through a stack buffer when it is the chunk's short last step; `before_copy_out`
// runs after the rounds and before such a short step's bytes reach out. A short step that a
// smaller kernel covers goes to it. MAC blocks beyond what the kernel takes in one step are
// absorbed first (they come first in the MAC's order, and are read before any store).
// Step is the chunk's kernel K or one of its smaller ones.
template <typename Step, typename K, typename BeforeCopyOut>
void wide_step(ChunkStart<K>& start, std::uint32_t counter, const std::uint8_t* in,
               std::uint8_t* out, std::size_t n, const std::uint8_t* mac_src,
               std::size_t mac_blocks, BeforeCopyOut&& before_copy_out) {
    if constexpr (HasSmallerStep<Step>) {
        if (n <= Step::Smaller::kBytes) {
            wide_step<typename Step::Smaller>(start, counter, in, out, n, mac_src, mac_blocks,
                                              before_copy_out);
            return;
        }
    }
    if (mac_blocks > Step::kMaxMacBlocks) {
        const std::size_t first = mac_blocks - Step::kMaxMacBlocks;
        // Whole blocks: no pad.
        avx2::poly_absorb_padded(start.mac, mac_src, first * kPolyBlockSize);
        mac_src += first * kPolyBlockSize;
        mac_blocks = Step::kMaxMacBlocks;
    }
    if (n == Step::kBytes) {
        Step::step(start.input, counter, in, out, start.mac, start.extra, mac_src, mac_blocks);
        return;
    }
    alignas(64) std::uint8_t buffer[Step::kBytes];
    std::memcpy(buffer, in, n);
    Step::step(start.input, counter, buffer, buffer, start.mac, start.extra, mac_src,
               mac_blocks);
    before_copy_out();
    std::memcpy(out, buffer, n);
    secure_wipe(buffer, sizeof buffer);
}

// After the head, for a seal (ciphertext = out) or an open out of place where open chooses it
// (ciphertext = in): steps of K::kBytes (the last one shorter), then a tail of at most
// kChaChaShortBytes. A seal's ciphertext exists only once written, so the MAC lags: each step
// absorbs what earlier steps (and the head) wrote, and the last step's bytes are absorbed
// after the loop. An open whose out is not its in may read the ciphertext at any time, so it
// can take the same course.
template <typename K>
void lagging_mac_body(ChunkStart<K>& start, const AeadChunk& chunk,
                      const std::uint8_t* ciphertext) {
    constexpr auto kStepBlocks = static_cast<std::uint32_t>(K::kBytes / kChaChaBlockSize);
    std::size_t offset = start.head_len;
    std::uint32_t counter = start.bulk_counter;
    const std::uint8_t* mac_at = ciphertext;  // ciphertext before this is absorbed
    if constexpr (HasKeyBlockStep<K>) {
        if (start.key_in_first_step) {  // no head: the step starts the chunk
            K::step_with_key_block(start.input, counter, chunk.in, chunk.out, start.head);
            start.begin_mac(chunk);
            offset += K::kBytes;
            counter += kStepBlocks;
        }
    }
    while (chunk.len - offset > kChaChaShortBytes) {
        const std::size_t n = std::min(chunk.len - offset, K::kBytes);
        const std::size_t mac_blocks = blocks_between(mac_at, ciphertext + offset);
        wide_step<K>(start, counter, chunk.in + offset, chunk.out + offset, n, mac_at,
                     mac_blocks, [] {});
        mac_at += mac_blocks * kPolyBlockSize;
        offset += n;
        counter += kStepBlocks;
    }
    if (offset < chunk.len)
        avx2::chacha20_xor(start.input, counter, chunk.in + offset, chunk.out + offset,
                           chunk.len - offset);
    absorb_padded(start, mac_at, static_cast<std::size_t>(ciphertext + chunk.len - mac_at));
}

// open reading ahead: the same steps, but the MAC reads ahead of the decryption, so that an
// in-place open (out == in) never overwrites ciphertext the MAC has not read: each step
// absorbs everything up to its own end before its stores (the first step also the head, which
// is decrypted after it), and a short last step absorbs the final partial block before its
// copy out.
template <typename K>
void reading_ahead_body(ChunkStart<K>& start, const AeadChunk& chunk) {
    constexpr auto kStepBlocks = static_cast<std::uint32_t>(K::kBytes / kChaChaBlockSize);
    const std::uint8_t* const end = chunk.in + chunk.len;
    std::size_t offset = start.head_len;
    std::uint32_t counter = start.bulk_counter;
    const std::uint8_t* mac_at = chunk.in;  // ciphertext before this is absorbed
    bool head_decrypted = false;
    while (chunk.len - offset > kChaChaShortBytes) {
        const std::size_t n = std::min(chunk.len - offset, K::kBytes);
        const std::size_t mac_blocks = blocks_between(mac_at, chunk.in + offset + n);
        const std::uint8_t* mac_src = mac_at;
        mac_at += mac_blocks * kPolyBlockSize;
        wide_step<K>(start, counter, chunk.in + offset, chunk.out + offset, n, mac_src,
                     mac_blocks, [&] {
                         avx2::poly_absorb_padded(start.mac, mac_at,
                                                  static_cast<std::size_t>(end - mac_at));
                         mac_at = end;
                     });
        if (!head_decrypted) {
            start.apply_head(chunk.in, chunk.out);
            head_decrypted = true;
        }
        offset += n;
        counter += kStepBlocks;
    }
    avx2::poly_absorb_padded(start.mac, mac_at, static_cast<std::size_t>(end - mac_at));
    if (!head_decrypted) start.apply_head(chunk.in, chunk.out);
    if (offset < chunk.len)
        avx2::chacha20_xor(start.input, counter, chunk.in + offset, chunk.out + offset,
                           chunk.len - offset);
}

inline void init(void* state, const std::uint8_t* key, std::size_t /*key_len: always 32*/) {
    std::memcpy(static_cast<KeyState*>(state)->key, key, kKeySize);
}

template <typename K>
void seal(const void* state, std::span<const AeadChunk> chunks, std::size_t tag_len) {
    const auto& key_state = *static_cast<const KeyState*>(state);
    for (const AeadChunk& chunk : chunks) {
        ChunkStart<K> start(key_state, chunk, key_in_first_step<K>(chunk, /*mac_lags=*/true));
        start.apply_head(chunk.in, chunk.out);
        lagging_mac_body(start, chunk, chunk.out);
        std::uint8_t tag[kTagSize];
        avx2::poly_finish(start.mac, chunk.aad_len, chunk.len, tag);
        std::memcpy(chunk.tag, tag, tag_len);
    }
}

// One pass. The MAC reads each part of the ciphertext just before it is decrypted, so that
// every MAC block is stitched into a step; but out of place (the pipeline's way), where the
// first step can make the key block (key_in_first_step), it runs a step behind as a seal's,
// which needs no key before the first step. (A step behind leaves the last step's MAC alone:
// for a kernel without the key-block step that is all cost, 13% of x86-avx2's open at 1 KiB.)
// What the pass wrote is plaintext of a chunk not yet authenticated; AeadKey::open zeroes it
// when the tag does not match, before anything returns to a caller. Which course runs depends
// on the buffers' addresses and the length, not on secrets.
template <typename K>
std::size_t open(const void* state, std::span<const AeadChunk> chunks, std::size_t tag_len,
                 bool* ok) {
    const auto& key_state = *static_cast<const KeyState*>(state);
    return open_each(chunks, ok, [&](const AeadChunk& chunk) {
        const bool lagging = key_in_first_step<K>(chunk, /*mac_lags=*/chunk.out != chunk.in);
        ChunkStart<K> start(key_state, chunk, lagging);
        if (lagging)
            lagging_mac_body(start, chunk, chunk.in);  // no head: see key_in_first_step
        else
            reading_ahead_body(start, chunk);
        std::uint8_t expected[kTagSize];
        avx2::poly_finish(start.mac, chunk.aad_len, chunk.len, expected);
        const bool authentic = equal_in_constant_time(expected, chunk.tag, tag_len);
        secure_wipe(expected, sizeof expected);
        return authentic;
    });
}

// The AeadImpl of a step kernel.
template <typename K>
constexpr AeadImpl aead_table() {
    return AeadImpl{Aead::chacha20_poly1305, sizeof(KeyState), &init, &seal<K>, &open<K>};
}

}  // namespace warp::x86::chacha_driver
