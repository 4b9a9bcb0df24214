// Byte streams over memory, and a window of a RandomAccessSource read as a ByteSource.
// For tests, for formats (range decryption reads a slice of a file through the pipeline) and
// for anyone who has the bytes already.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "engine/error.hpp"
#include "engine/io.hpp"

namespace warp::stream {

// Reads a span (not owned: it must outlive the source).
class SpanSource final : public ByteSource {
public:
    explicit SpanSource(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}
    std::size_t read(std::uint8_t* buf, std::size_t len) override {
        const std::size_t n = std::min(len, bytes_.size() - position_);
        if (n != 0) std::memcpy(buf, bytes_.data() + position_, n);
        position_ += n;
        return n;
    }
    std::uint64_t position() const noexcept override { return position_; }

private:
    std::span<const std::uint8_t> bytes_;
    std::size_t position_ = 0;
};

// Appends everything written to a vector.
class VectorSink final : public ByteSink {
public:
    void write(const std::uint8_t* buf, std::size_t len) override {
        bytes.insert(bytes.end(), buf, buf + len);
    }
    std::vector<std::uint8_t> bytes;
};

// Counts and drops (`verify`, benchmarks).
class DiscardSink final : public ByteSink {
public:
    void write(const std::uint8_t*, std::size_t len) override { bytes_written += len; }
    std::uint64_t bytes_written = 0;
};

// Passes on bytes [skip, skip + take) of what is written to it (range decryption: the slice
// of the chunks it opened).
class SliceSink final : public ByteSink {
public:
    SliceSink(ByteSink& out, std::uint64_t skip, std::uint64_t take)
        : out_(out), skip_(skip), take_(take) {}
    void write(const std::uint8_t* buf, std::size_t len) override {
        const std::size_t skipped = static_cast<std::size_t>(std::min<std::uint64_t>(skip_, len));
        skip_ -= skipped;
        const std::size_t n =
            static_cast<std::size_t>(std::min<std::uint64_t>(take_, len - skipped));
        if (n != 0) out_.write(buf + skipped, n);
        take_ -= n;
    }

private:
    ByteSink& out_;
    std::uint64_t skip_;
    std::uint64_t take_;
};

// `length` bytes of `in` from `offset` (a range decryption's final chunk or trailer).
inline std::vector<std::uint8_t> read_bytes_at(const RandomAccessSource& in, std::uint64_t offset,
                                               std::uint64_t length) {
    std::vector<std::uint8_t> bytes(static_cast<std::size_t>(length));
    in.read_at(offset, bytes.data(), bytes.size());
    return bytes;
}

// A span as a seekable source.
class SpanRandomAccess final : public RandomAccessSource {
public:
    explicit SpanRandomAccess(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}
    std::uint64_t size() const override { return bytes_.size(); }
    void read_at(std::uint64_t offset, std::uint8_t* buf, std::size_t len) const override {
        if (offset > bytes_.size() || len > bytes_.size() - offset)
            throw Error(ErrorCause::truncated, "read past the end of the input");
        if (len != 0) std::memcpy(buf, bytes_.data() + offset, len);
    }

private:
    std::span<const std::uint8_t> bytes_;
};

// Reads [offset, offset + length) of a RandomAccessSource front to back, clamped to its size.
class WindowSource final : public ByteSource {
public:
    WindowSource(const RandomAccessSource& source, std::uint64_t offset, std::uint64_t length)
        : source_(source), position_(offset) {
        const std::uint64_t size = source.size();
        end_ = offset >= size ? offset : offset + std::min(length, size - offset);
    }
    std::size_t read(std::uint8_t* buf, std::size_t len) override {
        const std::size_t n =
            static_cast<std::size_t>(std::min<std::uint64_t>(len, end_ - position_));
        if (n != 0) source_.read_at(position_, buf, n);
        position_ += n;
        return n;
    }
    std::uint64_t position() const noexcept override { return position_; }

private:
    const RandomAccessSource& source_;
    std::uint64_t position_;
    std::uint64_t end_;
};

}  // namespace warp::stream
