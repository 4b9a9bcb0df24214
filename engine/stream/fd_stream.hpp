// ByteSource / ByteSink / RandomAccessSource (engine/io.hpp) over POSIX file descriptors: the
// command's files and the C API's descriptors (include/warpcrypt.h, warpcrypt_*_fd).
//
// Writes go to the kernel in large pieces (kIoBlock, 1 MiB): writes at least that large go
// straight to write(2), smaller ones are gathered in a buffer of that size. Reads of at least
// kReadBufferSize (the pipeline's batches) go straight to read(2); smaller ones (a header, a
// key file) are served from one read of kReadBufferSize: enough for them, and small enough that
// a 4 KiB input does not pay for touching a megabyte.
// Short reads (pipes) and EINTR are looped over, so a source returns fewer bytes than asked
// only at the end of input. Errors throw Error(io) naming the file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/io.hpp"
#include "engine/stream/placed_buffer.hpp"

namespace warp::stream {

inline constexpr std::size_t kIoBlock = std::size_t{1} << 20;
inline constexpr std::size_t kReadBufferSize = std::size_t{64} << 10;

// Throws Error(io) "<name>: <what>: <strerror(err)>".
[[noreturn]] void throw_io(const std::string& name, const std::string& what, int err);

class FdSource final : public ByteSource {
public:
    FdSource(int fd, std::string name);
    ~FdSource() override = default;  // the buffer wipes what passed through it (PlacedBuffer)
    FdSource(const FdSource&) = delete;
    FdSource& operator=(const FdSource&) = delete;
    std::size_t read(std::uint8_t* buf, std::size_t len) override;
    std::uint64_t position() const noexcept override { return position_; }

private:
    std::size_t read_buffered(std::uint8_t* buf, std::size_t len);  // read(), position_ aside
    std::size_t read_direct(std::uint8_t* buf, std::size_t len);    // loops until len or EOF

    int fd_;
    std::string name_;
    std::uint64_t position_;  // the descriptor's offset at the start, plus bytes served
    // kReadBufferSize, allocated on first use; wipes what it held when destroyed.
    std::unique_ptr<stream::PlacedBuffer> buffer_;
    std::size_t begin_ = 0, end_ = 0;  // unread bytes: buffer_->data()[begin_, end_)
    bool eof_ = false;
};

class FdSink final : public ByteSink {
public:
    FdSink(int fd, std::string name);
    void write(const std::uint8_t* buf, std::size_t len) override;
    std::uint64_t position() const noexcept override { return position_; }
    // Writes out what is buffered. Call before committing the output: ~FdSink does not.
    void flush();
    // Drops buffered bytes unwritten, wiping them (plaintext must not linger in memory).
    void discard() noexcept;
    ~FdSink() override { discard(); }

private:
    void write_direct(const std::uint8_t* buf, std::size_t len);

    int fd_;
    std::string name_;
    std::uint64_t position_;  // the descriptor's offset at the start, plus bytes accepted
    std::vector<std::uint8_t> buffer_;
};

// The size of the regular file open at `fd`; Error(usage) naming `name` when it is not one
// (a pipe cannot be read at offsets), Error(io) when fstat fails.
std::uint64_t regular_file_size(int fd, const std::string& name);

// pread(2) over a regular file.
class FdRandomAccess final : public RandomAccessSource {
public:
    FdRandomAccess(int fd, std::uint64_t size, std::string name)
        : fd_(fd), size_(size), name_(std::move(name)) {}
    std::uint64_t size() const override { return size_; }
    void read_at(std::uint64_t offset, std::uint8_t* buf, std::size_t len) const override;

private:
    int fd_;
    std::uint64_t size_;
    std::string name_;
};

}  // namespace warp::stream
