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

std::string default_encrypt_output(const InputFile& input, const std::string& input_path) {
    if (input.is_stdin()) return "-";
    return input_path + std::string(kWarpExtension);
}

std::string default_decrypt_output(const InputFile& input, const std::string& input_path) {
    if (input.is_stdin()) return "-";
    const std::string ext(kWarpExtension);
    bool has_ext = input_path.size() > ext.size() &&
                   input_path.compare(input_path.size() - ext.size(), ext.size(), ext) == 0 &&
                   input_path[input_path.size() - ext.size() - 1] != '/';
    if (!has_ext)
        usage_error(input_path + ": cannot choose an output name (it does not end in " + ext + ")",
                    "name the output with -o PATH, or -o - for stdout");
    return input_path.substr(0, input_path.size() - ext.size());
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
    struct stat out {};
    if (::lstat(output.c_str(), &out) != 0) return;  // does not exist: nothing to protect
    struct stat target = out;
    if (S_ISLNK(out.st_mode) && ::stat(output.c_str(), &target) != 0) target = out;  // dangling
    if (S_ISDIR(target.st_mode))
        usage_error(output + " is a directory", "name the output file with -o PATH");
    refuse_same_file(target, input, output);
    // Devices and FIFOs (/dev/null, a named pipe) are written in place, not replaced.
    if (!S_ISREG(target.st_mode) && !S_ISLNK(out.st_mode)) return;
    if (!checks.force)
        usage_error(output + " already exists", "use --force (-f) to overwrite it");
}

}  // namespace warp::cli
