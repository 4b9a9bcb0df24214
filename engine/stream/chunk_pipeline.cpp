#include "engine/stream/chunk_pipeline.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "engine/error.hpp"
#include "engine/stream/batches_in_turns.hpp"
#include "engine/stream/placed_buffer.hpp"

namespace warp::stream {
namespace {

constexpr std::size_t ceil_div(std::size_t a, std::size_t b) { return (a + b - 1) / b; }
constexpr std::size_t kNotFailed = SIZE_MAX;

}  // namespace

// Buffers are left uninitialised: a small input touches (and the OS backs) only the pages it
// uses, and a batch the input never reaches costs address space only. Each pass places the
// plaintext and the records at the file offsets they are read from or written to
// (placed_buffer.hpp): a batch's are known from its sequence number once the pass begins.
//
// A device backend may pin both buffers for direct transfers (AeadImpl::pin_buffer): then its
// seal and open read and write them with no copy on the host. Pinned for the batch's life,
// released before the buffers (members are destroyed in reverse order).
struct ChunkPipeline::Batch {
    Batch(const AeadKey& key, std::size_t plain_size, std::size_t records_size,
          std::size_t per_batch)
        : plain(plain_size),
          records(records_size),
          plain_pin(key, plain.base(), plain.allocation_bytes()),
          records_pin(key, records.base(), records.allocation_bytes()),
          nonces(per_batch * kChunkNonceSize),
          chunks(per_batch),
          ok(std::make_unique<bool[]>(per_batch)) {}
    Batch(const Batch&) = delete;
    Batch& operator=(const Batch&) = delete;

    PlacedBuffer plain;    // one batch of plaintext, contiguous (wiped by PlacedBuffer)
    PlacedBuffer records;  // one batch of records, plus the held-back tail
    PinnedRange plain_pin;
    PinnedRange records_pin;
    std::vector<std::uint8_t> nonces;  // kChunkNonceSize per chunk
    std::vector<AeadChunk> chunks;
    std::unique_ptr<bool[]> ok;

