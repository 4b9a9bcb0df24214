#include "cli/unsafe_directory.hpp"

#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <string>
#include <vector>

#include "cli/fd_io.hpp"
#include "cli/paths.hpp"
#include "cli/report.hpp"

namespace warp::cli {
namespace {

bool user_or_root(uid_t uid) { return uid == ::geteuid() || uid == 0; }

// Whether the members of group `gid` are the user and root alone, and there is one: those
// listed in the group, and those whose primary group it is. A group without members is not
// the user's (setgid programs use such groups to write where they must).
bool private_group(gid_t gid) {
    struct group entry {};
    struct group* found = nullptr;
    std::vector<char> buffer(1 << 16);
    if (::getgrgid_r(gid, &entry, buffer.data(), buffer.size(), &found) != 0 || found == nullptr)
        return false;
    bool members = false;
    for (char** name = found->gr_mem; *name != nullptr; ++name) {
        struct passwd user {};
        struct passwd* who = nullptr;
        std::vector<char> user_buffer(16384);
        if (::getpwnam_r(*name, &user, user_buffer.data(), user_buffer.size(), &who) != 0 ||
            who == nullptr || !user_or_root(who->pw_uid))
            return false;
        members = true;
    }
    // The users whose primary group it is (single-threaded here: no thread has started yet).
    ::setpwent();
    bool others = false;
    while (const struct passwd* user = ::getpwent()) {
        if (user->pw_gid != gid) continue;
        if (!user_or_root(user->pw_uid)) others = true;
        members = true;
    }
    ::endpwent();
    return members && !others;
}

// Who besides the user and root can change the entries of the folder `st` describes, or ""
// when no one can.
std::string who_else_can_change(const struct stat& st) {
    if (!user_or_root(st.st_uid)) return owner_text(st.st_uid) + " owns it";
    if (st.st_mode & S_ISVTX) return "";
    if (st.st_mode & S_IWOTH) return "every user can write to it, and it is not sticky";
    if ((st.st_mode & S_IWGRP) && !private_group(st.st_gid))
        return "group " + group_text(st.st_gid) + " can write to it, and it is not sticky";
    return "";
}

// The folder open at `fd`, for messages only (/proc's name for the descriptor).
std::string folder_name(int fd) {
    std::vector<char> text(PATH_MAX + 1);
    const std::string link = "/proc/self/fd/" + std::to_string(fd);
    const ssize_t n = ::readlink(link.c_str(), text.data(), text.size() - 1);
    return n > 0 ? std::string(text.data(), static_cast<std::size_t>(n)) : "a folder";
}

}  // namespace

void refuse_unsafe_directory(const Place& beside_input) {
    OwnedFd at(::fcntl(beside_input.directory(), F_DUPFD_CLOEXEC, 0));
    if (!at.valid()) throw_io(beside_input.shown(), "cannot duplicate a descriptor", errno);
    for (int level = 0;; ++level) {
        struct stat st {};
        if (::fstat(at.get(), &st) != 0) throw_io(folder_name(at.get()), "cannot stat", errno);
        if (const std::string who = who_else_can_change(st); !who.empty())
            usage_error("refusing to choose the output's name in " + folder_name(at.get()) +
                            (level == 0 ? "" : ", a folder above the input") + ": " + who +
                            ", so the file you would later open as the plaintext could be "
                            "someone else's",
                        "name the output with -o PATH, in a folder only you can change, or -o - "
                        "for stdout");
        OwnedFd parent(::openat(at.get(), "..", O_PATH | O_DIRECTORY | O_CLOEXEC));
        if (!parent.valid()) throw_io(folder_name(at.get()), "cannot open its parent", errno);
        struct stat up {};
        if (::fstat(parent.get(), &up) != 0)
            throw_io(folder_name(parent.get()), "cannot stat", errno);
        if (up.st_dev == st.st_dev && up.st_ino == st.st_ino) return;  // reached /
        at = std::move(parent);
    }
}

}  // namespace warp::cli
