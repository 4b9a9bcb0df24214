// The engine's streams (engine/io.hpp) over what a C caller gives: read and write callbacks,
// and memory the library allocates for its result.
#pragma once

#include <cstddef>
#include <cstdint>
#include <thread>

#include "engine/io.hpp"
#include "warpcrypt.h"

namespace warp::capi {

// A callback that returned non-zero: the call stops with WARPCRYPT_E_ABORTED.
[[noreturn]] void throw_aborted(const char* callback, int status);

// Loops over the callback's short reads, so that the formats see full reads until the end.
class CallbackSource final : public ByteSource {
public:
    CallbackSource(warpcrypt_read_fn read_fn, void* user) : read_(read_fn), user_(user) {}
    std::size_t read(std::uint8_t* buf, std::size_t len) override;

private:
    warpcrypt_read_fn read_;
    void* user_;
    bool ended_ = false;
};

class CallbackSink final : public ByteSink {
public:
    CallbackSink(warpcrypt_write_fn write_fn, void* user) : write_(write_fn), user_(user) {}
    void write(const std::uint8_t* buf, std::size_t len) override;

private:
    warpcrypt_write_fn write_;
    void* user_;
};

class CallbackRandomAccess final : public RandomAccessSource {
public:
    CallbackRandomAccess(warpcrypt_read_at_fn read_at_fn, void* user, std::uint64_t size)
        : read_at_(read_at_fn), user_(user), size_(size) {}
    std::uint64_t size() const override { return size_; }
    void read_at(std::uint64_t offset, std::uint8_t* buf, std::size_t len) const override;

private:
    warpcrypt_read_at_fn read_at_;
    void* user_;
    std::uint64_t size_;
};

// Memory from malloc, handed to the caller whole (warpcrypt_buffer_free wipes and frees it).
// It grows by copying into a new block and wiping the old one: realloc would free plaintext
// unwiped. `reserve` is the size expected, so that a good guess never copies.
class BufferSink final : public ByteSink {
public:
    explicit BufferSink(std::size_t reserve);
    ~BufferSink() override;  // wipes and frees what was not taken
    BufferSink(const BufferSink&) = delete;
    BufferSink& operator=(const BufferSink&) = delete;
    void write(const std::uint8_t* buf, std::size_t len) override;
    // Grows to hold exactly what is announced, when that is more than it holds.
    void expect_remaining(std::uint64_t bytes) override;
    std::uint64_t position() const noexcept override { return size_; }
    // The bytes written, now the caller's; the sink is empty after.
    std::uint8_t* take(std::size_t* len) noexcept;

private:
    void grow(std::size_t capacity);

    std::uint8_t* data_ = nullptr;
    std::size_t size_ = 0;
    std::size_t capacity_ = 0;
};

// The output written into memory the caller allocates when its size is known
// (warpcrypt_alloc_fn, called once): at the first ByteSink::expect_remaining, after what came
// before it (a header) is moved there; else at finish(), the whole output copied once. Writes
// beyond the size announced are an internal error. Destroyed unfinished (a failure), it wipes
// what it wrote into the caller's memory.
class AllocatingSink final : public ByteSink {
public:
    AllocatingSink(warpcrypt_alloc_fn alloc, void* user, std::size_t reserve)
        : alloc_(alloc), user_(user), staged_(reserve) {}
    ~AllocatingSink() override;
    AllocatingSink(const AllocatingSink&) = delete;
    AllocatingSink& operator=(const AllocatingSink&) = delete;
    void write(const std::uint8_t* buf, std::size_t len) override;
    void expect_remaining(std::uint64_t bytes) override;
    std::uint64_t position() const noexcept override {
        return moved_ ? size_ : staged_.position();
    }
    // The bytes written, all in the caller's memory; the sink lets go of it.
    std::size_t finish();

private:
    void move_to_caller(std::size_t total);
    void stop_populating() noexcept;

    warpcrypt_alloc_fn alloc_;
    void* user_;
    BufferSink staged_;  // what came before the size was known
    bool moved_ = false;  // to the caller's memory, target_ (NULL for an empty output)
    std::thread populating_;   // faulting the caller's memory in ahead of the writes
    std::uint8_t* target_ = nullptr;
    std::size_t size_ = 0;
    std::size_t capacity_ = 0;
};

// Frees a buffer from BufferSink::take, wiping its `len` bytes first.
void free_buffer(std::uint8_t* buffer, std::size_t len) noexcept;

}  // namespace warp::capi
