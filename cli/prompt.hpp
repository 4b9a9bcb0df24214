// Reading passphrases: from the terminal with echo off, or the first line of a descriptor.
#pragma once

#include <optional>
#include <string>

#include "engine/secure_memory.hpp"

namespace warp::cli {

// The longest passphrase line accepted; longer is a usage error, not a silent truncation.
inline constexpr std::size_t kMaxPassphraseBytes = 4096;

// Whether /dev/tty can be opened (a controlling terminal exists).
bool terminal_available();

// Writes `prompt` to /dev/tty and reads one line with echo off. Throws Error(usage) when there
// is no terminal or input ends before a line (Ctrl-D). SIGINT restores the echo (interrupt.hpp).
SecretBytes prompt_passphrase(const std::string& prompt);

// Writes `prompt` to /dev/tty and reads one line, echoed or not; nullopt when there is no
// terminal or input ends before a line. A secret's line stays in locked memory.
std::optional<SecretBytes> prompt_line(const std::string& prompt, bool echo);

// The first line of `fd`, without its newline (a CR before it is dropped too). Reads one byte
// at a time so that nothing after the line is consumed. `name` is for messages.
SecretBytes read_first_line(int fd, const std::string& name);

}  // namespace warp::cli
