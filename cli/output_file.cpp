#include "cli/output_file.hpp"

#include <fcntl.h>
#include <limits.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <vector>

#include "cli/file_metadata.hpp"
#include "cli/interrupt.hpp"
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

int open_retrying(const char* path, int flags, mode_t mode = 0) {
    int fd;
    do fd = ::open(path, flags, mode);
    while (fd < 0 && errno == EINTR);
    return fd;
}

// The mode the finished file gets: what the user expects of a new file (0666 & ~umask, 0600
// for a key), never wider than the file it replaces, so that --force over a private file
// keeps it private.
mode_t final_mode_for(const std::string& path, const OutputChecks& checks) {
    mode_t mode = 0600;
    if (!checks.secret) {
        // umask can only be read by setting it; this runs before any other thread creates files.
        const mode_t mask = ::umask(0);
        ::umask(mask);
        mode = 0666 & ~mask;
    }
    struct stat existing {};
    if (::stat(path.c_str(), &existing) == 0 && S_ISREG(existing.st_mode))
        mode &= existing.st_mode & 0777;
    return mode;
}

// ---- Writing into an existing FIFO or device ---------------------------------------------

// `path` is where the output's links led (follow_output_links): not a link itself, unless
// one was put there since, which O_NOFOLLOW refuses.
int open_in_place(const std::string& path, const OutputChecks& checks) {
    // O_NONBLOCK: opening a FIFO that no process reads fails (ENXIO) instead of waiting.
    const int fd =
        open_retrying(path.c_str(), O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) {
        const int err = errno;
        struct stat seen {};
        if (err == ENXIO && ::stat(path.c_str(), &seen) == 0 && S_ISFIFO(seen.st_mode))
            usage_error(path + " is a FIFO that no process is reading: writing to it would wait "
                               "forever",
                        "start the reader first, or write to a file with -o PATH");
        if (err == ELOOP)
            usage_error(path + " was replaced by a symbolic link while warpcrypt opened it",
                        "check who else writes in that directory, then run the command again");
        throw_io(path, "cannot open for writing", err);
    }
    try {
        // Judge what was opened, not what the path showed a moment before.
        struct stat opened {};
        if (::fstat(fd, &opened) != 0) throw_io(path, "cannot stat", errno);
        if (S_ISREG(opened.st_mode) || S_ISDIR(opened.st_mode))
            usage_error(path + " changed while warpcrypt opened it",
                        "check who else writes in that directory, then run the command again");
        check_in_place_target(path, opened, checks);
        if (checks.refuse_terminal && ::isatty(fd))
            usage_error("refusing to write encrypted data to a terminal (" + path + ")",
                        "redirect or use -o FILE");
        const int flags = ::fcntl(fd, F_GETFL);
        if (flags < 0 || ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0)
            throw_io(path, "cannot make the output blocking", errno);
    } catch (...) {
        ::close(fd);
        throw;
    }
    return fd;
}

// ---- New files ---------------------------------------------------------------------------

// Where the kernel shows the unnamed file, for linkat(2): AT_EMPTY_PATH would need
// CAP_DAC_READ_SEARCH, the /proc link works for any user.
std::string proc_fd_path(int fd) { return "/proc/self/fd/" + std::to_string(fd); }

