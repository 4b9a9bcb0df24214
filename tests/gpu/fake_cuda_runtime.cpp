// A stand-in for the CUDA runtime, so that the cuda backend's host driver (engine/cuda/
// driver.cpp, staging.cpp, open_device.cpp) runs and is tested on machines without a GPU
// (warpcrypt-cuda-driver-tests; the real runtime is not linked into that program).
//
// It is strict where the driver can go wrong:
// - Streams are queues that run only when synchronised. An asynchronous copy or launch happens
//   when the driver waits for the stream or for an event recorded after it, not when it is
//   enqueued: a driver that reads a pinned buffer before waiting reads stale bytes, and one
//   that refills a buffer still being copied corrupts the copy.
// - Fresh pinned and device memory is filled with garbage, not zeros.
// - Launches run the kernels' CPU emulator (emulator.cpp), so results are the GPU algorithm's.
// - A buffer freed while not all zero is counted (fake_cuda::unwiped_frees): the driver wipes
//   every buffer before freeing it.
// - Copies are tallied by where their host side lies (fake_cuda::copy_tally): the driver's
//   staging, registered caller memory, or other memory.
// Only what the driver calls is here; a new call in the driver shows up as a link error.
#include <cuda_runtime_api.h>

#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <mutex>

#include "engine/cuda/kernel_api.hpp"
#include "tests/gpu/fake_cuda_runtime.hpp"

namespace {

struct FakeStream {
    std::deque<std::function<void()>> queue;
};

struct FakeEvent {
    bool done = true;
    FakeStream* stream = nullptr;
};

struct State {
    std::recursive_mutex mutex;  // one lock for all: the emulator runs under it
    std::map<void*, std::size_t> allocations;
    std::map<const char*, std::size_t> host_allocations;  // cudaHostAlloc'd: staging
    std::map<const char*, std::size_t> registered;        // cudaHostRegister'ed
    long unwiped_frees = 0;
    long buffers = 0;
    fake_cuda::CopyTally tally;
};

// Whether [p, p + n) lies in one of `ranges`.
bool within(const std::map<const char*, std::size_t>& ranges, const void* p, std::size_t n) {
    const auto* c = static_cast<const char*>(p);
    auto after = ranges.upper_bound(c);
    if (after == ranges.begin()) return false;
    --after;
    return c >= after->first && c + n <= after->first + after->second;
}

State& state() {
    static State* s = new State;  // never destroyed: the driver's pool frees buffers at exit
    return *s;
}

void run_until(FakeStream& stream, const FakeEvent* event) {
    while (!stream.queue.empty() && (event == nullptr || !event->done)) {
        auto op = std::move(stream.queue.front());
        stream.queue.pop_front();
        op();
    }
}

void* allocate(std::size_t bytes, unsigned char garbage) {
    std::lock_guard lock(state().mutex);
    void* p = std::aligned_alloc(4096, (bytes + 4095) / 4096 * 4096);
    if (p == nullptr) return nullptr;
    std::memset(p, garbage, bytes);
    state().allocations[p] = bytes;
    ++state().buffers;
    return p;
}

cudaError_t release(void* p) {
    std::lock_guard lock(state().mutex);
    if (p == nullptr) return cudaSuccess;
    const auto it = state().allocations.find(p);
    if (it == state().allocations.end()) return cudaErrorInvalidValue;
    const auto* bytes = static_cast<const unsigned char*>(p);
    for (std::size_t i = 0; i < it->second; ++i)
        if (bytes[i] != 0) {
            ++state().unwiped_frees;
            break;
        }
    std::free(p);
    state().allocations.erase(it);
    --state().buffers;
    return cudaSuccess;
}

FakeStream& stream_of(cudaStream_t s) { return *reinterpret_cast<FakeStream*>(s); }

void enqueue(cudaStream_t s, std::function<void()> op) {
    std::lock_guard lock(state().mutex);
    stream_of(s).queue.push_back(std::move(op));
}

}  // namespace

namespace fake_cuda {
long unwiped_frees() {
    std::lock_guard lock(state().mutex);
    return state().unwiped_frees;
}
long live_buffers() {
    std::lock_guard lock(state().mutex);
    return state().buffers;
}
long registered_buffers() {
    std::lock_guard lock(state().mutex);
    return static_cast<long>(state().registered.size());
}
CopyTally copy_tally() {
    std::lock_guard lock(state().mutex);
    return state().tally;
}
void reset_copy_tally() {
    std::lock_guard lock(state().mutex);
    state().tally = {};
}
}  // namespace fake_cuda

