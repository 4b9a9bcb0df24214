// The driver's buffers and streams (driver.cpp uses them): lanes, contexts and the pool that
// lends contexts to concurrent calls. CUDA builds only.
//
// A lane is one stream with everything a slice of a call needs: an "up" buffer (what goes to
// the device: key tables, descriptors, AAD, input) and a "down" buffer (what comes back:
// tags, output), each as pinned host memory and device memory of the same size, and an event
// recorded after the slice's last copy. Pinned memory makes the copies truly asynchronous;
// separate lanes let the calling thread pack slice k+1 while slice k is on the device.
//
// A context is kStreams lanes (device_info().streams) used by one call at a time. Contexts
// are pooled: the pipeline's workers seal and open concurrently, each checks one out, and a
// context is reused call after call, so pinned memory (slow to allocate) is allocated once
// per lane, grown only for a chunk larger than a slice.
//
// Secrets (staging.cpp, Lane::~Lane): the up buffers hold key tables and
// plaintext (seal), the down buffers plaintext (open). Both copies, host and device, are
// wiped when a context is destroyed: at process exit, or when a CUDA error ends a call. The
// driver also wipes the host copy of the key tables at the end of every call. While a
// context lives, its pinned pages cannot be swapped out, and device memory is not readable
// by other processes.
#pragma once

#include <cuda_runtime_api.h>

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace warp::cuda {

// Pinned host memory and device memory of the same capacity.
struct MirroredBuffer {
    std::uint8_t* host = nullptr;
    std::uint8_t* device = nullptr;
    std::size_t capacity = 0;
};

class Lane {
public:
    Lane();
    ~Lane();
    Lane(const Lane&) = delete;
    Lane& operator=(const Lane&) = delete;

    // Makes the buffers at least this large, keeping no content. Only while idle.
    void reserve(std::size_t up_bytes, std::size_t down_bytes);
    // Records the lane's event on its stream: after everything enqueued so far.
    void mark_done();
    // Waits for the event; throws the CUDA error of anything enqueued before it.
    void wait();

    cudaStream_t stream() const { return stream_; }
    MirroredBuffer& up() { return up_; }
    MirroredBuffer& down() { return down_; }

private:
    cudaStream_t stream_ = nullptr;
    cudaEvent_t done_ = nullptr;
    MirroredBuffer up_;
    MirroredBuffer down_;
};

struct Context {
    explicit Context(unsigned lanes);
    std::vector<std::unique_ptr<Lane>> lanes;
};

// At most kMaxContexts contexts exist; a caller beyond that waits for one to come back.
// 8 contexts of 3 lanes at 2 MiB slices are about 100 MiB of pinned memory at most, and more
// concurrent calls than that would only queue on the device's copy engines anyway.
class ContextPool {
public:
    static constexpr unsigned kMaxContexts = 8;

    // A context for the duration of one call. Returned to the pool when the lease ends,
    // unless discard() was called (after a CUDA error: its streams may hold failed work).
    class Lease {
    public:
        Lease(ContextPool& pool, std::unique_ptr<Context> context)
            : pool_(pool), context_(std::move(context)) {}
        ~Lease();
        Lease(const Lease&) = delete;
        Lease& operator=(const Lease&) = delete;
        Context& operator*() { return *context_; }
        Context* operator->() { return context_.get(); }
        void discard() { discard_ = true; }

    private:
        ContextPool& pool_;
        std::unique_ptr<Context> context_;
        bool discard_ = false;
    };

    explicit ContextPool(unsigned lanes_per_context) : lanes_(lanes_per_context) {}
    Lease checkout();

private:
    void give_back(std::unique_ptr<Context> context, bool discard);

    unsigned lanes_;
    std::mutex mutex_;
    std::condition_variable returned_;
    std::vector<std::unique_ptr<Context>> idle_;
    unsigned lent_ = 0;
};

// The process's pool, created at first use (after the device was opened, so that it is
// destroyed before the CUDA runtime tears itself down at exit).
ContextPool& context_pool();

}  // namespace warp::cuda
