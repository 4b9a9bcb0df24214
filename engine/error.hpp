// The one error type of warpcrypt. Every failure that reaches a user is an Error with a cause;
// cli/ maps causes to exit codes in one switch (the man page's EXIT STATUS; every cause in
// docs/usage.md, "Exit codes").
#pragma once

#include <stdexcept>
#include <string>
#include <utility>

namespace warp {

// Each cause has one exit code, assigned in engine/exit_codes.cpp and listed in the man page and
// docs/usage.md.
enum class ErrorCause {
    invalid_argument,       // a caller broke an interface contract (bad length, bad size)
    backend_unavailable,    // the backend asked for is not compiled in or cannot run here
    authentication_failed,  // a tag did not verify (engine level; formats report `corrupted`)
    bad_input,              // malformed input data (vector files, prompts)
    io,                     // reading or writing failed (including a full disk, /dev/full)
    usage,                  // the command line is wrong, or asks for something refused
    wrong_key,              // no key slot opens with the keys or passphrases given
    corrupted,              // damaged or tampered data: header checksum, MAC, a chunk, trailer
    truncated,              // the input ends before the format says it may
    unsupported,            // a format version, suite or slot type this build does not know
    interrupted,            // SIGINT or SIGTERM arrived; partial output was removed
};

class Error : public std::runtime_error {
public:
    // `hint`: what the user can do about it, in a few words, or empty (the CLI prints it on a
    // line of its own; the C API hands it out beside the message).
    Error(ErrorCause cause, const std::string& message, std::string hint = {})
        : std::runtime_error(message), cause_(cause), hint_(std::move(hint)) {}
    ErrorCause cause() const noexcept { return cause_; }
    const std::string& hint() const noexcept { return hint_; }

private:
    ErrorCause cause_;
    std::string hint_;
};

}  // namespace warp