    // What the current pass put here. Every batch before the last holds exactly
    // chunks_per_batch chunks, so batch `seq`'s first chunk index follows from seq.
    std::uint64_t seq = 0;
    std::size_t bytes = 0;  // seal: plaintext bytes read; open: input bytes in `records`
    bool last = false;      // the input ended in this batch
    std::size_t count = 0;  // chunks sealed, or opened and to be written
    std::size_t out_bytes = 0;  // what commit writes: records (seal), plaintext (open)
    // open only: the first record that failed (kNotFailed if none) and its length, and for
    // the last batch, where its final segment and tail start (OpenSummary).
    std::size_t failed = kNotFailed;
    std::size_t failed_len = 0;
    std::size_t segment_start = 0;
    std::size_t tail_start = 0;
    std::uint64_t segment_index = 0;
    bool malformed = false;
};

ChunkPipeline::ChunkPipeline(const AeadKey& key, ChunkLayout layout, std::size_t tail_bytes,
                             unsigned threads)
    : key_(key),
      layout_(layout),
      tail_bytes_(tail_bytes),
      plain_size_(layout.batch_plaintext_bytes()),
      records_size_(layout.batch_record_bytes() + tail_bytes),
      threads_(usable_threads(threads, plain_size_ + records_size_,
                              buffer_budget(key, plain_size_ + records_size_))) {
    if (layout.chunk_size == 0 || layout.chunks_per_batch == 0)
        throw Error(ErrorCause::invalid_argument, "chunk pipeline: empty chunk or batch");
    batches_.resize(batches_in_flight(threads_));
    for (auto& batch : batches_)
        batch = std::make_unique<Batch>(key, plain_size_, records_size_, layout.chunks_per_batch);
}

ChunkPipeline::~ChunkPipeline() = default;

std::size_t buffer_budget(const AeadKey& key, std::size_t batch_buffer_bytes) {
    if (key.batch_bytes() == 0) return kMaxBufferBytes;
    return std::max(kMaxBufferBytes, batches_in_flight(2) * batch_buffer_bytes);
}

unsigned usable_threads(unsigned requested, std::size_t batch_buffer_bytes, std::size_t budget) {
    return std::min(resolve_thread_count(requested), threads_within(batch_buffer_bytes, budget));
}

std::size_t ChunkPipeline::buffer_bytes() const noexcept {
    const std::size_t per_batch = layout_.chunks_per_batch;
    const std::size_t one = plain_size_ + records_size_ + 2 * PlacedBuffer::kSlack +
                            per_batch * kChunkNonceSize +
                            per_batch * sizeof(AeadChunk) + per_batch * sizeof(bool);
    return one * batches_.size();
}

template <typename Read, typename Process, typename Observe, typename Commit>
void ChunkPipeline::run(Read&& read, Process&& process, Observe&& observe, Commit&& commit) {
    Batch& first = *batches_[0];
    first.seq = 0;
    const bool more = read(first);
    if (more && threads_ > 1) {
        std::vector<Batch*> others;
        for (std::size_t i = 1; i < batches_.size(); ++i) others.push_back(batches_[i].get());
        run_in_turns(first, std::span<Batch* const>(others), read, process, observe, commit);
        return;
    }
    // One thread, or an input of one batch: read, process, commit in turn.
    process(first);
    observe(first);
    if (!commit(first) || !more) return;
    for (;;) {
        ++first.seq;
        const bool again = read(first);
        process(first);
        observe(first);
        if (!commit(first) || !again) return;
    }
}

SealSummary ChunkPipeline::seal(ByteSource& in, ByteSink& out, const NonceFn& nonce,
                                const PlaintextObserver& observer, std::uint64_t first_index) {
    const std::size_t chunk = layout_.chunk_size;
    const std::size_t record = layout_.record_size();
    const std::size_t per_batch = layout_.chunks_per_batch;
    SealSummary summary;
    // Every batch before the last writes a full batch of records.
    const std::uint64_t written_from = out.position();

    const auto read = [&](Batch& batch) {
        batch.bytes = read_fully(in, batch.plain.place(in.position()), plain_size_);
        batch.plain.mark_used(batch.bytes);
        batch.last = batch.bytes < plain_size_;
        return !batch.last;
    };
    const auto process = [&](Batch& batch) {
        const std::uint64_t index = first_index + batch.seq * per_batch;
        batch.count = ceil_div(batch.bytes, chunk);
        std::uint8_t* records =
            batch.records.place(written_from + batch.seq * layout_.batch_record_bytes());
        for (std::size_t j = 0; j < batch.count; ++j) {
            const std::size_t len = std::min(chunk, batch.bytes - j * chunk);
            std::uint8_t* rec = records + j * record;
            std::uint8_t* n = batch.nonces.data() + j * kChunkNonceSize;
            nonce(index + j, n);
            batch.chunks[j] = AeadChunk{n, kChunkNonceSize, nullptr, 0,
                                        batch.plain.data() + j * chunk, rec, len, rec + len};
        }
        key_.seal({batch.chunks.data(), batch.count});
        // Records are packed: only the last one can be short, so its end is the batch's end.
        batch.out_bytes = batch.bytes + batch.count * kTagSize;
    };
    // The observer (a format's running hash) sees the plaintext after sealing, in order:
    // sealing is out of place, so the plaintext is still intact, and in this thread's cache.
    const auto observe = [&](Batch& batch) {
        if (observer && batch.bytes != 0) observer({batch.plain.data(), batch.bytes});
        return true;
    };
    const auto commit = [&](Batch& batch) {
        if (batch.out_bytes != 0) out.write(batch.records.data(), batch.out_bytes);
        summary.chunks += batch.count;
        summary.plaintext_bytes += batch.bytes;
        return true;
    };
    run(read, process, observe, commit);
    return summary;
}

std::size_t ChunkPipeline::open_records(Batch& batch, std::size_t bytes, std::size_t count,
                                        std::uint64_t first_index, const NonceFn& nonce) {
    const std::size_t chunk = layout_.chunk_size;
    const std::size_t record = layout_.record_size();
    for (std::size_t j = 0; j < count; ++j) {
        const std::size_t offset = j * record;
        const std::size_t len = std::min(record, bytes - offset) - kTagSize;
        std::uint8_t* rec = batch.records.data() + offset;
        std::uint8_t* n = batch.nonces.data() + j * kChunkNonceSize;
        nonce(first_index + j, n);
        batch.chunks[j] = AeadChunk{n, kChunkNonceSize, nullptr, 0, rec,
                                    batch.plain.data() + j * chunk, len, rec + len};
    }
    if (count == 0) return 0;
    batch.plain.mark_used((count - 1) * chunk + batch.chunks[count - 1].len);
    if (key_.open({batch.chunks.data(), count}, batch.ok.get()) == 0) return count;
    return static_cast<std::size_t>(std::find(batch.ok.get(), batch.ok.get() + count, false) -
                                    batch.ok.get());
}

OpenSummary ChunkPipeline::open(ByteSource& in, ByteSink& out, const NonceFn& nonce,
                                const PlaintextObserver& observer, std::uint64_t first_index,
                                FailedBatch failed_batch) {
    const std::size_t record = layout_.record_size();
    const std::size_t per_batch = layout_.chunks_per_batch;
    const std::size_t full_records = per_batch * record;
    const std::size_t tail = tail_bytes_;
    OpenSummary summary;

    // A batch's buffer holds one batch of records plus room for the tail. When a read fills
    // it, its first per_batch records are certainly records (at least `tail` bytes follow
    // them), and those `tail` bytes start the next batch; what remains at the end of the
    // input is the last records, then the tail.
    std::vector<std::uint8_t> carried;  // used by one reading thread at a time
    carried.reserve(tail);
    // Every batch before the last writes a full batch of plaintext.
    const std::uint64_t written_from = out.position();
    const auto read = [&](Batch& batch) {
        const std::size_t have = carried.size();
        // What is read lands after the carried bytes: that is what is placed.
        std::uint8_t* records = batch.records.place(in.position() - have);
        std::copy(carried.begin(), carried.end(), records);
        batch.bytes = have + read_fully(in, records + have, records_size_ - have);
        batch.last = batch.bytes < records_size_;
        if (!batch.last)
            carried.assign(records + full_records, records + full_records + tail);
        return !batch.last;
    };

    // Opens a batch; what it found is kept in the batch for commit, which reports in order.
    const auto process_last = [&](Batch& batch, std::uint64_t index) {
        const std::size_t have = batch.bytes;
        if (have < tail) {
            batch.segment_start = batch.tail_start = 0;
            batch.segment_index = index;
            return;
        }
        const std::size_t record_bytes = have - tail;
        const std::size_t count = ceil_div(record_bytes, record);
        const std::size_t last_len = count == 0 ? 0 : record_bytes - (count - 1) * record;
        batch.segment_start = count == 0 ? 0 : (count - 1) * record;
        batch.tail_start = record_bytes;
        batch.segment_index = count == 0 ? index : index + count - 1;

        if (count != 0 && last_len <= kTagSize) {
            // Not a valid end: still say which earlier record fails, if one does, but write
            // nothing of this batch.
            batch.malformed = true;
            const std::size_t failed =
                open_records(batch, batch.segment_start, count - 1, index, nonce);
            if (failed < count - 1) {
                batch.failed = failed;
                batch.failed_len = record;
            }
            return;
        }
        if (count == 0) return;
        const std::size_t failed = open_records(batch, record_bytes, count, index, nonce);
        if (failed < count) {
            batch.failed = failed;
            batch.failed_len = std::min(record, record_bytes - failed * record);
            return;
        }
        batch.count = count;
        batch.out_bytes = record_bytes - count * kTagSize;
    };
    const auto process = [&](Batch& batch) {
        const std::uint64_t index = first_index + batch.seq * per_batch;
        batch.plain.place(written_from + batch.seq * layout_.batch_plaintext_bytes());
        batch.count = batch.out_bytes = 0;
        batch.failed = kNotFailed;
        batch.malformed = false;
        if (batch.last) return process_last(batch, index);
        const std::size_t failed = open_records(batch, full_records, per_batch, index, nonce);
        if (failed < per_batch) {
            batch.failed = failed;
            batch.failed_len = record;
            return;
        }
        batch.count = per_batch;
        batch.out_bytes = layout_.batch_plaintext_bytes();
    };

    // What of a batch is released: all its plaintext, or, where a chunk failed and the caller
    // asked for it, the chunks before that one (whole, and authenticated).
    const auto released = [&](const Batch& batch) -> std::span<const std::uint8_t> {
        if (batch.failed == kNotFailed) return {batch.plain.data(), batch.out_bytes};
        if (failed_batch == FailedBatch::write_what_opened && !batch.malformed)
            return {batch.plain.data(), batch.failed * layout_.chunk_size};
        return {};
    };
    // The observer sees what is released, in order, and nothing after a failed batch.
    const auto observe = [&](Batch& batch) {
        const std::span<const std::uint8_t> plaintext = released(batch);
        if (observer && !plaintext.empty()) observer(plaintext);
        return batch.failed == kNotFailed;
    };
    const auto commit = [&](Batch& batch) {
        const std::uint8_t* base = batch.records.data();
        if (batch.last) {
            summary.reached_end = true;
            summary.tail = {base + batch.tail_start, std::min(batch.bytes, tail)};
            summary.final_segment = {base + batch.segment_start,
                                     batch.bytes - batch.segment_start};
            summary.final_segment_index = batch.segment_index;
            summary.malformed_last_record = batch.malformed;
        }
        const std::span<const std::uint8_t> plaintext = released(batch);
        if (!plaintext.empty()) out.write(plaintext.data(), plaintext.size());
        summary.plaintext_bytes += plaintext.size();
        if (batch.failed == kNotFailed) {
            summary.chunks += batch.count;
            return true;
        }
        summary.failed_chunk = first_index + batch.seq * per_batch + batch.failed;
        summary.failed_record = {base + batch.failed * record, batch.failed_len};
        summary.chunks += plaintext.size() / layout_.chunk_size;  // the whole ones released
        return false;
    };
    run(read, process, observe, commit);
    return summary;
}

}  // namespace warp::stream
