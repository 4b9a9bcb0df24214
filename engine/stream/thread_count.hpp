// How many threads "one per CPU" means for this process.
#pragma once

namespace warp::stream {

// Threads to use when the user asked for `requested` (0: one per CPU this process may run
// on, which respects taskset and container CPU sets, unlike hardware_concurrency()).
unsigned resolve_thread_count(unsigned requested);

}  // namespace warp::stream
