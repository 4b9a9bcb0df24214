#include "engine/exit_codes.hpp"

namespace warp {

// The only place that maps causes to exit codes. No default: adding a cause to ErrorCause
// must come with a decision here (-Wswitch points at it).
int exit_code(ErrorCause cause) noexcept {
    switch (cause) {
    case ErrorCause::invalid_argument:
        return kExitInternal;  // a contract broken inside warpcrypt: a bug
    case ErrorCause::usage:
    case ErrorCause::backend_unavailable:
    case ErrorCause::bad_input:
        return kExitUsage;
    case ErrorCause::wrong_key:
        return kExitWrongKey;
    case ErrorCause::corrupted:
    case ErrorCause::authentication_failed:
        return kExitCorrupted;
    case ErrorCause::truncated:
        return kExitTruncated;
    case ErrorCause::unsupported:
        return kExitUnsupported;
    case ErrorCause::io:
        return kExitIo;
    case ErrorCause::interrupted:
        return kExitInterrupted;
    }
    return kExitInternal;
}

std::string exit_codes_footer() {
    std::string text = "Exit codes: ";
    for (const ExitCodeMeaning& m : kExitCodeMeanings)
        text += (m.code == kExitSuccess ? "" : ", ") + std::to_string(m.code) + " " + m.meaning;
    return text + ".";
}

}  // namespace warp
