#include "cli/paths.hpp"

#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
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

std::string encrypted_name(const std::string& input_name, std::string_view extension) {
    return input_name + std::string(extension);
}

std::string decrypted_name(const std::string& input_name) {
    for (const std::string_view extension : {kWarpExtension, kAgeExtension}) {
        const std::string ext(extension);
        const bool has_ext =
            input_name.size() > ext.size() &&
            input_name.compare(input_name.size() - ext.size(), ext.size(), ext) == 0 &&
            input_name[input_name.size() - ext.size() - 1] != '/';
        if (has_ext) return input_name.substr(0, input_name.size() - ext.size());
    }
    usage_error(input_name + ": cannot choose an output name (it does not end in " +
                    std::string(kWarpExtension) + " or " + std::string(kAgeExtension) + ")",
                "name the output with -o PATH, or -o - for stdout");
}

OutputTarget OutputTarget::named(const std::string& path) {
    OutputTarget target;
    if (is_stdio(path)) {
        target.shown = "stdout";
        target.standard_output = true;
        target.descriptor = STDOUT_FILENO;
        return target;
    }
    target.shown = path;
    target.descriptor = named_descriptor(path);
    if (!target.descriptor) target.place = Place::resolve(path, Place::LastLink::follow);
    return target;
}

OutputTarget OutputTarget::beside(const Place& input, const std::string& name,
                                  const std::string& shown) {
    OutputTarget target;
    target.shown = shown;
    target.place = input.sibling(name, shown);
    return target;
}

OutputTarget OutputTarget::replacing(const Place& input, const struct stat& input_status) {
    OutputTarget target = beside(input, input.name(), input.shown());
    target.replaces = input_status;
    return target;
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

void check_output(const OutputTarget& output, const InputFile* input,
                  const OutputChecks& checks) {
    if (output.descriptor) {
        if (output.standard_output) {
            if (checks.refuse_terminal && ::isatty(STDOUT_FILENO))
                usage_error("refusing to write encrypted data to a terminal",
                            "redirect or use -o FILE");
            struct stat out {};
            if (::fstat(STDOUT_FILENO, &out) == 0) refuse_same_file(out, input, "stdout");
            return;
        }
        check_descriptor_output(*output.descriptor, output.shown, input, checks);
        return;
    }
    const Place& place = *output.place;
    // How messages name it: the output as given, and where a link led.
    const std::string shown = place.led_to().empty()
                                  ? output.shown
                                  : output.shown + " (a link to " + place.led_to() + ")";
    const std::optional<struct stat> existing = place.status();
    if (!existing) return;  // does not exist: nothing to protect
    const struct stat& st = *existing;
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
                    place.led_to().empty() ? "use --force (-f) to overwrite it"
                                           : "use --force (-f) to overwrite " + place.led_to() +
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

std::string owner_text(uid_t uid) {
    std::string text = "uid " + std::to_string(uid);
    struct passwd entry {};
    struct passwd* found = nullptr;
    std::vector<char> buffer(16384);
    if (::getpwuid_r(uid, &entry, buffer.data(), buffer.size(), &found) == 0 && found != nullptr)
        text += " (" + std::string(found->pw_name) + ")";
    return text;
}

std::string group_text(gid_t gid) {
    std::string text = "gid " + std::to_string(gid);
    struct group entry {};
    struct group* found = nullptr;
    std::vector<char> buffer(16384);
    if (::getgrgid_r(gid, &entry, buffer.data(), buffer.size(), &found) == 0 && found != nullptr)
        text += " (" + std::string(found->gr_name) + ")";
    return text;
}

bool owned_by_user_or_root(const struct stat& st) {
    return st.st_uid == ::geteuid() || st.st_uid == 0;
}

}  // namespace warp::cli
