// The one error type of warpcrypt. Every failure that reaches a user is an Error with a cause;
// cli/ maps causes to exit codes in one switch (README, "Exit codes").
#pragma once

#include <stdexcept>
#include <string>

namespace warp {

enum class ErrorCause {
    invalid_argument,       // a caller broke an interface contract (bad length, bad size)
    backend_unavailable,    // the backend asked for is not compiled in or cannot run here
    authentication_failed,  // a tag did not verify
    bad_input,              // malformed input data (vector files, prompts, headers)
    io,                     // reading or writing failed
};

class Error : public std::runtime_error {
public:
    Error(ErrorCause cause, const std::string& message)
        : std::runtime_error(message), cause_(cause) {}
    ErrorCause cause() const noexcept { return cause_; }

private:
    ErrorCause cause_;
};

}  // namespace warp
