#include "engine/cuda/pinned_host.hpp"

#include <cuda_runtime_api.h>

#include <cstdint>
#include <functional>
#include <iterator>
#include <map>
#include <mutex>

#include "engine/cuda/cuda.hpp"

namespace warp::cuda {
namespace {

// Start address -> length of every buffer pinned here. A handful (two per pipeline batch),
// looked up twice per chunk per call: a lock and a map lookup next to a 64 KiB transfer.
struct PinnedBuffers {
    std::mutex mutex;
    std::map<std::uintptr_t, std::size_t, std::less<>> ranges;
};

PinnedBuffers& pinned() {
    static PinnedBuffers buffers;
    return buffers;
}

}  // namespace

bool pin_host_buffer(void* p, std::size_t n) {
    if (p == nullptr || n == 0 || !open_device().usable) return false;
    if (cudaHostRegister(p, n, cudaHostRegisterDefault) != cudaSuccess) {
        (void)cudaGetLastError();  // not sticky; clear it so later calls do not report it
        return false;
    }
    PinnedBuffers& buffers = pinned();
    const std::lock_guard lock(buffers.mutex);
    buffers.ranges[reinterpret_cast<std::uintptr_t>(p)] = n;
    return true;
}

void unpin_host_buffer(void* p) {
    PinnedBuffers& buffers = pinned();
    {
        const std::lock_guard lock(buffers.mutex);
        if (buffers.ranges.erase(reinterpret_cast<std::uintptr_t>(p)) == 0) return;
    }
    (void)cudaHostUnregister(p);
}

bool is_pinned_host(const void* p, std::size_t n) {
    if (n == 0) return true;
    const auto start = reinterpret_cast<std::uintptr_t>(p);
    PinnedBuffers& buffers = pinned();
    const std::lock_guard lock(buffers.mutex);
    auto after = buffers.ranges.upper_bound(start);  // the first buffer starting after p
    if (after == buffers.ranges.begin()) return false;
    const auto& [base, length] = *std::prev(after);
    return start - base <= length && n <= length - (start - base);
}

}  // namespace warp::cuda
