#include "tests/gpu/host_timing.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>

namespace warp::gpubench {
namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

Spread spread(std::vector<double> seconds) {
    std::sort(seconds.begin(), seconds.end());
    return {seconds[seconds.size() / 2], seconds.front()};
}

}  // namespace

double median(std::vector<double> values) {
    if (values.empty()) return 0;
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

HostBatch::HostBatch(std::size_t max_bytes, std::size_t chunk_bytes)
    : chunk_bytes_(chunk_bytes),
      plain_(max_bytes),
      sealed_(max_bytes),
      tags_((max_bytes / chunk_bytes + 1) * kMaxTagSize),
      nonces_((max_bytes / chunk_bytes + 1) * kChunkNonceSize) {
    // Every byte written (not only zero pages mapped), with content that varies.
    for (std::size_t i = 0; i < plain_.size(); ++i)
        plain_[i] = static_cast<std::uint8_t>(i * 131 + (i >> 12));
    std::fill(sealed_.begin(), sealed_.end(), std::uint8_t{0xA5});
    // Chunk k's nonce: k in its first 4 bytes (little-endian), then zeros: distinct per chunk.
    for (std::size_t k = 0; k < nonces_.size() / kChunkNonceSize; ++k)
        for (std::size_t b = 0; b < 4; ++b)
            nonces_[k * kChunkNonceSize + b] = static_cast<std::uint8_t>(k >> (8 * b));
}

std::vector<std::unique_ptr<PinnedRange>> HostBatch::pin(const AeadKey& key) {
    std::vector<std::unique_ptr<PinnedRange>> pins;
    for (std::vector<std::uint8_t>* buffer : {&plain_, &sealed_, &tags_})
        pins.push_back(std::make_unique<PinnedRange>(key, buffer->data(), buffer->size()));
    return pins;
}

std::vector<AeadChunk> HostBatch::chunks(std::size_t total) {
    std::vector<AeadChunk> list;
    for (std::size_t offset = 0, i = 0; offset < total; offset += chunk_bytes_, ++i) {
        AeadChunk c;
        c.nonce = nonces_.data() + i * kChunkNonceSize;
        c.nonce_len = kChunkNonceSize;
        c.in = plain_.data() + offset;
        c.out = sealed_.data() + offset;
        c.len = std::min(chunk_bytes_, total - offset);
        c.tag = tags_.data() + i * kMaxTagSize;
        list.push_back(c);
    }
    return list;
}

Spread seal_in_one_call(const AeadKey& key, HostBatch& batch, std::size_t total, unsigned repeats) {
    const std::vector<AeadChunk> chunks = batch.chunks(total);
    key.seal(chunks);  // warm-up: the driver's buffers are allocated at first use
    std::vector<double> seconds;
    for (unsigned r = 0; r < repeats; ++r) {
        const auto start = Clock::now();
        key.seal(chunks);
        seconds.push_back(since(start));
    }
    return spread(std::move(seconds));
}

Spread seal_by_callers(const AeadKey& key, HostBatch& batch, std::size_t total,
                       std::size_t batch_bytes, unsigned callers, unsigned repeats) {
    const std::vector<AeadChunk> chunks = batch.chunks(total);
    const std::size_t chunk_bytes = chunks.front().len;
    const std::size_t per_call = std::max<std::size_t>(batch_bytes / chunk_bytes, 1);
    const std::size_t calls = (chunks.size() + per_call - 1) / per_call;
    auto run = [&] {
        std::atomic<std::size_t> next{0};
        std::exception_ptr failure;
        std::mutex failure_mutex;
        std::vector<std::thread> threads;
        for (unsigned t = 0; t < callers; ++t)
            threads.emplace_back([&] {
                try {
                    for (std::size_t c = next++; c < calls; c = next++) {
                        const std::size_t first = c * per_call;
                        const std::size_t n = std::min(per_call, chunks.size() - first);
                        key.seal(std::span(chunks).subspan(first, n));
                    }
                } catch (...) {
                    std::lock_guard lock(failure_mutex);
                    failure = std::current_exception();
                }
            });
        for (std::thread& t : threads) t.join();
        if (failure) std::rethrow_exception(failure);
    };
    run();  // warm-up: one pooled context per caller
    std::vector<double> seconds;
    for (unsigned r = 0; r < repeats; ++r) {
        const auto start = Clock::now();
        run();
        seconds.push_back(since(start));
    }
    return spread(std::move(seconds));
}

std::vector<double> seal_round_trips(const AeadKey& key, std::size_t bytes, unsigned count) {
    HostBatch batch(bytes, bytes);
    const std::vector<AeadChunk> chunk = batch.chunks(bytes);
    key.seal(chunk);
    std::vector<double> seconds;
    seconds.reserve(count);
    for (unsigned i = 0; i < count; ++i) {
        const auto start = Clock::now();
        key.seal(chunk);
        seconds.push_back(since(start));
    }
    return seconds;
}

}  // namespace warp::gpubench
