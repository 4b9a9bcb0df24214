// Where a file is, or will be, resolved once: a directory held open and a name in it.
//
// The contract (docs/design.md, "Atomic output"): a path warpcrypt writes to (an output, the
// file rekey replaces, the default output beside an input) is resolved once, here, into a
// descriptor of its directory (O_PATH). Every later step goes through that descriptor and the
// bare name, with the *at system calls: the input rekey reads, the new file (O_TMPFILE, or the
// hidden temporary), what has the name now (fstatat), linkat and renameat2, the ownership and
// attribute copy (on the descriptors), the directory's fsync, the clean-up, the signal
// handler's unlinkat. The path's text is kept for messages only. So a directory on the way
// that another user swaps for a symbolic link during the run moves nothing: the file lands in
// the directory the run started with, or nowhere.
//
// Resolution walks the path a component at a time, openat(O_PATH | O_NOFOLLOW) from the
// current directory or /, as the kernel would, except for symbolic links: one on the way (or,
// when asked, at the end) is followed only when it belongs to the user or to root and is not
// one of /proc's links (/proc/PID/fd/N, /proc/PID/cwd, ...), which name an open file rather
// than a path; any other is a usage error naming it (the effect of openat2's
// RESOLVE_NO_MAGICLINKS, and RESOLVE_NO_SYMLINKS for links of other users). At most 40 links in
// all, the kernel's own limit.
#pragma once

#include <sys/stat.h>
#include <sys/types.h>

#include <optional>
#include <string>

namespace warp::cli {

// A descriptor that closes itself.
class OwnedFd {
public:
    OwnedFd() = default;
    explicit OwnedFd(int fd) noexcept : fd_(fd) {}
    ~OwnedFd();
    OwnedFd(OwnedFd&& other) noexcept : fd_(other.release()) {}
    OwnedFd& operator=(OwnedFd&& other) noexcept;
    OwnedFd(const OwnedFd&) = delete;
    OwnedFd& operator=(const OwnedFd&) = delete;

    int get() const noexcept { return fd_; }
    bool valid() const noexcept { return fd_ >= 0; }
    int release() noexcept {
        const int fd = fd_;
        fd_ = -1;
        return fd;
    }

private:
    int fd_ = -1;
};

class Place {
public:
    // What to do with a symbolic link in the last component: keep it (the place is the link's
    // own name: rekey in place, which refuses links) or follow it by the rules above (an
    // output: writing through a link of the user's own reaches the file it leads to).
    enum class LastLink { keep, follow };

    // Resolves `path` (not "", not "-"). A path ending in "/", ".", or ".." names a directory:
    // its name() is ".". Throws Error(io) when a directory on the way cannot be opened (missing,
    // not a directory, no permission), a usage error for a refused link or too many.
    static Place resolve(const std::string& path, LastLink last);

    // Another name in the same directory (the same descriptor, duplicated, not the path looked
    // up again): the default output beside its input. `shown` is its path, for messages.
    Place sibling(const std::string& name, const std::string& shown) const;

    int directory() const noexcept { return directory_.get(); }
    const std::string& name() const noexcept { return name_; }    // no "/"; "." for the directory
    const std::string& shown() const noexcept { return shown_; }  // the path, for messages
    // Where the last component's links led (the path of the file that gets written), "" when
    // there was no link there.
    const std::string& led_to() const noexcept { return led_to_; }

    // What has the name now (fstatat, links not followed); nullopt when nothing does. Throws
    // Error(io) for any other failure.
    std::optional<struct stat> status() const;
    // openat(directory, name, flags | O_CLOEXEC), EINTR retried: -1 and errno on failure.
    int open(int flags, mode_t mode = 0) const;
    // A descriptor of the directory itself that can be read and fsync'ed (O_RDONLY), or -1.
    int open_directory_for_sync() const;

private:
    Place(OwnedFd directory, std::string name, std::string shown, std::string led_to)
        : directory_(std::move(directory)),
          name_(std::move(name)),
          shown_(std::move(shown)),
          led_to_(std::move(led_to)) {}

    OwnedFd directory_;
    std::string name_;
    std::string shown_;
    std::string led_to_;
};

}  // namespace warp::cli
