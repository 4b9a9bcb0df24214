// Which file a command writes, and the refusals that protect the user's files (spec "Safety
// rules"), all checked before anything is created or any passphrase is asked for.
#pragma once

#include <sys/stat.h>

#include <optional>
#include <string>
#include <string_view>

#include "cli/fd_io.hpp"
#include "cli/place.hpp"

namespace warp::cli {

inline constexpr std::string_view kWarpExtension = ".warp";
inline constexpr std::string_view kAgeExtension = ".age";

// Whether `path` names stdout/stdin ("-").
inline bool is_stdio(const std::string& path) { return path.empty() || path == "-"; }

// What a command writes to: stdout ("-"), a descriptor a path names (/dev/stdout, ...), or a
// file at a place resolved once (place.hpp), which every later step uses.
struct OutputTarget {
    std::string shown;              // for messages: "stdout", or the path as given
    bool standard_output = false;   // "-"
    std::optional<int> descriptor;  // stdout ("-") or a named descriptor: written in place
    std::optional<Place> place;     // otherwise: where the file is, or will be
    // rekey in place: the file that must still have the name when the new one takes it.
    std::optional<struct stat> replaces;

    // An output path the user gave (-o) or keygen's: "-", a descriptor's name, or a path whose
    // last component's links are followed (links of the user's own or root's only: a link is
    // written through, never replaced; --force over it replaces the file it leads to).
    static OutputTarget named(const std::string& path);
    // The default output of encrypt and decrypt: `name` in the input's directory (its
    // descriptor, not the path again); `shown` is its path.
    static OutputTarget beside(const Place& input, const std::string& name,
                               const std::string& shown);
    // rekey in place: the input's own place, which must still hold the file `input` is.
    static OutputTarget replacing(const Place& input, const struct stat& input_status);
};

// The default output names: encrypt's INPUT.warp (INPUT.age for an age file); decrypt's INPUT
// without .warp or .age, other names being a usage error (they need -o).
std::string encrypted_name(const std::string& input_name,
                           std::string_view extension = kWarpExtension);
std::string decrypted_name(const std::string& input_name);

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

// Refuses (usage error with a hint): an existing output without --force, an output that is a
// directory, output and input being the same file, ciphertext to a terminal, a descriptor that
// is not open for writing, and an existing target that cannot be replaced
// (check_in_place_target). Judges what has the name in the place's directory now.
void check_output(const OutputTarget& output, const InputFile* input,
                  const OutputChecks& checks);

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

// A user or group for messages: "uid 1002 (mallory)", "gid 100 (users)", or without the name
// where there is none.
std::string owner_text(uid_t uid);
std::string group_text(gid_t gid);

}  // namespace warp::cli
