#include "cli/file_metadata.hpp"

#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "cli/fd_io.hpp"
#include "cli/report.hpp"

namespace warp::cli {
namespace {

// The names of the extended attributes of `fd` (those this process may list).
std::vector<std::string> attribute_names(int fd, const std::string& name) {
    for (;;) {
        const ssize_t size = ::flistxattr(fd, nullptr, 0);
        if (size < 0 && (errno == ENOTSUP || errno == ENOSYS)) return {};
        if (size < 0) throw_io(name, "cannot list extended attributes", errno);
        std::vector<char> list(static_cast<std::size_t>(size));
        const ssize_t got = ::flistxattr(fd, list.data(), list.size());
        if (got < 0 && errno == ERANGE) continue;  // it grew meanwhile
        if (got < 0) throw_io(name, "cannot list extended attributes", errno);
        std::vector<std::string> names;
        for (std::size_t at = 0; at < static_cast<std::size_t>(got);) {
            const std::string one(list.data() + at);
            at += one.size() + 1;
            if (!one.empty()) names.push_back(one);
        }
        return names;
    }
}

std::vector<char> attribute_value(int fd, const std::string& attribute, const std::string& name) {
    for (;;) {
        const ssize_t size = ::fgetxattr(fd, attribute.c_str(), nullptr, 0);
        if (size < 0) throw_io(name, "cannot read extended attribute " + attribute, errno);
        std::vector<char> value(static_cast<std::size_t>(size));
        const ssize_t got = ::fgetxattr(fd, attribute.c_str(), value.data(), value.size());
        if (got < 0 && errno == ERANGE) continue;
        if (got < 0) throw_io(name, "cannot read extended attribute " + attribute, errno);
        value.resize(static_cast<std::size_t>(got));
        return value;
    }
}

bool is_security_label(const std::string& attribute) {
    return attribute.starts_with("security.");
}

// A failure to set or remove `attribute` on the new file: a warning for a security label, else
// a refusal (the caller's new file is discarded, the original untouched).
void attribute_failed(const std::string& attribute, const std::string& name, int err) {
    if (is_security_label(attribute)) {
        print_warning(name + ": its " + attribute +
                      " attribute could not be carried over; the rekeyed file has the one the "
                      "system gives a new file there");
        return;
    }
    if (err == EPERM || err == EACCES)
        usage_error("rekey cannot give the new " + name + " the extended attribute " + attribute +
                        " of the original: not allowed (" + std::string(std::strerror(err)) +
                        "); refusing, and " + name + " is untouched",
                    "rekey it as a user who may set that attribute, or write a copy with -o");
    throw_io(name, "cannot carry over the extended attribute " + attribute, err);
}

}  // namespace

void copy_ownership_and_attributes(int from, int to, const std::string& name) {
    struct stat original {};
    if (::fstat(from, &original) != 0) throw_io(name, "cannot stat", errno);
    if (::fchown(to, original.st_uid, original.st_gid) != 0) {
        const int err = errno;
        if (err != EPERM) throw_io(name, "cannot give the rekeyed file the original's owner", err);
        const bool other_owner = original.st_uid != ::geteuid();
        usage_error("rekey cannot give the new " + name + " the original's " +
                        (other_owner ? "owner (uid " + std::to_string(original.st_uid) +
                                           "): only root can give a file to another user"
                                     : "group (gid " + std::to_string(original.st_gid) +
                                           "), which you are not in") +
                        "; refusing, so that the file keeps who may read it, and " + name +
                        " is untouched",
                    other_owner ? "ask its owner or root to rekey it, or write a copy with -o"
                                : "ask root or a member of that group to rekey it, or write a "
                                  "copy with -o");
    }
    const std::vector<std::string> wanted = attribute_names(from, name);
    for (const std::string& attribute : attribute_names(to, name))
        if (std::find(wanted.begin(), wanted.end(), attribute) == wanted.end() &&
            ::fremovexattr(to, attribute.c_str()) != 0 && errno != ENODATA)
            attribute_failed(attribute, name, errno);
    for (const std::string& attribute : wanted) {
        const std::vector<char> value = attribute_value(from, attribute, name);
        if (::fsetxattr(to, attribute.c_str(), value.data(), value.size(), 0) != 0)
            attribute_failed(attribute, name, errno);
    }
}

}  // namespace warp::cli
