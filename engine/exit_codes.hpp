// The exit status of warpcrypt for each error cause: the one table, shown in the README, and
// the C API's status codes (include/warpcrypt.h), which are the same numbers.
#pragma once

#include <string>

#include "engine/error.hpp"

namespace warp {

inline constexpr int kExitSuccess = 0;
inline constexpr int kExitInternal = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitWrongKey = 3;
inline constexpr int kExitCorrupted = 4;
inline constexpr int kExitTruncated = 5;
inline constexpr int kExitUnsupported = 6;
inline constexpr int kExitIo = 7;
inline constexpr int kExitInterrupted = 130;  // 128 + SIGINT, as shells report it

int exit_code(ErrorCause cause) noexcept;

// Every status with its meaning, in order: what the --help footer prints.
struct ExitCodeMeaning {
    int code;
    const char* meaning;
};
inline constexpr ExitCodeMeaning kExitCodeMeanings[] = {
    {kExitSuccess, "success"},
    {kExitInternal, "internal error"},
    {kExitUsage, "usage"},
    {kExitWrongKey, "wrong key or passphrase"},
    {kExitCorrupted, "corrupted or tampered data"},
    {kExitTruncated, "truncated input"},
    {kExitUnsupported, "unsupported format"},
    {kExitIo, "I/O error"},
    {kExitInterrupted, "interrupted"},
};

// "Exit codes: 0 success, 1 internal error, ..., 130 interrupted."
std::string exit_codes_footer();

}  // namespace warp
