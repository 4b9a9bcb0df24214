// Key state lives in SecureBuffer: aligned for the backends, wiped (sodium_memzero, which the
// compiler cannot elide) when released.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

namespace warp {

// Wipes n bytes in a way the optimiser cannot remove.
void secure_wipe(void* p, std::size_t n) noexcept;

class SecureBuffer {
public:
    explicit SecureBuffer(std::size_t size);
    ~SecureBuffer();
    SecureBuffer(SecureBuffer&& other) noexcept;
    SecureBuffer& operator=(SecureBuffer&& other) noexcept;
    SecureBuffer(const SecureBuffer&) = delete;
    SecureBuffer& operator=(const SecureBuffer&) = delete;

    void* data() noexcept { return data_; }
    const void* data() const noexcept { return data_; }
    std::size_t size() const noexcept { return size_; }

private:
    void release() noexcept;
    void* data_ = nullptr;
    std::size_t size_ = 0;
};

// A variable-length secret (passphrase, key-file secret, file key) that wipes itself.
class SecretBytes {
public:
    SecretBytes() = default;
    explicit SecretBytes(std::size_t size) : bytes_(size) {}
    explicit SecretBytes(std::span<const std::uint8_t> bytes) : bytes_(bytes.begin(), bytes.end()) {}
    explicit SecretBytes(std::string_view text) : bytes_(text.begin(), text.end()) {}
    ~SecretBytes() { secure_wipe(bytes_.data(), bytes_.size()); }
    SecretBytes(const SecretBytes&) = default;
    SecretBytes& operator=(const SecretBytes& other) {
        if (this != &other) {
            secure_wipe(bytes_.data(), bytes_.size());
            bytes_ = other.bytes_;
        }
        return *this;
    }
    SecretBytes(SecretBytes&& other) noexcept : bytes_(std::move(other.bytes_)) {}
    SecretBytes& operator=(SecretBytes&& other) noexcept {
        if (this != &other) {
            secure_wipe(bytes_.data(), bytes_.size());
            bytes_ = std::move(other.bytes_);
        }
        return *this;
    }

    std::uint8_t* data() noexcept { return bytes_.data(); }
    const std::uint8_t* data() const noexcept { return bytes_.data(); }
    std::size_t size() const noexcept { return bytes_.size(); }
    bool empty() const noexcept { return bytes_.empty(); }
    std::span<const std::uint8_t> span() const noexcept { return bytes_; }

private:
    std::vector<std::uint8_t> bytes_;
};

}  // namespace warp
