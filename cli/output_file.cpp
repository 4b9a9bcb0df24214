#include "cli/output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "cli/interrupt.hpp"
#include "cli/paths.hpp"
#include "cli/report.hpp"

namespace warp::cli {
namespace {

std::string directory_of(const std::string& path) {
    std::size_t slash = path.rfind('/');
    if (slash == std::string::npos) return ".";
    if (slash == 0) return "/";
    return path.substr(0, slash);
}

std::string base_name_of(const std::string& path) {
    std::size_t slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

mode_t creation_mode(FileMode mode) {
    if (mode == FileMode::secret) return 0600;
    // umask can only be read by setting it; this runs before any other thread creates files.
    mode_t mask = ::umask(0);
    ::umask(mask);
    return 0666 & ~mask;
}

// An existing target that rename() must not replace (devices, FIFOs).
bool write_in_place(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

int open_in_place(const std::string& path) {
    int fd;
    do fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    while (fd < 0 && errno == EINTR);
    if (fd < 0) throw_io(path, "cannot open for writing", errno);
    return fd;
}

// The temporary file: hidden, beside the target, named after it so a leftover is explained.
int create_temporary(const std::string& target, std::string& temporary) {
    std::string pattern = directory_of(target) + "/." + base_name_of(target) + ".warpcrypt-XXXXXX";
    std::vector<char> name(pattern.begin(), pattern.end());
    name.push_back('\0');
    int fd = ::mkostemp(name.data(), O_CLOEXEC);
    if (fd < 0)
        throw_io(target, "cannot create a temporary file in " + directory_of(target), errno);
    temporary.assign(name.data());
    return fd;
}

// Opens what the sink writes to; sets `temporary` when the output goes through a temporary
// file, which is registered with the signal handler before anything is written to it.
int open_target(const std::string& path, FileMode mode, std::string& temporary) {
    if (is_stdio(path)) return STDOUT_FILENO;
    if (write_in_place(path)) return open_in_place(path);
    InterruptsHeld held;  // a signal now finds the file either not created or registered
    int fd = create_temporary(path, temporary);
    try {
        register_temporary_file(temporary.c_str());
        if (::fchmod(fd, creation_mode(mode)) != 0) throw_io(path, "cannot set permissions", errno);
    } catch (...) {
        ::unlink(temporary.c_str());
        clear_temporary_file();
        ::close(fd);
        throw;
    }
    return fd;
}

// rename(2) replaces whatever has the target's name. When that is refused, the target must
// still be absent at the moment of the rename: renameat2(RENAME_NOREPLACE) checks and renames
// in one step; a file system without it (EINVAL: NFS, some FUSE mounts) gets link(2), which
// fails on an existing name just as atomically, then unlink; one with neither (no hard links:
// EPERM) gets the plain rename, and the check made at start-up is all that stands.
void move_into_place(const std::string& temporary, const std::string& target, Overwrite overwrite) {
    int err = 0;
    if (overwrite == Overwrite::refuse) {
        if (::renameat2(AT_FDCWD, temporary.c_str(), AT_FDCWD, target.c_str(),
                        RENAME_NOREPLACE) == 0)
            return;
        err = errno;
        if (err == EINVAL || err == ENOSYS) {
            if (::link(temporary.c_str(), target.c_str()) == 0) {
                (void)::unlink(temporary.c_str());
                return;
            }
            err = errno;
        }
        if (err == EEXIST)
            usage_error(
                target + " already exists: another program created it while warpcrypt worked",
                "use --force (-f) to overwrite it");
        if (err != EPERM && err != EOPNOTSUPP)
            throw_io(target, "cannot rename the temporary file", err);
    }
    if (::rename(temporary.c_str(), target.c_str()) != 0)
        throw_io(target, "cannot rename the temporary file", errno);
}

}  // namespace

OutputFile::OutputFile(const std::string& path, FileMode mode, Overwrite overwrite)
    : name_(is_stdio(path) ? "stdout" : path),
      overwrite_(overwrite),
      fd_(open_target(path, mode, temporary_)),
      sink_(fd_, name_) {}

OutputFile::~OutputFile() {
    sink_.discard();
    if (!committed_) remove_temporary();
    if (fd_ > STDERR_FILENO) ::close(fd_);
}

void OutputFile::remove_temporary() noexcept {
    if (temporary_.empty()) return;
    ::unlink(temporary_.c_str());
    clear_temporary_file();
    temporary_.clear();
}

void OutputFile::commit() {
    sink_.flush();
    if (temporary_.empty()) {  // stdout or a device: nothing to rename
        committed_ = true;
        return;
    }
    // The data must be on disk before the name points at it, or a crash could leave an empty
    // or partial file under the target's name.
    if (::fsync(fd_) != 0) throw_io(name_, "cannot sync", errno);
    int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) throw_io(name_, "write error on close", errno);
    {
        InterruptsHeld held;  // renamed and unregistered together
        move_into_place(temporary_, name_, overwrite_);
        clear_temporary_file();
    }
    temporary_.clear();
    committed_ = true;
    // Make the rename itself durable; a failure here cannot undo it, so it is not an error.
    int dir = ::open(directory_of(name_).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir >= 0) {
        (void)::fsync(dir);
        ::close(dir);
    }
}

}  // namespace warp::cli
