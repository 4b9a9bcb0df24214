#include "engine/aead_key.hpp"

#include <sodium.h>

#include <string>

#include "engine/error.hpp"

namespace warp {
namespace {

[[noreturn]] void contract_violation(const std::string& what) {
    throw Error(ErrorCause::invalid_argument, what);
}

// Two ranges overlap in any way other than being identical.
bool partially_overlap(const std::uint8_t* a, const std::uint8_t* b, std::size_t len) {
    if (a == b || len == 0) return false;
    return a < b + len && b < a + len;
}

bool key_len_is_aes(std::size_t key_len) { return key_len == 16 || key_len == 24 || key_len == 32; }

}  // namespace

bool aead_key_len_ok(Aead aead, std::size_t key_len) noexcept {
    return aead == Aead::aes_gcm ? key_len_is_aes(key_len) : key_len == 32;
}

bool aead_tag_len_ok(Aead aead, std::size_t tag_len) noexcept {
    if (aead == Aead::chacha20_poly1305) return tag_len == 16;
    return tag_len == 4 || tag_len == 8 || (tag_len >= 12 && tag_len <= 16);
}

bool aead_nonce_len_ok(Aead aead, std::size_t nonce_len) noexcept {
    return aead == Aead::aes_gcm ? nonce_len >= 1 : nonce_len == kChunkNonceSize;
}

std::uint64_t aead_max_message_len(Aead aead) noexcept {
    // GCM: 2^32 - 2 counter blocks of 16 bytes. ChaCha20: 2^32 - 1 blocks of 64 bytes after the
    // block used for the Poly1305 key.
    return aead == Aead::aes_gcm ? (std::uint64_t{1} << 36) - 32
                                 : (std::uint64_t{1} << 38) - 64;
}

AeadKey::AeadKey(const AeadImpl& impl, std::span<const std::uint8_t> key)
    : impl_(&impl), state_(impl.state_size) {
    if (!aead_key_len_ok(impl.aead, key.size()))
        contract_violation("AEAD key of " + std::to_string(key.size()) + " bytes is not allowed");
    impl.init(state_.data(), key.data(), key.size());
}

bool AeadKey::pin_buffer(void* p, std::size_t n) const {
    return impl_->pin_buffer != nullptr && n != 0 && impl_->pin_buffer(p, n);
}

void AeadKey::unpin_buffer(void* p) const {
    if (impl_->unpin_buffer != nullptr) impl_->unpin_buffer(p);
}

void AeadKey::check(std::span<const AeadChunk> chunks, std::size_t tag_len) const {
    const Aead aead = impl_->aead;
    if (!aead_tag_len_ok(aead, tag_len))
        contract_violation("tag of " + std::to_string(tag_len) + " bytes is not allowed");
    for (const AeadChunk& c : chunks) {
        if (!aead_nonce_len_ok(aead, c.nonce_len) || c.nonce == nullptr)
            contract_violation("nonce of " + std::to_string(c.nonce_len) +
                               " bytes is not allowed");
        if (c.aad_len != 0 && c.aad == nullptr) contract_violation("AAD pointer is null");
        if (c.len != 0 && (c.in == nullptr || c.out == nullptr))
            contract_violation("message pointer is null");
        if (c.tag == nullptr) contract_violation("tag pointer is null");
        if (c.len > aead_max_message_len(aead)) contract_violation("message too long for AEAD");
        if (partially_overlap(c.in, c.out, c.len))
            contract_violation("input and output overlap without being identical");
    }
}

void AeadKey::seal(std::span<const AeadChunk> chunks, std::size_t tag_len) const {
    check(chunks, tag_len);
    impl_->seal(state_.data(), chunks, tag_len);
}

std::size_t AeadKey::open(std::span<const AeadChunk> chunks, bool* ok, std::size_t tag_len) const {
    check(chunks, tag_len);
    if (ok == nullptr && !chunks.empty()) contract_violation("ok array is null");
    const std::size_t failures = impl_->open(state_.data(), chunks, tag_len, ok);
    // The one place a failed chunk's output is wiped, whatever the backend left there
    // (AeadImpl::open): no plaintext of an unauthenticated chunk leaves this call.
    if (failures != 0)
        for (std::size_t i = 0; i < chunks.size(); ++i)
            if (!ok[i] && chunks[i].len != 0) sodium_memzero(chunks[i].out, chunks[i].len);
    return failures;
}

BlockCipherKey::BlockCipherKey(const BlockCipherImpl& impl, std::span<const std::uint8_t> key)
    : impl_(&impl), state_(impl.state_size) {
    if (!key_len_is_aes(key.size()))
        contract_violation("AES key of " + std::to_string(key.size()) + " bytes is not allowed");
    impl.init(state_.data(), key.data(), key.size());
}

void BlockCipherKey::encrypt(const std::uint8_t* in, std::uint8_t* out, std::size_t blocks) const {
    if (partially_overlap(in, out, blocks * kAesBlockSize))
        contract_violation("input and output overlap without being identical");
    impl_->encrypt(state_.data(), in, out, blocks);
}

void BlockCipherKey::decrypt(const std::uint8_t* in, std::uint8_t* out, std::size_t blocks) const {
    if (partially_overlap(in, out, blocks * kAesBlockSize))
        contract_violation("input and output overlap without being identical");
    impl_->decrypt(state_.data(), in, out, blocks);
}

}  // namespace warp
