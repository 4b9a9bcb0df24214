#include "cli/paths.hpp"

#include <sys/stat.h>
#include <unistd.h>

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

void check_output(const std::string& output, const InputFile* input, const OutputChecks& checks) {
    if (is_stdio(output)) {
        if (checks.refuse_terminal && ::isatty(STDOUT_FILENO))
            usage_error("refusing to write encrypted data to a terminal",
                        "redirect or use -o FILE");
        struct stat out {};
        if (::fstat(STDOUT_FILENO, &out) == 0) refuse_same_file(out, input, "stdout");
        return;
    }
    struct stat link {};
    if (::lstat(output.c_str(), &link) != 0) return;  // does not exist: nothing to protect
    const bool is_link = S_ISLNK(link.st_mode);
    struct stat target = link;
    if (is_link && ::stat(output.c_str(), &target) != 0) target = link;  // dangling
    if (S_ISDIR(target.st_mode))
        usage_error(output + " is a directory", "name the output file with -o PATH");
    refuse_same_file(target, input, output);
    // Devices and FIFOs (/dev/null, a named pipe) cannot be replaced, only written in place.
    if (!S_ISREG(target.st_mode) && !S_ISLNK(target.st_mode)) {
        check_in_place_target(output, target, is_link ? &link : nullptr, checks);
        return;
    }
    if (!checks.force)
        usage_error(output + " already exists", "use --force (-f) to overwrite it");
}

void check_in_place_target(const std::string& name, const struct stat& target,
                           const struct stat* link, const OutputChecks& checks) {
    const std::string what = name + " exists and is " + file_kind(target);
    if (checks.secret)
        usage_error(what + ": a new key is written only to a file keygen creates itself",
                    "name a file that does not exist with -o, or use -o - for stdout");
    if (!checks.named)
        usage_error(what + ", not a regular file: warpcrypt writes into such a file only when "
                           "it is named with -o",
                    "name the output with -o PATH");
    if (link != nullptr && !owned_by_user_or_root(*link))
        usage_error(name + " is a symbolic link that belongs to another user (uid " +
                        std::to_string(link->st_uid) + "): refusing to follow it",
                    "write to a file of your own with -o PATH");
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
