#include "cli/paths.hpp"

#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <string_view>
#include <vector>

#include "cli/report.hpp"

namespace warp::cli {
namespace {

bool same_file(const struct stat& a, const struct stat& b) {
    return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

void refuse_same_file(const struct stat& output, const InputFile* input, const std::string& name) {
    // Pipes and terminals are not files that could be clobbered; stdin and stdout may well be
    // the same terminal.
    if (input == nullptr || !S_ISREG(output.st_mode)) return;
    if (same_file(output, input->status()))
        usage_error(name + " is the input file too: writing it would destroy the input",
                    "write to another file with -o, then rename it");
}

}  // namespace

std::string default_encrypt_output(const InputFile& input, const std::string& input_path,
                                   std::string_view extension) {
    if (input.is_stdin()) return "-";
    return input_path + std::string(extension);
}

std::string default_decrypt_output(const InputFile& input, const std::string& input_path) {
    if (input.is_stdin()) return "-";
    for (const std::string_view extension : {kWarpExtension, kAgeExtension}) {
        const std::string ext(extension);
        const bool has_ext =
            input_path.size() > ext.size() &&
            input_path.compare(input_path.size() - ext.size(), ext.size(), ext) == 0 &&
            input_path[input_path.size() - ext.size() - 1] != '/';
        if (has_ext) return input_path.substr(0, input_path.size() - ext.size());
    }
    usage_error(input_path + ": cannot choose an output name (it does not end in " +
                    std::string(kWarpExtension) + " or " + std::string(kAgeExtension) + ")",
                "name the output with -o PATH, or -o - for stdout");
}

std::optional<int> named_descriptor(const std::string& path) {
    if (path == "/dev/stdout") return STDOUT_FILENO;
    if (path == "/dev/stderr") return STDERR_FILENO;
    for (const std::string_view prefix : {"/dev/fd/", "/proc/self/fd/"}) {
        if (!path.starts_with(prefix)) continue;
        const std::string digits = path.substr(prefix.size());
        if (digits.empty() || digits.size() > 9 ||
            digits.find_first_not_of("0123456789") != std::string::npos)
            return std::nullopt;
        return std::stoi(digits);
    }
    return std::nullopt;
}

std::string follow_output_links(const std::string& path) {
    constexpr int kMaxLinks = 40;  // as the kernel's own limit (ELOOP)
    std::string at = path;
    for (int hops = 0; hops <= kMaxLinks; ++hops) {
        struct stat link {};
        if (::lstat(at.c_str(), &link) != 0 || !S_ISLNK(link.st_mode)) return at;
        if (!owned_by_user_or_root(link))
            usage_error(at + " is a symbolic link that belongs to another user (uid " +
                            std::to_string(link.st_uid) + "): refusing to follow it",
                        "write to a file of your own with -o PATH");
        std::vector<char> target(PATH_MAX + 1);
        const ssize_t n = ::readlink(at.c_str(), target.data(), target.size() - 1);
        if (n < 0) throw_io(at, "cannot read the symbolic link", errno);
        const std::string next(target.data(), static_cast<std::size_t>(n));
        const std::size_t slash = at.rfind('/');
        at = next.starts_with('/') || slash == std::string::npos ? next
                                                                 : at.substr(0, slash + 1) + next;
    }
    usage_error(path + ": too many symbolic links on the way (a loop?)",
                "name the file itself with -o PATH");
}

namespace {

// An output that names a descriptor: open for writing, not the input, and, for ciphertext, not
// a terminal.
void check_descriptor_output(int fd, const std::string& name, const InputFile* input,
                             const OutputChecks& checks) {
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags < 0 || (flags & O_ACCMODE) == O_RDONLY)
        usage_error(name + " names descriptor " + std::to_string(fd) +
                        ", which is not open for writing",
                    "open it for writing, or name a file with -o PATH");
    if (checks.refuse_terminal && ::isatty(fd))
        usage_error("refusing to write encrypted data to a terminal (" + name + ")",
                    "redirect or use -o FILE");
    struct stat out {};
    if (::fstat(fd, &out) == 0) refuse_same_file(out, input, name);
}

}  // namespace

void check_output(const std::string& output, const InputFile* input, const OutputChecks& checks) {
    if (is_stdio(output)) {
        if (checks.refuse_terminal && ::isatty(STDOUT_FILENO))
            usage_error("refusing to write encrypted data to a terminal",
                        "redirect or use -o FILE");
        struct stat out {};
        if (::fstat(STDOUT_FILENO, &out) == 0) refuse_same_file(out, input, "stdout");
        return;
    }
    if (const std::optional<int> fd = named_descriptor(output)) {
        check_descriptor_output(*fd, output, input, checks);
        return;
    }
    const std::string target = follow_output_links(output);
    // How messages name it: the output as given, and where a link led.
    const std::string shown = target == output ? output : output + " (a link to " + target + ")";
    struct stat st {};
    if (::lstat(target.c_str(), &st) != 0) return;  // does not exist: nothing to protect
    if (S_ISDIR(st.st_mode))
        usage_error(shown + " is a directory", "name the output file with -o PATH");
    refuse_same_file(st, input, shown);
    // Devices and FIFOs (/dev/null, a named pipe) cannot be replaced, only written in place.
    if (!S_ISREG(st.st_mode)) {
        check_in_place_target(shown, st, checks);
        return;
    }
    if (!checks.force)
        usage_error(shown + " already exists",
                    target == output ? "use --force (-f) to overwrite it"
                                     : "use --force (-f) to overwrite " + target +
                                           " (the link stays as it is)");
}

void check_in_place_target(const std::string& name, const struct stat& target,
                           const OutputChecks& checks) {
    const std::string what = name + " exists and is " + file_kind(target);
    if (checks.secret)
        usage_error(what + ": a new key is written only to a file keygen creates itself",
                    "name a file that does not exist with -o, or use -o - for stdout");
    if (!checks.named)
        usage_error(what + ", not a regular file: warpcrypt writes into such a file only when "
                           "it is named with -o",
                    "name the output with -o PATH");
    if (!owned_by_user_or_root(target))
        usage_error(what + " that belongs to another user (uid " +
                        std::to_string(target.st_uid) + "): refusing to write into it",
                    "write to a file of your own with -o PATH");
}

std::string file_kind(const struct stat& st) {
    if (S_ISREG(st.st_mode)) return "a regular file";
    if (S_ISDIR(st.st_mode)) return "a directory";
    if (S_ISFIFO(st.st_mode)) return "a FIFO";
    if (S_ISCHR(st.st_mode)) return "a character device";
    if (S_ISBLK(st.st_mode)) return "a block device";
    if (S_ISSOCK(st.st_mode)) return "a socket";
    if (S_ISLNK(st.st_mode)) return "a symbolic link";
    return "not a regular file";
}

bool owned_by_user_or_root(const struct stat& st) {
    return st.st_uid == ::geteuid() || st.st_uid == 0;
}

}  // namespace warp::cli
