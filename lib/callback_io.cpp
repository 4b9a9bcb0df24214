// Streams over a C caller's callbacks and over library-allocated memory (callback_io.hpp).
#include "lib/callback_io.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>
#include <thread>
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

void CallbackRandomAccess::read_at(std::uint64_t offset, std::uint8_t* buf, std::size_t len) const {
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

BufferSink::~BufferSink() {
    free_buffer(data_, size_);
}

void BufferSink::expect_remaining(std::uint64_t bytes) {
    if (bytes > capacity_ - size_) grow(size_ + static_cast<std::size_t>(bytes));
}

void BufferSink::grow(std::size_t capacity) {
    auto* grown = static_cast<std::uint8_t*>(std::malloc(capacity));
    if (grown == nullptr) throw std::bad_alloc();
    if (size_ != 0) std::memcpy(grown, data_, size_);
    free_buffer(data_, size_);
    data_ = grown;
    capacity_ = capacity;
}

void BufferSink::write(const std::uint8_t* buf, std::size_t len) {
    if (len > capacity_ - size_) grow(std::max(size_ + len, capacity_ + capacity_ / 2));
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

namespace {

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23  // Linux 5.14; older kernels refuse it (EINVAL), harmlessly
#endif

// Below this, the faults are too few to be worth a thread.
constexpr std::size_t kPopulateFrom = std::size_t{4} << 20;
constexpr std::size_t kPopulateStep = std::size_t{2} << 20;

// Faults in [begin, begin + len) for writing, a step at a time, without touching the bytes.
void populate(std::uint8_t* begin, std::size_t len) noexcept {
    const std::uintptr_t page = 4096;
    std::uintptr_t at = (reinterpret_cast<std::uintptr_t>(begin) + page - 1) & ~(page - 1);
    const std::uintptr_t end = (reinterpret_cast<std::uintptr_t>(begin) + len) & ~(page - 1);
    while (at < end) {
        const std::uintptr_t n = std::min<std::uintptr_t>(kPopulateStep, end - at);
        if (::madvise(reinterpret_cast<void*>(at), n, MADV_POPULATE_WRITE) != 0) return;
        at += n;
    }
}

}  // namespace

AllocatingSink::~AllocatingSink() {
    stop_populating();
    if (moved_) secure_wipe(target_, size_);  // unfinished: a failed call
}

void AllocatingSink::stop_populating() noexcept {
    if (populating_.joinable()) populating_.join();
}

void AllocatingSink::move_to_caller(std::size_t total) {
    target_ = alloc_(user_, total);
    if (target_ == nullptr && total != 0) throw std::bad_alloc();  // NULL is fine for nothing
    moved_ = true;
    capacity_ = total;
    std::size_t staged = 0;
    std::uint8_t* bytes = staged_.take(&staged);
    if (staged > total) {
        free_buffer(bytes, staged);
        throw Error(ErrorCause::invalid_argument, "the output outgrew the size announced");
    }
    if (staged != 0) std::memcpy(target_, bytes, staged);
    size_ = staged;
    free_buffer(bytes, staged);
    // Memory fresh from the system faults a page at a time as the pipeline writes it: half the
    // time of a 64 MiB decryption into a new Python bytes object. One system call per 2 MiB on
    // a thread of its own does it ahead of the writes, for less (2026-12-06: 64 MiB, 17 ms
    // populated against 30 ms of faults, while the pipeline's threads work).
    if (total >= kPopulateFrom)
        populating_ = std::thread(populate, target_ + staged, total - staged);
}

void AllocatingSink::write(const std::uint8_t* buf, std::size_t len) {
    if (!moved_) {
        staged_.write(buf, len);
        return;
    }
    if (len > capacity_ - size_)
        throw Error(ErrorCause::invalid_argument, "the output outgrew the size announced");
    if (len != 0) std::memcpy(target_ + size_, buf, len);
    size_ += len;
}

void AllocatingSink::expect_remaining(std::uint64_t bytes) {
    if (moved_) return;  // announced once; a later hint changes nothing
    move_to_caller(static_cast<std::size_t>(staged_.position() + bytes));
}

std::size_t AllocatingSink::finish() {
    stop_populating();
    if (!moved_) move_to_caller(static_cast<std::size_t>(staged_.position()));
    if (size_ != capacity_)
        throw Error(ErrorCause::invalid_argument,
                    "the output is " + std::to_string(size_) + " bytes, not the " +
                        std::to_string(capacity_) + " announced");
    moved_ = false;  // the caller's now, whole: nothing to wipe
    return size_;
}

void free_buffer(std::uint8_t* buffer, std::size_t len) noexcept {
    if (buffer == nullptr) return;
    secure_wipe(buffer, len);
    std::free(buffer);
}

}  // namespace warp::capi
