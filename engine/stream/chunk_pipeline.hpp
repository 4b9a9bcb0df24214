// The chunk pipeline (DESIGN.md, "engine/": the pipeline owns buffers; backends never
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
// Work is done a batch at a time (read a batch, seal or open all its chunks in one AEAD call,
// write it) so that a later version can overlap reader, workers and writer without changing
// this interface. Memory: two batch buffers, allocated once by the constructor and reused;
// nothing is allocated per chunk or per batch, whatever the input size.
//
// Threading: one pipeline is used by one thread at a time. The AeadKey must outlive it.
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

namespace warp::stream {

inline constexpr std::size_t kTagSize = kMaxTagSize;
// A batch holds about this many plaintext bytes: 64 chunks of 64 KiB. Big enough that one
// AEAD call amortises any per-call cost (a GPU launch, a thread hand-off), small enough that
// the two buffers stay a few MiB.
inline constexpr std::size_t kDefaultBatchBytes = std::size_t{4} << 20;

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

// Writes the nonce (kChunkNonceSize bytes) of the chunk with this index.
using NonceFn = std::function<void(std::uint64_t index, std::uint8_t* nonce)>;
// Sees the plaintext of each batch, in order, before it is sealed (seal) or after it opened
// and before it is written (open). May be empty.
using PlaintextObserver = std::function<void(std::span<const std::uint8_t> plaintext)>;

struct SealSummary {
    std::uint64_t chunks = 0;           // records written; the next free index is first + chunks
    std::uint64_t plaintext_bytes = 0;
};

struct OpenSummary {
    std::uint64_t chunks = 0;           // records authenticated and written
    std::uint64_t plaintext_bytes = 0;  // plaintext written

    // The first record that failed to authenticate (index, as given to the NonceFn) and its
    // bytes as read. No plaintext of its batch was written; opening stopped there.
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

class ChunkPipeline {
public:
    // `tail_bytes`: bytes at the end of the input that open() holds back (not records).
    ChunkPipeline(const AeadKey& key, ChunkLayout layout, std::size_t tail_bytes = 0);
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
                     const PlaintextObserver& observer, std::uint64_t first_index = 0);

    const ChunkLayout& layout() const noexcept { return layout_; }
    // Bytes of buffer this pipeline holds (constant over its life).
    std::size_t buffer_bytes() const noexcept;

private:
    // Opens the records at records_[0..bytes), which hold `count` records (the last possibly
    // short) into plain_. Returns the position of the first failure, or count.
    std::size_t open_records(std::size_t bytes, std::size_t count, std::uint64_t first_index,
                             const NonceFn& nonce);

    const AeadKey& key_;
    ChunkLayout layout_;
    std::size_t tail_bytes_;
    // Left uninitialised: a small input touches (and the OS backs) only the pages it uses.
    std::size_t plain_size_;
    std::size_t records_size_;
    std::unique_ptr<std::uint8_t[]> plain_;    // one batch of plaintext, contiguous
    std::unique_ptr<std::uint8_t[]> records_;  // one batch of records, plus the held-back tail
    std::size_t plain_used_ = 0;               // high-water mark, wiped on destruction
    std::vector<std::uint8_t> nonces_;   // kChunkNonceSize per chunk of a batch
    std::vector<AeadChunk> chunks_;
    std::unique_ptr<bool[]> ok_;
};

}  // namespace warp::stream
