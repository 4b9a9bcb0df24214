#include "engine/stream/thread_count.hpp"

#include <sched.h>

#include <algorithm>
#include <thread>

namespace warp::stream {

unsigned resolve_thread_count(unsigned requested) {
    if (requested != 0) return requested;
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        return static_cast<unsigned>(std::max(CPU_COUNT(&set), 1));
    return std::max(std::thread::hardware_concurrency(), 1u);
}

}  // namespace warp::stream
