// Streams over file descriptors (fd_stream.hpp).
#include "engine/stream/fd_stream.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "engine/error.hpp"
#include "engine/secure_memory.hpp"

namespace warp::stream {

void throw_io(const std::string& name, const std::string& what, int err) {
    throw Error(ErrorCause::io, name + ": " + what + ": " + std::strerror(err));
}

namespace {

// A full disk and a file size limit are write errors the user can act on: each gets a hint.
[[noreturn]] void throw_write_error(const std::string& name, int err) {
    const std::string message = name + ": write error: " + std::strerror(err);
    if (err == ENOSPC || err == EDQUOT)
        throw Error(ErrorCause::io, message, "free space on that file system, or write elsewhere");
    if (err == EFBIG)
        throw Error(ErrorCause::io, message,
                    "the output outgrew the file size limit (`ulimit -f`) or the file system's "
                    "largest file; write elsewhere");
    throw_io(name, "write error", err);
}

// Where a descriptor reads or writes next: its offset, or 0 where it has none (a pipe, a
// terminal). Only a hint for placing buffers (ByteSource::position).
std::uint64_t starting_offset(int fd) {
    const off_t offset = ::lseek(fd, 0, SEEK_CUR);
    return offset < 0 ? 0 : static_cast<std::uint64_t>(offset);
}

}  // namespace

FdSource::FdSource(int fd, std::string name)
    : fd_(fd), name_(std::move(name)), position_(starting_offset(fd)) {}

FdSink::FdSink(int fd, std::string name)
    : fd_(fd), name_(std::move(name)), position_(starting_offset(fd)) {}

std::size_t FdSource::read_direct(std::uint8_t* buf, std::size_t len) {
    std::size_t done = 0;
    while (done < len && !eof_) {
        ssize_t n = ::read(fd_, buf + done, len - done);
        if (n > 0) {
            done += static_cast<std::size_t>(n);
        } else if (n == 0) {
            eof_ = true;
        } else if (errno != EINTR) {
            throw_io(name_, "read error", errno);
        }
    }
    return done;
}

std::size_t FdSource::read(std::uint8_t* buf, std::size_t len) {
    const std::size_t served = read_buffered(buf, len);
    position_ += served;
    return served;
}

std::size_t FdSource::read_buffered(std::uint8_t* buf, std::size_t len) {
    std::size_t done = 0;
    // Whatever is buffered goes first.
    std::size_t buffered = std::min(len, end_ - begin_);
    if (buffered != 0) {
        std::memcpy(buf, buffer_->data() + begin_, buffered);
        begin_ += buffered;
        done = buffered;
    }
    if (done == len) return done;
    // Large requests bypass the buffer: no extra copy for the bulk of the data.
    if (len - done >= kReadBufferSize) return done + read_direct(buf + done, len - done);
    // Small requests (headers, key files) refill the buffer with one read. Left
    // uninitialised: only the pages a read fills are touched.
    if (!buffer_) buffer_ = std::make_unique<stream::PlacedBuffer>(kReadBufferSize);
    begin_ = 0;
    // The buffer is empty: the descriptor's offset is that of the next byte served.
    std::uint8_t* at = buffer_->place(position_ + done);
    end_ = read_direct(at, kReadBufferSize);
    buffer_->mark_used(end_);
    std::size_t more = std::min(len - done, end_);
    std::memcpy(buf + done, at, more);
    begin_ = more;
    return done + more;
}

void FdSink::write_direct(const std::uint8_t* buf, std::size_t len) {
    while (len != 0) {
        ssize_t n = ::write(fd_, buf, len);
        if (n >= 0) {
            buf += n;
            len -= static_cast<std::size_t>(n);
        } else if (errno != EINTR) {
            throw_write_error(name_, errno);
        }
    }
}

void FdSink::write(const std::uint8_t* buf, std::size_t len) {
    position_ += len;
    // The buffer is given its whole capacity before the first byte: a vector that grew would
    // free its old storage, plaintext included, without wiping it.
    buffer_.reserve(kIoBlock);
    if (buffer_.size() + len < kIoBlock) {
        buffer_.insert(buffer_.end(), buf, buf + len);
        return;
    }
    flush();
    if (len >= kIoBlock) {
        write_direct(buf, len);
    } else {
        buffer_.insert(buffer_.end(), buf, buf + len);
    }
}

void FdSink::flush() {
    if (buffer_.empty()) return;
    write_direct(buffer_.data(), buffer_.size());
    secure_wipe(buffer_.data(), buffer_.size());
    buffer_.clear();
}

void FdSink::discard() noexcept {
    secure_wipe(buffer_.data(), buffer_.size());
    buffer_.clear();
}

std::uint64_t regular_file_size(int fd, const std::string& name) {
    struct stat st {};
    if (::fstat(fd, &st) != 0) throw_io(name, "cannot stat", errno);
    if (!S_ISREG(st.st_mode))
        throw Error(ErrorCause::usage, name + ": not a regular file",
                    "a range is read at offsets: give a file, not a pipe");
    return static_cast<std::uint64_t>(st.st_size);
}

void FdRandomAccess::read_at(std::uint64_t offset, std::uint8_t* buf, std::size_t len) const {
    if (offset > size_ || len > size_ - offset)
        throw Error(ErrorCause::truncated,
                    name_ + ": the file ends before the data it should hold");
    while (len != 0) {
        ssize_t n = ::pread(fd_, buf, len, static_cast<off_t>(offset));
        if (n > 0) {
            buf += n;
            len -= static_cast<std::size_t>(n);
            offset += static_cast<std::uint64_t>(n);
        } else if (n == 0) {
            throw Error(ErrorCause::truncated, name_ + ": the file shrank while being read");
        } else if (errno != EINTR) {
            throw_io(name_, "read error", errno);
        }
    }
}

}  // namespace warp::stream
