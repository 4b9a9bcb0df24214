// Keeping secrets out of core dumps, for the whole life of the process.
#pragma once

namespace warp::cli {

// Called first thing in main(), before any secret is read:
// - setrlimit(RLIMIT_CORE, 0), soft and hard: a crash writes no core file, and the limit
//   cannot be raised again by this process;
// - Linux: prctl(PR_SET_DUMPABLE, 0): no core either, even where core_pattern pipes cores to
//   a program (systemd-coredump), to which the kernel does not apply RLIMIT_CORE (with
//   fs.suid_dumpable = 2 a core would still be made, readable by root only); and other
//   processes of the same user can no longer ptrace it or read its /proc/PID/mem or
//   /proc/PID/environ. A debugger must start warpcrypt itself, or run as root.
// Failures are ignored: neither call can fail on Linux with these arguments, and warpcrypt
// still works without them. Locked secret memory is also marked MADV_DONTDUMP
// (engine/secure_memory.hpp), for a core made by other means.
void disable_core_dumps() noexcept;

}  // namespace warp::cli
