#include "cli/core_dumps.hpp"

#include <sys/resource.h>
#if defined(__linux__)
#include <sys/prctl.h>
#endif

namespace warp::cli {

void disable_core_dumps() noexcept {
    const struct rlimit none {0, 0};
    (void)::setrlimit(RLIMIT_CORE, &none);
#if defined(__linux__)
    (void)::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
#endif
}

}  // namespace warp::cli
