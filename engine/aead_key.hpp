// AeadKey and BlockCipherKey: the safe way to use a backend's tables. They own the expanded
// key (wiped on destruction), check every argument once against the contracts in aead.hpp and
// block_cipher.hpp, and throw warp::Error(invalid_argument) instead of calling a backend with
// arguments it may assume valid.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "engine/aead.hpp"
#include "engine/block_cipher.hpp"
#include "engine/secure_memory.hpp"

namespace warp {

// Whether `key_len` bytes is a valid key for the AEAD (AES-GCM: 16/24/32; ChaCha: 32).
bool aead_key_len_ok(Aead aead, std::size_t key_len) noexcept;
// Whether `tag_len` is allowed (AES-GCM: 4, 8, 12..16; ChaCha20-Poly1305: 16).
bool aead_tag_len_ok(Aead aead, std::size_t tag_len) noexcept;
// Whether `nonce_len` is allowed (AES-GCM: >= 1; ChaCha20-Poly1305: 12).
bool aead_nonce_len_ok(Aead aead, std::size_t nonce_len) noexcept;
// The largest message the AEAD allows under one nonce.
std::uint64_t aead_max_message_len(Aead aead) noexcept;

class AeadKey {
public:
    AeadKey(const AeadImpl& impl, std::span<const std::uint8_t> key);

    Aead aead() const noexcept { return impl_->aead; }
    // The backend's preferred bytes per call (AeadImpl::batch_bytes; 0: no preference).
    std::size_t batch_bytes() const noexcept { return impl_->batch_bytes; }

    // Seals every chunk (see AeadImpl::seal). Throws on a contract violation, before any
    // chunk is touched.
    void seal(std::span<const AeadChunk> chunks, std::size_t tag_len = kMaxTagSize) const;

    // Opens every chunk; ok must have chunks.size() entries. Returns the number of chunks
    // that failed to authenticate (their output is zeroed). Throws on a contract violation.
    std::size_t open(std::span<const AeadChunk> chunks, bool* ok,
                     std::size_t tag_len = kMaxTagSize) const;

    // The backend's pin_buffer (AeadImpl): whether [p, p + n) is now ready for direct
    // transfers. False for backends without it. Go through PinnedRange.
    bool pin_buffer(void* p, std::size_t n) const;
    void unpin_buffer(void* p) const;

private:
    void check(std::span<const AeadChunk> chunks, std::size_t tag_len) const;

    const AeadImpl* impl_;
    SecureBuffer state_;
};

// A buffer offered to key's backend for direct transfers (AeadImpl::pin_buffer) for as long as
// this lives; nothing happens for backends that do not take it. Destroy it before the memory.
class PinnedRange {
public:
    PinnedRange(const AeadKey& key, void* p, std::size_t n)
        : key_(key), p_(p), pinned_(key.pin_buffer(p, n)) {}
    ~PinnedRange() {
        if (pinned_) key_.unpin_buffer(p_);
    }
    PinnedRange(const PinnedRange&) = delete;
    PinnedRange& operator=(const PinnedRange&) = delete;
    bool pinned() const noexcept { return pinned_; }

private:
    const AeadKey& key_;
    void* p_;
    bool pinned_;
};

class BlockCipherKey {
public:
    BlockCipherKey(const BlockCipherImpl& impl, std::span<const std::uint8_t> key);

    // in and out hold `blocks` 16-byte blocks; out == in allowed.
    void encrypt(const std::uint8_t* in, std::uint8_t* out, std::size_t blocks) const;
    void decrypt(const std::uint8_t* in, std::uint8_t* out, std::size_t blocks) const;

private:
    const BlockCipherImpl* impl_;
    SecureBuffer state_;
};

}  // namespace warp
