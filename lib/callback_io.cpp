// Streams over a C caller's callbacks and over library-allocated memory (callback_io.hpp).
#include "lib/callback_io.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

#include "engine/error.hpp"
#include "engine/secure_memory.hpp"

namespace warp::capi {

void throw_aborted(const char* callback, int status) {
    throw Error(ErrorCause::interrupted, std::string("the ") + callback +
                                             " callback stopped the call (it returned " +
                                             std::to_string(status) + ")");
}

std::size_t CallbackSource::read(std::uint8_t* buf, std::size_t len) {
    std::size_t done = 0;
    while (done < len && !ended_) {
        std::size_t got = 0;
        if (const int status = read_(user_, buf + done, len - done, &got); status != 0)
            throw_aborted("read", status);
        if (got > len - done)
            throw Error(ErrorCause::usage, "the read callback said it read " + std::to_string(got) +
                                               " bytes into a buffer of " +
                                               std::to_string(len - done));
        if (got == 0) ended_ = true;
        done += got;
    }
    return done;
}

void CallbackSink::write(const std::uint8_t* buf, std::size_t len) {
    if (len == 0) return;
    if (const int status = write_(user_, buf, len); status != 0) throw_aborted("write", status);
}

void CallbackRandomAccess::read_at(std::uint64_t offset, std::uint8_t* buf,
                                   std::size_t len) const {
    if (offset > size_ || len > size_ - offset)
        throw Error(ErrorCause::truncated, "the file ends before the data it should hold");
    if (len == 0) return;
    if (const int status = read_at_(user_, offset, buf, len); status != 0)
        throw_aborted("read_at", status);
}

BufferSink::BufferSink(std::size_t reserve) : capacity_(std::max<std::size_t>(reserve, 64)) {
    data_ = static_cast<std::uint8_t*>(std::malloc(capacity_));
    if (data_ == nullptr) throw std::bad_alloc();
}

BufferSink::~BufferSink() { free_buffer(data_, size_); }

void BufferSink::write(const std::uint8_t* buf, std::size_t len) {
    if (len > capacity_ - size_) {
        const std::size_t capacity = std::max(size_ + len, capacity_ + capacity_ / 2);
        auto* grown = static_cast<std::uint8_t*>(std::malloc(capacity));
        if (grown == nullptr) throw std::bad_alloc();
        if (size_ != 0) std::memcpy(grown, data_, size_);
        free_buffer(data_, size_);
        data_ = grown;
        capacity_ = capacity;
    }
    std::memcpy(data_ + size_, buf, len);
    size_ += len;
}

std::uint8_t* BufferSink::take(std::size_t* len) noexcept {
    std::uint8_t* data = data_;
    *len = size_;
    data_ = nullptr;
    size_ = capacity_ = 0;
    return data;
}

void free_buffer(std::uint8_t* buffer, std::size_t len) noexcept {
    if (buffer == nullptr) return;
    secure_wipe(buffer, len);
    std::free(buffer);
}

}  // namespace warp::capi
