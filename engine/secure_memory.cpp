#include "engine/secure_memory.hpp"

#include <sodium.h>

#include <new>
#include <utility>

#include "engine/aead.hpp"

namespace warp {

void secure_wipe(void* p, std::size_t n) noexcept {
    if (p != nullptr && n != 0) sodium_memzero(p, n);
}

SecureBuffer::SecureBuffer(std::size_t size)
    : data_(::operator new(size == 0 ? 1 : size, std::align_val_t{kStateAlignment})),
      size_(size) {}

SecureBuffer::~SecureBuffer() { release(); }

SecureBuffer::SecureBuffer(SecureBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}

SecureBuffer& SecureBuffer::operator=(SecureBuffer&& other) noexcept {
    if (this != &other) {
        release();
        data_ = std::exchange(other.data_, nullptr);
        size_ = std::exchange(other.size_, 0);
    }
    return *this;
}

void SecureBuffer::release() noexcept {
    if (data_ == nullptr) return;
    secure_wipe(data_, size_);
    ::operator delete(data_, std::align_val_t{kStateAlignment});
    data_ = nullptr;
    size_ = 0;
}

}  // namespace warp
