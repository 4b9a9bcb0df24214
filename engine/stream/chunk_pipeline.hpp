// The chunk pipeline (docs/design.md, "The pipeline": the pipeline owns buffers; backends never
// allocate per chunk). It moves a byte stream through an AeadKey as fixed-size records:
//
//   seal: plaintext -> chunks of `chunk_size` bytes (the last one shorter, possibly 1 byte)
//         -> records `ciphertext || tag` (chunk_size + 16 bytes, the last one shorter)
//   open: records -> plaintext, written batch by batch only after the whole batch opened.
//
// It knows nothing of files' formats: the caller supplies the nonce of each chunk index, an
// observer that sees every plaintext batch (a format hashes it), and, when opening, how many
// bytes at the very end of the input are not records (a format's trailer), which are held back
// and handed to the caller at the end.
//
// Work is done a batch at a time: read a batch, seal or open all its chunks, write it. With
// one thread, that is all there is: no thread is started. With N >= 2 threads and an input
// longer than one batch, N threads (the calling one and N - 1 started) each carry a batch of
// their own through those three steps, taking turns to read and to write in input order
// (batches_in_turns.hpp): chunks are independent, so batches are too, and a batch stays on one
// core from the read to the write. The output is therefore the same bytes whatever the thread
// count. An input of one batch or less is always handled on the calling thread alone.
//
// Memory: one batch buffer per thread, allocated once by the constructor and reused; nothing
// is allocated per chunk or per batch, whatever the input size. The buffers stay within
// kMaxBufferBytes whatever the thread count: more threads than fit are not started (at the
// default 64 KiB chunks, 11 threads: some 50 GB/s of AES-GCM at this machine's 5 GB/s per
// core, far beyond any file system). Pages of a buffer are touched only when used, so a small
// input costs little.
//
// Threading: one pipeline is used by one thread at a time. The AeadKey must outlive it. The
// source is read, the sink written and the observer called by one thread at a time, each in
// input order, but not always by the calling thread; the nonce function may be called from
// several threads at once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "engine/aead.hpp"
#include "engine/aead_key.hpp"
#include "engine/io.hpp"
#include "engine/stream/thread_count.hpp"

namespace warp::stream {

inline constexpr std::size_t kTagSize = kMaxTagSize;
// A batch holds about this many plaintext bytes: 16 chunks of 64 KiB. Big enough that each
// read and write moves 1 MiB and that a hand-off between threads is cheap next to the work;
// small enough that the buffers of a few batches in flight stay in a server's L3 cache.
// Measured again once batches were placed for the kernel's copies (placed_buffer.hpp; the
// "twice the system time" of 2 MiB batches seen on 2026-11-29 was most likely that): a 1 GiB
// age file encrypted and decrypted file to file, alternating, 2026-12-01: 256 KiB batches
// 1.28-1.46 s, 512 KiB 1.10-1.32 s, 1 MiB 1.01-1.14 s, 2 MiB no different from 1 MiB.
inline constexpr std::size_t kDefaultBatchBytes = std::size_t{1} << 20;

// The most batch buffers a pipeline with several threads holds (see "Memory" above); one
// batch may exceed it alone (chunks of up to 16 MiB), and then only one thread works.
inline constexpr std::size_t kMaxBufferBytes = std::size_t{24} << 20;

// Batches a pipeline with `threads` threads keeps in flight (see "Memory" above): one each.
constexpr std::size_t batches_in_flight(unsigned threads) { return threads <= 1 ? 1 : threads; }

// The most threads `budget` bytes of buffers allow, one batch's buffers taking
// `batch_buffer_bytes` (see "Memory" above): at least one.
constexpr unsigned threads_within(std::size_t batch_buffer_bytes,
                                  std::size_t budget = kMaxBufferBytes) {
    const std::size_t fit = budget / (batch_buffer_bytes == 0 ? 1 : batch_buffer_bytes);
    return fit == 0 ? 1 : static_cast<unsigned>(fit);
}

// The threads a pipeline runs when `requested` are asked for (0: one per CPU), given the
// bytes of one batch's buffers: as many as `budget` bytes of buffers allow, at least one.
unsigned usable_threads(unsigned requested, std::size_t batch_buffer_bytes,
                        std::size_t budget = kMaxBufferBytes);

// The buffer budget of a pipeline over `key`: kMaxBufferBytes, except for a backend that asks
// for big batches (AeadImpl::batch_bytes: a GPU), which gets room for two threads whatever its
// batch size, so that one thread's reading and writing overlap the other's batch on the device
// (at the cuda backend's 8 MiB batches: 2 batches of plaintext and records, about 32 MiB).
std::size_t buffer_budget(const AeadKey& key, std::size_t batch_buffer_bytes);

struct ChunkLayout {
    std::size_t chunk_size = 0;        // plaintext bytes of a full chunk, >= 1
    std::size_t chunks_per_batch = 0;  // >= 1

