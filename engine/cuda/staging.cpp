#include "engine/cuda/staging.hpp"

#include <utility>

#include "engine/cuda/cuda.hpp"
#include "engine/cuda/cuda_status.hpp"
#include "engine/secure_memory.hpp"

namespace warp::cuda {
namespace {

// Wipes both copies, then frees them. Errors are ignored: this runs in destructors, and a
// buffer that cannot be wiped on the device (after a sticky CUDA error) is gone with the
// context anyway.
void release(MirroredBuffer& buffer, cudaStream_t stream) noexcept {
    if (buffer.device != nullptr) {
        (void)cudaMemsetAsync(buffer.device, 0, buffer.capacity, stream);
        (void)cudaStreamSynchronize(stream);
        (void)cudaFree(buffer.device);
    }
    if (buffer.host != nullptr) {
        secure_wipe(buffer.host, buffer.capacity);
        (void)cudaFreeHost(buffer.host);
    }
    buffer = MirroredBuffer{};
}

void allocate(MirroredBuffer& buffer, std::size_t bytes) {
    void* host = nullptr;
    check(cudaHostAlloc(&host, bytes, cudaHostAllocDefault), "cudaHostAlloc (pinned staging)");
    void* device = nullptr;
    if (const cudaError_t s = cudaMalloc(&device, bytes); s != cudaSuccess) {
        (void)cudaFreeHost(host);
        check(s, "cudaMalloc (device staging)");
    }
    buffer =
        MirroredBuffer{static_cast<std::uint8_t*>(host), static_cast<std::uint8_t*>(device), bytes};
}

void grow(MirroredBuffer& buffer, std::size_t bytes, cudaStream_t stream) {
    if (buffer.capacity >= bytes) return;
    release(buffer, stream);
    allocate(buffer, bytes);
}

// Whether the CUDA context, and with it the pinned and device memory, is already gone (at exit
// after the runtime's own teardown): then nothing may be touched, not even the host mapping.
bool context_gone(cudaError_t status) {
    return status == cudaErrorCudartUnloading || status == cudaErrorContextIsDestroyed ||
           status == cudaErrorDeviceUninitialized || status == cudaErrorInitializationError;
}

}  // namespace

Lane::Lane() {
    // Non-blocking: the lane's work never waits for the legacy default stream, which other
    // code in the process (a benchmark's cudaMemcpy) may use.
    check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate");
    if (const cudaError_t s = cudaEventCreateWithFlags(&done_, cudaEventDisableTiming);
        s != cudaSuccess) {
        (void)cudaStreamDestroy(stream_);
        check(s, "cudaEventCreate");
    }
}

Lane::~Lane() {
    if (context_gone(cudaStreamSynchronize(stream_))) return;
    release(up_, stream_);
    release(down_, stream_);
    (void)cudaEventDestroy(done_);
    (void)cudaStreamDestroy(stream_);
}

void Lane::reserve(std::size_t up_bytes, std::size_t down_bytes) {
    grow(up_, up_bytes, stream_);
    grow(down_, down_bytes, stream_);
}

void Lane::mark_done() { check(cudaEventRecord(done_, stream_), "cudaEventRecord"); }

void Lane::wait() { check(cudaEventSynchronize(done_), "the GPU work of a slice"); }

Context::Context(unsigned lane_count) {
    lanes.reserve(lane_count);
    for (unsigned i = 0; i < lane_count; ++i) lanes.push_back(std::make_unique<Lane>());
}

ContextPool::Lease::~Lease() { pool_.give_back(std::move(context_), discard_); }

ContextPool::Lease ContextPool::checkout() {
    {
        std::unique_lock lock(mutex_);
        returned_.wait(lock, [&] { return !idle_.empty() || lent_ + idle_.size() < kMaxContexts; });
        ++lent_;
        if (!idle_.empty()) {
            std::unique_ptr<Context> context = std::move(idle_.back());
            idle_.pop_back();
            return Lease(*this, std::move(context));
        }
    }
    try {  // a new context: CUDA calls, outside the lock
        return Lease(*this, std::make_unique<Context>(lanes_));
    } catch (...) {
        give_back(nullptr, true);
        throw;
    }
}

void ContextPool::give_back(std::unique_ptr<Context> context, bool discard) {
    {
        std::lock_guard lock(mutex_);
        --lent_;
        if (!discard && context) idle_.push_back(std::move(context));
    }
    returned_.notify_one();
    // A discarded context is destroyed here, outside the lock (its lanes synchronise and wipe).
}

ContextPool& context_pool() {
    static ContextPool pool(device_info().streams);
    return pool;
}

}  // namespace warp::cuda
