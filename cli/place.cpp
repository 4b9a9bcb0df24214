#include "cli/place.hpp"

#include <fcntl.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <cerrno>
#include <deque>
#include <string_view>
#include <vector>

#include "cli/fd_io.hpp"
#include "cli/paths.hpp"
#include "cli/report.hpp"

namespace warp::cli {

OwnedFd::~OwnedFd() {
    if (fd_ >= 0) ::close(fd_);
}

OwnedFd& OwnedFd::operator=(OwnedFd&& other) noexcept {
    if (this != &other) {
        if (fd_ >= 0) ::close(fd_);
        fd_ = other.release();
    }
    return *this;
}

namespace {

constexpr int kMaxLinks = 40;  // as the kernel's own limit (ELOOP)

int openat_retrying(int directory, const char* name, int flags, mode_t mode = 0) {
    int fd;
    do fd = ::openat(directory, name, flags | O_CLOEXEC, mode);
    while (fd < 0 && errno == EINTR);
    return fd;
}

// A path split at its slashes: the directories to walk, and the last component. "" and "."
// components are dropped, ".." kept (it is the parent of wherever the walk has got to, as for
// the kernel). A path that ends in "/", "." or ".." names a directory: every component is a
// directory to walk, and the name is ".".
struct SplitPath {
    std::deque<std::string> directories;
    std::string name;
    bool absolute = false;
};

SplitPath split(std::string_view path) {
    SplitPath split;
    split.absolute = path.starts_with('/');
    std::string_view last_raw;
    std::size_t start = 0;
    while (start <= path.size()) {
        std::size_t slash = path.find('/', start);
        if (slash == std::string_view::npos) slash = path.size();
        const std::string_view part = path.substr(start, slash - start);
        last_raw = part;
        if (!part.empty() && part != ".") split.directories.emplace_back(part);
        start = slash + 1;
    }
    const bool names_directory = last_raw.empty() || last_raw == "." || last_raw == "..";
    if (names_directory || split.directories.empty()) {
        split.name = ".";
    } else {
        split.name = std::move(split.directories.back());
        split.directories.pop_back();
    }
    return split;
}

std::string joined(const std::string& directory, const std::string& name) {
    if (directory.empty()) return name;
    return directory.ends_with('/') ? directory + name : directory + "/" + name;
}

// One walk from the current directory or /, holding the directory it has reached and, for
// messages, that directory's path as walked.
class Walk {
public:
    explicit Walk(const std::string& path) : path_(path) {}

    void start(bool absolute) {
        const char* from = absolute ? "/" : ".";
        at_ = OwnedFd(openat_retrying(AT_FDCWD, from, O_PATH | O_DIRECTORY));
        if (!at_.valid()) throw_io(from, "cannot open the directory", errno);
        at_text_ = absolute ? "/" : "";
    }

    // Enters each of `directories` in turn, following the links on the way by the rules.
    void enter(std::deque<std::string> directories) {
        while (!directories.empty()) {
            const std::string part = std::move(directories.front());
            directories.pop_front();
            const std::string where = joined(at_text_, part);
            OwnedFd next(openat_retrying(at_.get(), part.c_str(), O_PATH | O_NOFOLLOW));
            if (!next.valid()) throw_io(where, "cannot open the directory", errno);
            struct stat st {};
            if (::fstat(next.get(), &st) != 0) throw_io(where, "cannot stat", errno);
            if (S_ISDIR(st.st_mode)) {
                at_ = std::move(next);
                at_text_ = where;
                continue;
            }
            if (!S_ISLNK(st.st_mode)) throw_io(where, "cannot open the directory", ENOTDIR);
            SplitPath target = split(read_link(next.get(), st, where));
            if (target.absolute) start(true);
            // The link's own directories, then its last component, then the rest of the path.
            if (target.name != ".") target.directories.push_back(std::move(target.name));
            directories.insert(directories.begin(), target.directories.begin(),
                               target.directories.end());
        }
    }

