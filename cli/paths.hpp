// Which file a command writes, and the refusals that protect the user's files (spec "Safety
// rules"), all checked before anything is created or any passphrase is asked for.
#pragma once

#include <optional>
#include <string>

#include "cli/fd_io.hpp"

namespace warp::cli {

inline constexpr std::string_view kWarpExtension = ".warp";
inline constexpr std::string_view kAgeExtension = ".age";

// Whether `path` names stdout/stdin ("-").
inline bool is_stdio(const std::string& path) { return path.empty() || path == "-"; }

// encrypt: INPUT.warp (INPUT.age for an age file), or stdout for stdin.
std::string default_encrypt_output(const InputFile& input, const std::string& input_path,
                                   std::string_view extension = kWarpExtension);
// decrypt: INPUT without .warp or .age, or stdout for stdin; other names need -o (usage
// error).
std::string default_decrypt_output(const InputFile& input, const std::string& input_path);

struct OutputChecks {
    bool force = false;            // -f: an existing file may be replaced
    bool refuse_terminal = false;  // ciphertext must not go to a terminal
    bool named = false;            // the user named the output (-o), warpcrypt did not choose it
    bool secret = false;           // a new key (keygen): created 0600, never written into
                                   // something that exists
};

// The descriptor an output path names: /dev/stdout (1), /dev/stderr (2), /dev/fd/N and
// /proc/self/fd/N. Such an output is that descriptor, written in place like "-": never a file
// opened by the name, which for root would replace the /dev/stdout link itself.
std::optional<int> named_descriptor(const std::string& path);

// Where writing to `path` lands: `path`, or, when it is a symbolic link, the file it leads to
// (links followed to the end, at most 40, each one belonging to the user or to root, else a
// usage error). So a link is written through, and never replaced by a new file: --force over
// a link replaces the file it points to, and a dangling link's target is created.
std::string follow_output_links(const std::string& path);

// Refuses (usage error with a hint): an existing output without --force, an output that is a
// directory, output and input being the same file, ciphertext to a terminal, a descriptor that
// is not open for writing, another user's symbolic link, and an existing target that cannot be
// replaced (check_in_place_target). Judges what follow_output_links finds.
void check_output(const std::string& output, const InputFile* input, const OutputChecks& checks);

// The one rule for writing into an existing target that is not a regular file (a FIFO, a
// device), which rename cannot replace: only when the user named it with -o, never for a
// secret, only when it belongs to the user or to root, so that -o /dev/null works and another
// user's FIFO in /tmp does not; never ciphertext to a terminal. `name` is the output as given,
// `target` what it leads to. Throws a usage error naming the problem.
void check_in_place_target(const std::string& name, const struct stat& target,
                           const OutputChecks& checks);

// What the file at `st` is, for messages: "a FIFO", "a character device", ...
std::string file_kind(const struct stat& st);

// Whether `st` belongs to this process's user or to root.
bool owned_by_user_or_root(const struct stat& st);

}  // namespace warp::cli