    constexpr std::size_t record_size() const { return chunk_size + kTagSize; }
    constexpr std::size_t batch_plaintext_bytes() const { return chunk_size * chunks_per_batch; }
    constexpr std::size_t batch_record_bytes() const { return record_size() * chunks_per_batch; }
};

// The layout for `chunk_size`: as many chunks as fit in `batch_bytes`, at least one.
constexpr ChunkLayout layout_for(std::size_t chunk_size,
                                 std::size_t batch_bytes = kDefaultBatchBytes) {
    const std::size_t per_batch = chunk_size >= batch_bytes ? 1 : batch_bytes / chunk_size;
    return ChunkLayout{chunk_size, per_batch};
}

// The layout every pipeline over `batch_bytes` (an AeadImpl's or AeadKey's batch_bytes(): the
// size its backend prefers per call, 0 for the default) uses for `chunk_size`: the one rule
// for the pipeline, range decryption and calibration. When the payload's size is known, a
// batch holds no more chunks than the payload has (a short range does not allocate a GPU's
// batch).
constexpr ChunkLayout layout_for(std::size_t chunk_size, std::size_t batch_bytes,
                                 std::optional<std::uint64_t> payload_bytes) {
    ChunkLayout layout =
        layout_for(chunk_size, batch_bytes != 0 ? batch_bytes : kDefaultBatchBytes);
    if (payload_bytes) {
        const std::uint64_t chunks = (*payload_bytes + chunk_size - 1) / chunk_size;
        if (chunks < layout.chunks_per_batch)
            layout.chunks_per_batch = chunks == 0 ? 1 : static_cast<std::size_t>(chunks);
    }
    return layout;
}
inline ChunkLayout layout_for(const AeadKey& key, std::size_t chunk_size,
                              std::optional<std::uint64_t> payload_bytes = std::nullopt) {
    return layout_for(chunk_size, key.batch_bytes(), payload_bytes);
}

// Writes the nonce (kChunkNonceSize bytes) of the chunk with this index.
using NonceFn = std::function<void(std::uint64_t index, std::uint8_t* nonce)>;
// Sees the plaintext of each batch, in order: when its records are about to be written (seal)
// or after it opened and before it is written (open). May be empty.
using PlaintextObserver = std::function<void(std::span<const std::uint8_t> plaintext)>;

struct SealSummary {
    std::uint64_t chunks = 0;           // records written; the next free index is first + chunks
    std::uint64_t plaintext_bytes = 0;
};

struct OpenSummary {
    std::uint64_t chunks = 0;           // records authenticated and written
    std::uint64_t plaintext_bytes = 0;  // plaintext written

    // The first record that failed to authenticate (index, as given to the NonceFn) and its
    // bytes as read. Opening stopped there; of its batch, nothing was written, or with
    // FailedBatch::write_what_opened the records before it (counted in chunks).
    std::optional<std::uint64_t> failed_chunk;
    std::span<const std::uint8_t> failed_record;

    // Whether the input was read to its end (false only when a batch failed before it).
    bool reached_end = false;
    // At the end: the bytes from the start of the last record to the end of the input (the
    // last record, if any, then the held-back tail), and the index of that last record
    // (or, when there is no record, the index after the last one). A caller can reinterpret
    // them (e.g. to tell a truncated input from a damaged one). Valid until the next call.
    std::span<const std::uint8_t> final_segment;
    std::uint64_t final_segment_index = 0;
    // The held-back tail: the last `tail_bytes` of the input. Shorter only when the input is.
    std::span<const std::uint8_t> tail;
    // The last record was 1..16 bytes: too short to hold a tag. It was not opened.
    bool malformed_last_record = false;
};

// What open() writes of a batch in which a record fails: nothing (a format that reports the
// failure before releasing the batch's plaintext), or the plaintext of the records before the
// failed one, which did authenticate (age: everything authenticated is released, in order).
enum class FailedBatch { write_nothing, write_what_opened };

class ChunkPipeline {
public:
    // `tail_bytes`: bytes at the end of the input that open() holds back (not records).
    // `threads`: threads that seal or open (0: one per CPU this process may use).
    ChunkPipeline(const AeadKey& key, ChunkLayout layout, std::size_t tail_bytes = 0,
                  unsigned threads = 1);
    ~ChunkPipeline();
    ChunkPipeline(const ChunkPipeline&) = delete;
    ChunkPipeline& operator=(const ChunkPipeline&) = delete;

    // Seals all of `in` to `out`; chunk i gets nonce(first_index + i). Empty input writes
    // nothing. Throws what the source, the sink or the observer throw.
    SealSummary seal(ByteSource& in, ByteSink& out, const NonceFn& nonce,
                     const PlaintextObserver& observer, std::uint64_t first_index = 0);

    // Opens records from `in` (everything but its last tail_bytes) and writes their plaintext
    // to `out`, each batch only after all of its records authenticated. Stops at the first
    // batch with a failure. Authentication failures are reported in the summary, not thrown.
    OpenSummary open(ByteSource& in, ByteSink& out, const NonceFn& nonce,
                     const PlaintextObserver& observer, std::uint64_t first_index = 0,
                     FailedBatch failed_batch = FailedBatch::write_nothing);

    const ChunkLayout& layout() const noexcept { return layout_; }
    unsigned threads() const noexcept { return threads_; }
    // Bytes of buffer this pipeline holds (constant over its life).
    std::size_t buffer_bytes() const noexcept;

    struct Batch;  // one batch's buffers and what a pass put in them (chunk_pipeline.cpp)

private:
    // Runs read -> process -> observe -> commit over every batch of the input: on the calling
    // thread alone, or on threads taking turns (batches_in_turns.hpp). read returns whether
    // more may follow; observe whether later batches may be observed; commit whether to go on.
    template <typename Read, typename Process, typename Observe, typename Commit>
    void run(Read&& read, Process&& process, Observe&& observe, Commit&& commit);
    // Prepares and opens the records at batch.records[0..bytes), which hold `count` records
    // (the last possibly short). Returns the position of the first failure, or count.
    std::size_t open_records(Batch& batch, std::size_t bytes, std::size_t count,
                             std::uint64_t first_index, const NonceFn& nonce);

    const AeadKey& key_;
    ChunkLayout layout_;
    std::size_t tail_bytes_;
    std::size_t plain_size_;    // bytes of each batch's plaintext buffer
    std::size_t records_size_;  // bytes of each batch's records buffer (records + tail)
    unsigned threads_;
    std::vector<std::unique_ptr<Batch>> batches_;
};

}  // namespace warp::stream