// An unnamed 0600 file in `directory`, or -1 where that cannot be (no O_TMPFILE in this file
// system or kernel, no /proc to link it through, or WARPCRYPT_TEMPORARY_FILE=named).
int open_unnamed(const std::string& directory) {
    const char* choice = std::getenv(kTemporaryFileEnv);
    if (choice != nullptr && std::string_view(choice) == "named") return -1;
    if (::access("/proc/self/fd", X_OK) != 0) return -1;
    return open_retrying(directory.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
}

// A hidden name beside the target, named after it so that a leftover is explained:
// ".NAME.warpcrypt-" and 6 random characters, NAME cut short where the whole would not fit in
// NAME_MAX (any target whose own name fits gets one).
constexpr std::string_view kTemporaryMarker = ".warpcrypt-";
constexpr std::size_t kRandomChars = 6;

std::string temporary_prefix(const std::string& target) {
    std::string base = base_name_of(target);
    const std::size_t room = NAME_MAX - 1 - kTemporaryMarker.size() - kRandomChars;
    if (base.size() > room) base.resize(room);
    return directory_of(target) + "/." + base + std::string(kTemporaryMarker);
}

int create_named_temporary(const std::string& target, std::string& temporary) {
    std::string pattern = temporary_prefix(target) + std::string(kRandomChars, 'X');
    std::vector<char> name(pattern.begin(), pattern.end());
    name.push_back('\0');
    const int fd = ::mkostemp(name.data(), O_CLOEXEC);  // 0600, O_EXCL
    if (fd < 0)
        throw_io(target, "cannot create a temporary file in " + directory_of(target), errno);
    temporary.assign(name.data());
    return fd;
}

// A fresh hidden name beside the target (not created), for linking the unnamed file to.
std::string random_temporary_name(const std::string& target) {
    static constexpr char kAlphabet[] =
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    unsigned char random[kRandomChars];
    if (::getrandom(random, sizeof random, 0) != static_cast<ssize_t>(sizeof random))
        throw_io(target, "cannot get random bytes for a temporary name", errno);
    std::string name = temporary_prefix(target);
    for (unsigned char r : random) name += kAlphabet[r % (sizeof kAlphabet - 1)];
    return name;
}

OutputFile::Opened open_target(const std::string& path, const OutputChecks& checks) {
    OutputFile::Opened opened;
    if (is_stdio(path)) {
        opened.fd = STDOUT_FILENO;
        return opened;
    }
    if (const std::optional<int> fd = named_descriptor(path)) {  // checked by check_output
        opened.fd = *fd;
        return opened;
    }
    opened.target = follow_output_links(path);
    opened.owned = true;
    struct stat target {};
    if (::stat(opened.target.c_str(), &target) == 0 && !S_ISREG(target.st_mode) &&
        !S_ISDIR(target.st_mode)) {
        opened.fd = open_in_place(opened.target, checks);
        opened.method = OutputMethod::in_place;
        return opened;
    }
    opened.final_mode = final_mode_for(opened.target, checks);
    opened.fd = open_unnamed(directory_of(opened.target));
    if (opened.fd >= 0) {
        opened.method = OutputMethod::unnamed_file;
        return opened;
    }
    InterruptsHeld held;  // a signal now finds the file either not created or registered
    opened.fd = create_named_temporary(opened.target, opened.temporary);
    opened.method = OutputMethod::named_temporary;
    try {
        register_temporary_file(opened.temporary.c_str());
    } catch (...) {
        ::unlink(opened.temporary.c_str());
        ::close(opened.fd);
        throw;
    }
    return opened;
}

[[noreturn]] void appeared_meanwhile(const std::string& target) {
    usage_error(target + " already exists: another program created it while warpcrypt worked",
                "use --force (-f) to overwrite it");
}

// rename(2) replaces whatever has the target's name. When that is refused, the target must
// still be absent at the moment of the rename: renameat2(RENAME_NOREPLACE) checks and renames
// in one step; a file system without it (EINVAL: NFS, some FUSE mounts) gets link(2), which
// fails on an existing name just as atomically, then unlink; one with neither (no hard links:
// EPERM) gets the plain rename, and the check made at start-up is all that stands.
void move_into_place(const std::string& temporary, const std::string& target, bool replace) {
    int err = 0;
    if (!replace) {
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
        if (err == EEXIST) appeared_meanwhile(target);
        if (err != EPERM && err != EOPNOTSUPP)
            throw_io(target, "cannot rename the temporary file", err);
    }
    if (::rename(temporary.c_str(), target.c_str()) != 0)
        throw_io(target, "cannot rename the temporary file", errno);
}

void sync_directory_of(const std::string& path) {
    // Makes the new name durable; a failure here cannot undo it, so it is not an error.
    const int dir = open_retrying(directory_of(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir >= 0) {
        (void)::fsync(dir);
        ::close(dir);
    }
}

}  // namespace

OutputFile::OutputFile(const std::string& path, const OutputChecks& checks)
    : OutputFile(path, checks, open_target(path, checks)) {}

OutputFile::OutputFile(const std::string& path, const OutputChecks& checks, Opened opened)
    : name_(is_stdio(path) ? "stdout" : path),
      target_(std::move(opened.target)),
      temporary_(std::move(opened.temporary)),
      method_(opened.method),
      replace_(checks.force),
      final_mode_(opened.final_mode),
      fd_(opened.fd),
      owns_fd_(opened.owned),
      sink_(fd_, name_) {}

OutputFile::~OutputFile() {
    // Written in place (stdout, a FIFO), an output is released as it goes, and every byte a
    // command gives the sink may be released: ciphertext, or plaintext of chunks that
    // authenticated. What is still buffered when a command fails goes out too, so that a
    // decryption that fails at chunk k has released chunks 0..k-1 exactly (age's CCTV rule),
    // whatever the buffer's size. A new file is not committed and so never appears.
    if (!committed_ &&
        (method_ == OutputMethod::standard_output || method_ == OutputMethod::in_place)) {
        try {
            sink_.flush();
        } catch (const Error&) {
            // The command's own error is the one reported.
        }
    }
    sink_.discard();
    if (!committed_) remove_temporary();  // an unnamed file vanishes with its descriptor
    if (owns_fd_ && fd_ >= 0) ::close(fd_);
}

void OutputFile::remove_temporary() noexcept {
    if (temporary_.empty()) return;
    ::unlink(temporary_.c_str());
    clear_temporary_file();
    temporary_.clear();
}

void OutputFile::keep_access_of(int original, const std::string& original_name) {
    if (method_ != OutputMethod::unnamed_file && method_ != OutputMethod::named_temporary)
        return;  // nothing new is made: stdout, or a FIFO or device written in place
    struct stat st {};
    if (::fstat(original, &st) != 0) throw_io(original_name, "cannot stat", errno);
    copy_ownership_and_attributes(original, fd_, original_name);
    final_mode_ = st.st_mode & 07777;
}

void OutputFile::commit() {
    sink_.flush();
    if (method_ == OutputMethod::standard_output || method_ == OutputMethod::in_place) {
        committed_ = true;  // nothing to name
        return;
    }
    // The mode before the name, and the data on disk before the name points at it: a crash
    // must not leave an empty or partial file under the target's name.
    if (::fchmod(fd_, final_mode_) != 0) throw_io(name_, "cannot set permissions", errno);
    if (::fsync(fd_) != 0) throw_io(name_, "cannot sync", errno);
    if (method_ == OutputMethod::unnamed_file) {
        const std::string source = proc_fd_path(fd_);
        // linkat cannot replace a name: without --force it is exactly the no-replace rename;
        // with it, the file gets a hidden name first, then is renamed over the target.
        if (!replace_) {
            if (::linkat(AT_FDCWD, source.c_str(), AT_FDCWD, target_.c_str(), AT_SYMLINK_FOLLOW) !=
                0) {
                if (errno == EEXIST) appeared_meanwhile(name_);
                throw_io(name_, "cannot link the new file into place", errno);
            }
        } else {
            InterruptsHeld held;  // linked and registered together
            for (;;) {
                std::string candidate = random_temporary_name(target_);
                if (::linkat(AT_FDCWD, source.c_str(), AT_FDCWD, candidate.c_str(),
                             AT_SYMLINK_FOLLOW) == 0) {
                    temporary_ = std::move(candidate);
                    register_temporary_file(temporary_.c_str());
                    break;
                }
                if (errno != EEXIST) throw_io(name_, "cannot link the new file into place", errno);
            }
        }
    }
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) throw_io(name_, "write error on close", errno);
    if (!temporary_.empty()) {
        InterruptsHeld held;  // renamed and unregistered together
        move_into_place(temporary_, target_, replace_);
        clear_temporary_file();
        temporary_.clear();
    }
    committed_ = true;
    sync_directory_of(target_);
}

}  // namespace warp::cli
