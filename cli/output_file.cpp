#include "cli/output_file.hpp"

#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "cli/file_metadata.hpp"
#include "cli/interrupt.hpp"
#include "cli/random_name.hpp"
#include "cli/report.hpp"

namespace warp::cli {
namespace {

// The mode the finished file gets: what the user expects of a new file (0666 & ~umask, 0600
// for a key), never wider than the file it replaces, so that --force over a private file
// keeps it private. `existing`: what has the target's name now.
mode_t final_mode_for(const std::optional<struct stat>& existing, const OutputChecks& checks) {
    mode_t mode = 0600;
    if (!checks.secret) {
        // umask can only be read by setting it; this runs before any other thread creates files.
        const mode_t mask = ::umask(0);
        ::umask(mask);
        mode = 0666 & ~mask;
    }
    if (existing && S_ISREG(existing->st_mode)) mode &= existing->st_mode & 0777;
    return mode;
}

// ---- Writing into an existing FIFO or device ---------------------------------------------

// The place's name is where the output's links led: not a link itself, unless one was put
// there since, which O_NOFOLLOW refuses.
int open_in_place(const Place& place, const std::string& name, const OutputChecks& checks) {
    // O_NONBLOCK: opening a FIFO that no process reads fails (ENXIO) instead of waiting.
    const int fd = place.open(O_WRONLY | O_NONBLOCK | O_NOCTTY | O_NOFOLLOW);
    if (fd < 0) {
        const int err = errno;
        if (err == ENXIO)
            usage_error(name + " is a FIFO that no process is reading: writing to it would wait "
                               "forever",
                        "start the reader first, or write to a file with -o PATH");
        if (err == ELOOP)
            usage_error(name + " was replaced by a symbolic link while warpcrypt opened it",
                        "check who else writes in that directory, then run the command again");
        throw_io(name, "cannot open for writing", err);
    }
    try {
        // Judge what was opened, not what the name showed a moment before.
        struct stat opened {};
        if (::fstat(fd, &opened) != 0) throw_io(name, "cannot stat", errno);
        if (S_ISREG(opened.st_mode) || S_ISDIR(opened.st_mode))
            usage_error(name + " changed while warpcrypt opened it",
                        "check who else writes in that directory, then run the command again");
        check_in_place_target(name, opened, checks);
        if (checks.refuse_terminal && ::isatty(fd))
            usage_error("refusing to write encrypted data to a terminal (" + name + ")",
                        "redirect or use -o FILE");
        const int flags = ::fcntl(fd, F_GETFL);
        if (flags < 0 || ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0)
            throw_io(name, "cannot make the output blocking", errno);
    } catch (...) {
        ::close(fd);
        throw;
    }
    return fd;
}

// ---- New files ---------------------------------------------------------------------------

// Where the kernel shows the unnamed file, for linkat(2): AT_EMPTY_PATH would need
// CAP_DAC_READ_SEARCH, the /proc link works for any user. It names the open file, not a path.
std::string proc_fd_path(int fd) { return "/proc/self/fd/" + std::to_string(fd); }

// An unnamed 0600 file in the place's directory, or -1 where that cannot be (no O_TMPFILE in
// this file system or kernel, no /proc to link it through, or WARPCRYPT_TEMPORARY_FILE=named).
int open_unnamed(const Place& place) {
    const char* choice = std::getenv(kTemporaryFileEnv);
    if (choice != nullptr && std::string_view(choice) == "named") return -1;
    if (::access("/proc/self/fd", X_OK) != 0) return -1;
    int fd;
    do fd = ::openat(place.directory(), ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
    while (fd < 0 && errno == EINTR);
    return fd;
}

// A hidden name beside the target, named after it so that a leftover is explained:
// ".NAME.warpcrypt-" and 6 random characters, NAME cut short where the whole would not fit in
// NAME_MAX (any target whose own name fits gets one).
constexpr std::string_view kTemporaryMarker = ".warpcrypt-";

std::string random_temporary_name(const Place& place, const std::string& shown) {
    std::string base = place.name();
    const std::size_t room = NAME_MAX - 1 - kTemporaryMarker.size() - kRandomNameChars;
    if (base.size() > room) base.resize(room);
    return "." + base + std::string(kTemporaryMarker) + random_name_chars(shown);
}

// A new hidden 0600 file beside the target (O_EXCL, a fresh random name until one is free);
// its name goes to `temporary`, and to the signal handler before the file exists.
int create_named_temporary(const Place& place, const std::string& shown, std::string& temporary) {
    InterruptsHeld held;  // a signal now finds the file either not created or registered
    for (;;) {
        std::string candidate = random_temporary_name(place, shown);
        int fd;
        do fd = ::openat(place.directory(), candidate.c_str(),
                         O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        while (fd < 0 && errno == EINTR);
        if (fd >= 0) {
            try {
                register_temporary_file(place.directory(), candidate.c_str());
            } catch (...) {
                ::unlinkat(place.directory(), candidate.c_str(), 0);
                ::close(fd);
                throw;
            }
            temporary = std::move(candidate);
            return fd;
        }
        if (errno != EEXIST) throw_io(shown, "cannot create a temporary file beside it", errno);
    }
}

OutputFile::Opened open_target(const OutputTarget& target, const OutputChecks& checks) {
    OutputFile::Opened opened;
    if (target.descriptor) {  // stdout, or a descriptor checked by check_output
        opened.fd = *target.descriptor;
        return opened;
    }
    const Place& place = *target.place;
    const std::optional<struct stat> existing = place.status();
    if (existing && !S_ISREG(existing->st_mode) && !S_ISDIR(existing->st_mode)) {
        opened.fd = open_in_place(place, target.shown, checks);
        opened.method = OutputMethod::in_place;
        return opened;
    }
    opened.final_mode = final_mode_for(existing, checks);
    opened.fd = open_unnamed(place);
    if (opened.fd >= 0) {
        opened.method = OutputMethod::unnamed_file;
        return opened;
    }
    opened.fd = create_named_temporary(place, target.shown, opened.temporary);
    opened.method = OutputMethod::named_temporary;
    return opened;
}

[[noreturn]] void appeared_meanwhile(const std::string& name) {
    usage_error(name + " already exists: another program created it while warpcrypt worked",
                "use --force (-f) to overwrite it");
}

}  // namespace

OutputFile::OutputFile(OutputTarget target, const OutputChecks& checks)
    : OutputFile(std::move(target), checks, open_target(target, checks)) {}

OutputFile::OutputFile(OutputTarget&& target, const OutputChecks& checks, Opened opened)
    : target_(std::move(target)),
      temporary_(std::move(opened.temporary)),
      method_(opened.method),
      replace_(checks.force),
      final_mode_(opened.final_mode),
      fd_(opened.fd),
      owns_fd_(opened.method != OutputMethod::standard_output),
      sink_(fd_, target_.shown) {}

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
    ::unlinkat(directory(), temporary_.c_str(), 0);
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

// linkat cannot replace a name: without --force it is exactly the no-replace rename; with it,
// the unnamed file gets a hidden name first, then is renamed over the target.
void OutputFile::link_unnamed_file() {
    const std::string source = proc_fd_path(fd_);
    const std::string& name = target_.place->name();
    if (!replace_) {
        if (::linkat(AT_FDCWD, source.c_str(), directory(), name.c_str(), AT_SYMLINK_FOLLOW) != 0) {
            if (errno == EEXIST) appeared_meanwhile(target_.shown);
            throw_io(target_.shown, "cannot link the new file into place", errno);
        }
        return;
    }
    InterruptsHeld held;  // linked and registered together
    for (;;) {
        std::string candidate = random_temporary_name(*target_.place, target_.shown);
        if (::linkat(AT_FDCWD, source.c_str(), directory(), candidate.c_str(),
                     AT_SYMLINK_FOLLOW) == 0) {
            temporary_ = std::move(candidate);
            register_temporary_file(directory(), temporary_.c_str());
            return;
        }
        if (errno != EEXIST) throw_io(target_.shown, "cannot link the new file into place", errno);
    }
}

// rename(2) replaces whatever has the target's name. When that is refused, the target must
// still be absent at the moment of the rename: renameat2(RENAME_NOREPLACE) checks and renames
// in one step; a file system without it (EINVAL: NFS, some FUSE mounts) gets linkat(2), which
// fails on an existing name just as atomically, then unlinkat; one with neither (no hard
// links: EPERM) gets the plain rename, and the check made at start-up is all that stands.
void OutputFile::move_into_place() {
    const int dir = directory();
    const char* from = temporary_.c_str();
    const char* to = target_.place->name().c_str();
    int err = 0;
    if (!replace_) {
        if (::renameat2(dir, from, dir, to, RENAME_NOREPLACE) == 0) return;
        err = errno;
        if (err == EINVAL || err == ENOSYS) {
            if (::linkat(dir, from, dir, to, 0) == 0) {
                (void)::unlinkat(dir, from, 0);
                return;
            }
            err = errno;
        }
        if (err == EEXIST) appeared_meanwhile(target_.shown);
        if (err != EPERM && err != EOPNOTSUPP)
            throw_io(target_.shown, "cannot rename the temporary file", err);
    }
    if (target_.replaces) {
        // rekey in place replaces the file it read, not whatever has its name by now.
        const std::optional<struct stat> now = target_.place->status();
        if (!now || now->st_dev != target_.replaces->st_dev ||
            now->st_ino != target_.replaces->st_ino)
            usage_error(target_.shown + " was moved or replaced while rekey worked: the rekeyed "
                                        "copy was not written",
                        "check who else writes in that directory, then run rekey again");
    }
    if (::renameat(dir, from, dir, to) != 0)
        throw_io(target_.shown, "cannot rename the temporary file", errno);
}

void OutputFile::commit() {
    sink_.flush();
    if (method_ == OutputMethod::standard_output || method_ == OutputMethod::in_place) {
        committed_ = true;  // nothing to name
        return;
    }
    // The mode before the name, and the data on disk before the name points at it: a crash
    // must not leave an empty or partial file under the target's name.
    if (::fchmod(fd_, final_mode_) != 0) throw_io(target_.shown, "cannot set permissions", errno);
    if (::fsync(fd_) != 0) throw_io(target_.shown, "cannot sync", errno);
    if (method_ == OutputMethod::unnamed_file) link_unnamed_file();
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) throw_io(target_.shown, "write error on close", errno);
    if (!temporary_.empty()) {
        InterruptsHeld held;  // renamed and unregistered together
        move_into_place();
        clear_temporary_file();
        temporary_.clear();
    }
    committed_ = true;
    // Makes the new name durable; a failure here cannot undo it, so it is not an error.
    if (const int dir = target_.place->open_directory_for_sync(); dir >= 0) {
        (void)::fsync(dir);
        ::close(dir);
    }
}

}  // namespace warp::cli
