// Byte streams the engine reads from and writes to. The engine knows nothing of files: cli/
// provides implementations over file descriptors, tests over memory.
#pragma once

#include <cstddef>
#include <cstdint>

namespace warp {

class ByteSource {
public:
    virtual ~ByteSource() = default;
    // Reads up to `len` bytes into `buf`; returns fewer only at end of input, 0 once there.
    // Implementations loop over short reads (pipes) so callers see full reads until the end.
    // Throws Error(io) on a read error.
    virtual std::size_t read(std::uint8_t* buf, std::size_t len) = 0;
    // The offset in the underlying file of the next byte read, where it is known; 0 where it
    // is not. A hint only: the chunk pipeline places its buffers by it so that the kernel's
    // copies run at full speed (stream/placed_buffer.hpp); nothing else depends on it.
    virtual std::uint64_t position() const noexcept { return 0; }
};

class ByteSink {
public:
    virtual ~ByteSink() = default;
    // Writes all `len` bytes or throws Error(io).
    virtual void write(const std::uint8_t* buf, std::size_t len) = 0;
    // A hint from a writer that knows it: exactly `bytes` more will be written after what was
    // written so far (a format, once its header is out and its input's size is known: an
    // encryption of a buffer, a decryption of a binary file of known size). Sinks that allocate
    // their storage use it to allocate once (lib/callback_io.hpp); the rest ignore it.
    virtual void expect_remaining(std::uint64_t bytes) { (void)bytes; }
    // The offset in the underlying file at which the next byte written lands, where it is
    // known; 0 where it is not. A hint only, as ByteSource::position().
    virtual std::uint64_t position() const noexcept { return 0; }
};

// Reads until `len` bytes or the end of input, whatever short reads `in` returns; returns the
// number of bytes read (less than `len` only at the end of input).
inline std::size_t read_fully(ByteSource& in, std::uint8_t* buf, std::size_t len) {
    std::size_t got = 0;
    while (got < len) {
        const std::size_t n = in.read(buf + got, len - got);
        if (n == 0) break;
        got += n;
    }
    return got;
}

// A source that can also read at an offset without moving (regular files: pread).
class RandomAccessSource {
public:
    virtual ~RandomAccessSource() = default;
    virtual std::uint64_t size() const = 0;
    // Reads exactly `len` bytes at `offset` or throws Error(truncated) if the source is shorter,
    // Error(io) on a read error.
    virtual void read_at(std::uint64_t offset, std::uint8_t* buf, std::size_t len) const = 0;
};

}  // namespace warp
