// Key state lives in SecureBuffer: aligned for the backends, wiped (sodium_memzero, which the
// compiler cannot elide) when released.
#pragma once

#include <cstddef>
#include <cstdint>

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

}  // namespace warp
