// Which file a command writes, and the refusals that protect the user's files (spec "Safety
// rules"), all checked before anything is created or any passphrase is asked for.
#pragma once

#include <string>

#include "cli/fd_io.hpp"

namespace warp::cli {

inline constexpr std::string_view kWarpExtension = ".warp";

// Whether `path` names stdout/stdin ("-").
inline bool is_stdio(const std::string& path) { return path.empty() || path == "-"; }

// encrypt: INPUT.warp, or stdout for stdin.
std::string default_encrypt_output(const InputFile& input, const std::string& input_path);
// decrypt: INPUT without .warp, or stdout for stdin; other names need -o (usage error).
std::string default_decrypt_output(const InputFile& input, const std::string& input_path);

struct OutputChecks {
    bool force = false;            // -f: an existing file may be replaced
    bool refuse_terminal = false;  // ciphertext must not go to a terminal
};

// Refuses (usage error with a hint): an existing output without --force, an output that is a
// directory, output and input being the same file, ciphertext to a terminal.
void check_output(const std::string& output, const InputFile* input, const OutputChecks& checks);

}  // namespace warp::cli