    // Follows links at `name` in the directory reached, by the same rules; returns the name
    // they end at (in the directory reached then).
    std::string follow(std::string name) {
        for (;;) {
            if (name == ".") return name;
            const std::string where = joined(at_text_, name);
            OwnedFd entry(openat_retrying(at_.get(), name.c_str(), O_PATH | O_NOFOLLOW));
            if (!entry.valid()) {
                if (errno == ENOENT) return name;  // a new file: nothing to follow
                throw_io(where, "cannot look it up", errno);
            }
            struct stat st {};
            if (::fstat(entry.get(), &st) != 0) throw_io(where, "cannot stat", errno);
            if (!S_ISLNK(st.st_mode)) return name;
            SplitPath target = split(read_link(entry.get(), st, where));
            if (target.absolute) start(true);
            enter(std::move(target.directories));
            name = std::move(target.name);
            followed_ = true;
        }
    }

    OwnedFd take_directory() { return std::move(at_); }
    const std::string& directory_text() const { return at_text_; }
    bool followed() const { return followed_; }

private:
    // The text of the link open at `link` (O_PATH | O_NOFOLLOW), `st` its status, once it
    // passed the rules.
    std::string read_link(int link, const struct stat& st, const std::string& where) {
        if (++links_ > kMaxLinks)
            usage_error(path_ + ": too many symbolic links on the way (a loop?)",
                        "name the file itself, by a path without links");
        struct statfs fs {};
        if (::fstatfs(link, &fs) == 0 && fs.f_type == PROC_SUPER_MAGIC)
            usage_error(where + " is a link in /proc, which warpcrypt does not follow (those "
                                "name processes and open files, not places in the file system)",
                        "name the file itself, by a path without links");
        if (!owned_by_user_or_root(st))
            usage_error(where + " is a symbolic link that belongs to another user (uid " +
                            std::to_string(st.st_uid) + "): refusing to follow it",
                        "name a file of your own by a path without that link");
        std::vector<char> text(static_cast<std::size_t>(st.st_size > 0 ? st.st_size : 4096) + 1);
        const ssize_t n = ::readlinkat(link, "", text.data(), text.size());
        if (n < 0) throw_io(where, "cannot read the symbolic link", errno);
        if (static_cast<std::size_t>(n) == text.size())  // grew since the fstat
            throw_io(where, "cannot read the symbolic link", ENAMETOOLONG);
        std::string target(text.data(), static_cast<std::size_t>(n));
        if (target.empty()) throw_io(where, "cannot follow the symbolic link", ENOENT);
        return target;
    }

    const std::string& path_;
    OwnedFd at_;
    std::string at_text_;
    int links_ = 0;
    bool followed_ = false;
};

}  // namespace

Place Place::resolve(const std::string& path, LastLink last) {
    SplitPath parts = split(path);
    Walk walk(path);
    walk.start(parts.absolute);
    walk.enter(std::move(parts.directories));
    std::string name = last == LastLink::follow ? walk.follow(std::move(parts.name))
                                                : std::move(parts.name);
    std::string led_to = walk.followed() ? joined(walk.directory_text(), name) : "";
    return Place(walk.take_directory(), std::move(name), path, std::move(led_to));
}

Place Place::sibling(const std::string& name, const std::string& shown) const {
    OwnedFd copy(::fcntl(directory_.get(), F_DUPFD_CLOEXEC, 0));
    if (!copy.valid()) throw_io(shown, "cannot duplicate the directory's descriptor", errno);
    return Place(std::move(copy), name, shown, "");
}

std::optional<struct stat> Place::status() const {
    struct stat st {};
    if (::fstatat(directory_.get(), name_.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0) return st;
    if (errno == ENOENT) return std::nullopt;
    throw_io(shown_, "cannot stat", errno);
}

int Place::open(int flags, mode_t mode) const {
    return openat_retrying(directory_.get(), name_.c_str(), flags, mode);
}

int Place::open_directory_for_sync() const {
    return openat_retrying(directory_.get(), ".", O_RDONLY | O_DIRECTORY);
}

}  // namespace warp::cli
