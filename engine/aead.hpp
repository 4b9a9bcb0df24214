// The AEAD interface every backend implements (docs/design.md, "The AEAD interface").
//
// A backend is a table of sizes and function pointers, in the manner of BoringSSL's
// `struct evp_aead_st`: no class hierarchy, no virtual calls per chunk. Callers normally use
// `AeadKey` (aead_key.hpp), which owns the key state, validates every argument once and then
// calls the table; the table's functions may therefore assume valid arguments.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace warp {

// The AEAD constructions the engine knows. AES-GCM takes 16-, 24- or 32-byte keys;
// ChaCha20-Poly1305 a 32-byte key.
enum class Aead : std::uint8_t { aes_gcm, chacha20_poly1305 };

inline constexpr std::size_t kChunkNonceSize = 12;  // the nonce every fast path is built for
inline constexpr std::size_t kMaxTagSize = 16;

// One message of a batch.
//
// Contract (checked by AeadKey before any backend runs):
// - nonce: AES-GCM accepts any length >= 1 (12 is the fast path; other lengths are hashed into
//   J0 as SP 800-38D says); ChaCha20-Poly1305 exactly 12 bytes.
// - aad may be empty (aad == nullptr allowed when aad_len == 0).
// - in/out: `len` bytes. out == in (exact in-place) is allowed; any other overlap is not.
// - tag: tag_len bytes (see AeadImpl), written by seal, read by open. It may not overlap out.
// - AES-GCM messages are at most 2^36 - 32 bytes (SP 800-38D); ChaCha20-Poly1305 at most
//   2^38 - 64 bytes (RFC 8439's 32-bit block counter).
struct AeadChunk {
    const std::uint8_t* nonce = nullptr;
    std::size_t nonce_len = 0;
    const std::uint8_t* aad = nullptr;
    std::size_t aad_len = 0;
    const std::uint8_t* in = nullptr;
    std::uint8_t* out = nullptr;
    std::size_t len = 0;
    std::uint8_t* tag = nullptr;
};

// A backend's implementation of one AEAD.
//
// - state_size: bytes of key state; the caller provides that many bytes aligned to
//   kStateAlignment, and wipes them when the key is dropped.
// - init: expands `key` (a length the AEAD accepts) into `state`. Never fails.
// - seal: encrypts and authenticates every chunk; writes out and the first tag_len bytes of
//   the full tag. Thread-safe on a shared state (state is read-only after init).
// - open: authenticates every chunk and decrypts it. ok[i] is set to true when chunk i
//   authenticated, false when it did not. Returns the number of failures. Tags are compared
//   in constant time. What a failed chunk's out bytes hold is unspecified here: AeadKey::open
//   zeroes them before it returns, in one place for every backend, so no plaintext of an
//   unauthenticated chunk is ever released. Callers go through AeadKey.
// - tag_len: AES-GCM 4, 8 or 12..16 (SP 800-38D 5.2.1.2); ChaCha20-Poly1305 16.
// - batch_bytes: how many bytes of chunks one seal/open call should get to run well; 0 for the
//   CPU backends (the pipeline's default suits them). A GPU needs far more per call to hide its
//   launch and transfer latency.
// - pin_buffer / unpin_buffer (device backends; null elsewhere): pin_buffer(p, n) lets the
//   backend prepare [p, p + n) for direct transfers (CUDA: page-locked with cudaHostRegister),
//   so that chunks lying in it travel to and from the device with no copy on the host; false
//   when it could not, and the backend copies through its own buffers as for any other memory.
//   The caller keeps the memory alive and calls unpin_buffer(p) before freeing it. Long-lived
//   buffers only (the pipeline's batches): pinning costs about a page fault per page.
struct AeadImpl {
    Aead aead;
    std::size_t state_size;
    void (*init)(void* state, const std::uint8_t* key, std::size_t key_len);
    void (*seal)(const void* state, std::span<const AeadChunk> chunks, std::size_t tag_len);
    std::size_t (*open)(const void* state, std::span<const AeadChunk> chunks, std::size_t tag_len,
                        bool* ok);
    std::size_t batch_bytes = 0;
    bool (*pin_buffer)(void* p, std::size_t n) = nullptr;
    void (*unpin_buffer)(void* p) = nullptr;
};

inline constexpr std::size_t kStateAlignment = 64;

}  // namespace warp