extern "C" {

const char* cudaGetErrorName(cudaError_t e) {
    return e == cudaSuccess ? "cudaSuccess" : "cudaErrorFake";
}
const char* cudaGetErrorString(cudaError_t e) {
    return e == cudaSuccess ? "no error" : "fake error";
}
cudaError_t cudaGetLastError(void) { return cudaSuccess; }
cudaError_t cudaDriverGetVersion(int* v) {
    *v = 13000;
    return cudaSuccess;
}
cudaError_t cudaRuntimeGetVersion(int* v) {
    *v = 13000;
    return cudaSuccess;
}
cudaError_t cudaGetDeviceCount(int* n) {
    *n = 1;
    return cudaSuccess;
}
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* p, int) {
    std::memset(p, 0, sizeof *p);
    std::strcpy(p->name, "fake GPU (CPU emulator)");
    p->major = 9;
    p->multiProcessorCount = 132;
    p->sharedMemPerBlockOptin = 227 * 1024;  // an H200's
    p->totalGlobalMem = std::size_t{141} << 30;
    return cudaSuccess;
}
cudaError_t cudaSetDevice(int) { return cudaSuccess; }
cudaError_t cudaMalloc(void** p, std::size_t n) {
    *p = allocate(n, 0xCD);
    return *p ? cudaSuccess : cudaErrorMemoryAllocation;
}
cudaError_t cudaFree(void* p) { return release(p); }
cudaError_t cudaHostAlloc(void** p, std::size_t n, unsigned int) {
    *p = allocate(n, 0xEE);
    if (*p == nullptr) return cudaErrorMemoryAllocation;
    std::lock_guard lock(state().mutex);
    state().host_allocations[static_cast<const char*>(*p)] = n;
    return cudaSuccess;
}
cudaError_t cudaFreeHost(void* p) {
    {
        std::lock_guard lock(state().mutex);
        state().host_allocations.erase(static_cast<const char*>(p));
    }
    return release(p);
}
cudaError_t cudaHostRegister(void* p, std::size_t n, unsigned int) {
    std::lock_guard lock(state().mutex);
    if (!state().registered.emplace(static_cast<const char*>(p), n).second)
        return cudaErrorHostMemoryAlreadyRegistered;
    return cudaSuccess;
}
cudaError_t cudaHostUnregister(void* p) {
    std::lock_guard lock(state().mutex);
    return state().registered.erase(static_cast<const char*>(p)) == 1
               ? cudaSuccess
               : cudaErrorHostMemoryNotRegistered;
}
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* s, unsigned int) {
    *s = reinterpret_cast<cudaStream_t>(new FakeStream);
    return cudaSuccess;
}
cudaError_t cudaStreamDestroy(cudaStream_t s) {
    std::lock_guard lock(state().mutex);
    FakeStream* stream = &stream_of(s);
    if (!stream->queue.empty()) return cudaErrorInvalidResourceHandle;  // work still pending
    delete stream;
    return cudaSuccess;
}
cudaError_t cudaStreamSynchronize(cudaStream_t s) {
    std::lock_guard lock(state().mutex);
    run_until(stream_of(s), nullptr);
    return cudaSuccess;
}
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* e, unsigned int) {
    *e = reinterpret_cast<cudaEvent_t>(new FakeEvent);
    return cudaSuccess;
}
cudaError_t cudaEventDestroy(cudaEvent_t e) {
    delete reinterpret_cast<FakeEvent*>(e);
    return cudaSuccess;
}
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s) {
    std::lock_guard lock(state().mutex);
    auto* event = reinterpret_cast<FakeEvent*>(e);
    event->done = false;
    event->stream = &stream_of(s);
    event->stream->queue.push_back([event] { event->done = true; });
    return cudaSuccess;
}
cudaError_t cudaEventSynchronize(cudaEvent_t e) {
    std::lock_guard lock(state().mutex);
    auto* event = reinterpret_cast<FakeEvent*>(e);
    if (event->stream != nullptr) run_until(*event->stream, event);
    return event->done ? cudaSuccess : cudaErrorInvalidResourceHandle;
}
cudaError_t cudaMemcpyAsync(void* dst, const void* src, std::size_t n, cudaMemcpyKind kind,
                            cudaStream_t s) {
    {
        std::lock_guard lock(state().mutex);
        const void* host = kind == cudaMemcpyHostToDevice ? src : dst;
        State& st = state();
        (within(st.host_allocations, host, n) ? st.tally.staged
         : within(st.registered, host, n)     ? st.tally.registered
                                              : st.tally.pageable) += n;
    }
    enqueue(s, [=] { std::memcpy(dst, src, n); });
    return cudaSuccess;
}
cudaError_t cudaMemsetAsync(void* p, int value, std::size_t n, cudaStream_t s) {
    enqueue(s, [=] { std::memset(p, value, n); });
    return cudaSuccess;
}

}  // extern "C"

namespace warp::cuda {

void launch_gcm(const GcmLaunch& launch, void* stream) {
    enqueue(static_cast<cudaStream_t>(stream), [launch] { emulate_gcm(launch); });
}

void launch_ecb(const EcbLaunch& launch, void* stream) {
    enqueue(static_cast<cudaStream_t>(stream), [launch] { emulate_ecb(launch); });
}

}  // namespace warp::cuda
