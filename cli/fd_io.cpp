#include "cli/fd_io.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "cli/place.hpp"
#include "cli/report.hpp"
#include "engine/error.hpp"
#include "engine/secure_memory.hpp"
#include "engine/stream/placed_buffer.hpp"

namespace warp::cli {

InputFile::InputFile(const std::string& path) {
    if (path.empty() || path == "-") {
        fd_ = STDIN_FILENO;
        name_ = "stdin";
    } else {
        name_ = path;
        do fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        while (fd_ < 0 && errno == EINTR);
        if (fd_ < 0) throw_io(name_, "cannot open", errno);
        owned_ = true;
    }
    check_opened();
}

InputFile::InputFile(const Place& place, int extra_flags) : owned_(true), name_(place.shown()) {
    fd_ = place.open(O_RDONLY | extra_flags);
    if (fd_ < 0) throw_io(name_, "cannot open", errno);
    check_opened();
}

void InputFile::check_opened() {
    int err = 0;
    if (::fstat(fd_, &status_) != 0) err = errno;
    else if (S_ISDIR(status_.st_mode)) err = EISDIR;
    if (err != 0) {
        if (owned_) ::close(fd_);  // the destructor of an object never made does not run
        throw_io(name_, err == EISDIR ? "cannot read" : "cannot stat", err);
    }
    // A hint only; failure is harmless (pipes do not support it).
    if (is_regular()) (void)::posix_fadvise(fd_, 0, 0, POSIX_FADV_SEQUENTIAL);
}

InputFile::~InputFile() {
    if (owned_) ::close(fd_);
}

std::optional<std::uint64_t> InputFile::size() const {
    if (!is_regular()) return std::nullopt;
    return static_cast<std::uint64_t>(status_.st_size);
}

}  // namespace warp::cli
