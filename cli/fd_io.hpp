// The command's input files (a path, or stdin), over the descriptors' streams of
// engine/stream/fd_stream.hpp.
#pragma once

#include <sys/stat.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/io.hpp"
#include "engine/stream/fd_stream.hpp"

namespace warp::cli {

class Place;

// The descriptors' streams, below the CLI since the C API reads and writes descriptors too.
using stream::FdRandomAccess;
using stream::FdSink;
using stream::FdSource;
using stream::kIoBlock;
using stream::kReadBufferSize;
using stream::throw_io;

// An input: a path, or stdin for "-" / "". Owns the descriptor it opened (never stdin's).
class InputFile {
public:
    explicit InputFile(const std::string& path);  // throws Error(io) when it cannot be opened
    // The file at a place resolved before (place.hpp), opened through its directory's
    // descriptor: the input whose directory gets the output too. `extra_flags`: O_NOFOLLOW
    // for rekey in place, which must not read through a link it would then replace.
    InputFile(const Place& place, int extra_flags);
    ~InputFile();
    InputFile(const InputFile&) = delete;
    InputFile& operator=(const InputFile&) = delete;

    int fd() const noexcept { return fd_; }
    const std::string& name() const noexcept { return name_; }  // for messages
    bool is_stdin() const noexcept { return !owned_; }
    const struct stat& status() const noexcept { return status_; }
    bool is_regular() const noexcept { return S_ISREG(status_.st_mode); }
    // The size when it is a regular file (seekable, size known).
    std::optional<std::uint64_t> size() const;

private:
    void check_opened();  // fstat, directories refused, the read-ahead hint

    int fd_ = -1;
    bool owned_ = false;
    std::string name_;
    struct stat status_ {};
};

}  // namespace warp::cli
