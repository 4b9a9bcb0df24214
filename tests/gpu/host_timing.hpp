// Host-side measurements of the GPU benchmark: what a caller of the engine sees (pageable
// memory in, pageable memory out, as the product's pipeline works), timed on the host's
// steady clock. The GPU-only measurements are tests/gpu/bench_support.hpp.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "engine/aead.hpp"
#include "engine/aead_key.hpp"

namespace warp::gpubench {

// Pageable buffers for end-to-end runs of up to `max_bytes` in chunks of `chunk_bytes`:
// allocated and written once, so no run pays for first-touch page faults.
class HostBatch {
public:
    HostBatch(std::size_t max_bytes, std::size_t chunk_bytes);
    // The chunks of the first `total` bytes (the last one shorter if needed), each with its own
    // 12-byte nonce, no AAD.
    std::vector<AeadChunk> chunks(std::size_t total);
    // Offers the buffers to key's backend for direct transfers, as the pipeline does with its
    // batches (AeadImpl::pin_buffer), for as long as the result lives.
    std::vector<std::unique_ptr<PinnedRange>> pin(const AeadKey& key);

private:
    std::size_t chunk_bytes_;
    std::vector<std::uint8_t> plain_, sealed_, tags_, nonces_;
};

struct Spread {
    double median_s = 0;
    double best_s = 0;
};

// Sealing `total` bytes in one seal call, `repeats` times.
Spread seal_in_one_call(const AeadKey& key, HostBatch& batch, std::size_t total, unsigned repeats);

// Sealing `total` bytes as calls of `batch_bytes` each, taken in turn by `callers` threads
// (the pipeline's workers do this), `repeats` times; wall time of the whole.
Spread seal_by_callers(const AeadKey& key, HostBatch& batch, std::size_t total,
                       std::size_t batch_bytes, unsigned callers, unsigned repeats);

// Host seconds of each of `count` seal calls on one chunk of `bytes` (after one warm-up).
std::vector<double> seal_round_trips(const AeadKey& key, std::size_t bytes, unsigned count);

// Mean seconds per call of `call`, run until at least `min_seconds` have passed and at least
// `min_calls` calls were made (after one warm-up call).
template <typename Call>
double seconds_per_call(Call&& call, double min_seconds, unsigned min_calls) {
    call();
    const auto start = std::chrono::steady_clock::now();
    unsigned calls = 0;
    double elapsed = 0;
    do {
        call();
        ++calls;
        elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    } while (elapsed < min_seconds || calls < min_calls);
    return elapsed / calls;
}

double median(std::vector<double> values);

}  // namespace warp::gpubench
