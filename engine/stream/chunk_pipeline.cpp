#include "engine/stream/chunk_pipeline.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "engine/error.hpp"
#include "engine/secure_memory.hpp"

namespace warp::stream {
namespace {

constexpr std::size_t ceil_div(std::size_t a, std::size_t b) { return (a + b - 1) / b; }

}  // namespace

ChunkPipeline::ChunkPipeline(const AeadKey& key, ChunkLayout layout, std::size_t tail_bytes)
    : key_(key), layout_(layout), tail_bytes_(tail_bytes) {
    if (layout.chunk_size == 0 || layout.chunks_per_batch == 0)
        throw Error(ErrorCause::invalid_argument, "chunk pipeline: empty chunk or batch");
    const std::size_t per_batch = layout.chunks_per_batch;
    plain_size_ = layout.batch_plaintext_bytes();
    records_size_ = layout.batch_record_bytes() + tail_bytes;
    plain_.reset(new std::uint8_t[plain_size_]);
    records_.reset(new std::uint8_t[records_size_]);
    nonces_.resize(per_batch * kChunkNonceSize);
    chunks_.resize(per_batch);
    ok_ = std::make_unique<bool[]>(per_batch);
}

ChunkPipeline::~ChunkPipeline() { secure_wipe(plain_.get(), plain_used_); }

std::size_t ChunkPipeline::buffer_bytes() const noexcept {
    return plain_size_ + records_size_ + nonces_.size() +
           chunks_.size() * sizeof(AeadChunk) + layout_.chunks_per_batch * sizeof(bool);
}

SealSummary ChunkPipeline::seal(ByteSource& in, ByteSink& out, const NonceFn& nonce,
                                const PlaintextObserver& observer, std::uint64_t first_index) {
    const std::size_t chunk = layout_.chunk_size;
    const std::size_t record = layout_.record_size();
    SealSummary summary;
    for (;;) {
        const std::size_t got = read_fully(in, plain_.get(), plain_size_);
        if (got == 0) break;
        plain_used_ = std::max(plain_used_, got);
        if (observer) observer({plain_.get(), got});

        const std::size_t count = ceil_div(got, chunk);
        for (std::size_t j = 0; j < count; ++j) {
            const std::size_t len = std::min(chunk, got - j * chunk);
            std::uint8_t* rec = records_.get() + j * record;
            std::uint8_t* n = nonces_.data() + j * kChunkNonceSize;
            nonce(first_index + summary.chunks + j, n);
            chunks_[j] = AeadChunk{n, kChunkNonceSize, nullptr, 0, plain_.get() + j * chunk,
                                   rec, len, rec + len};
        }
        key_.seal({chunks_.data(), count});
        // Records are packed: only the last one can be short, so its end is the batch's end.
        out.write(records_.get(), got + count * kTagSize);

        summary.chunks += count;
        summary.plaintext_bytes += got;
        if (got < plain_size_) break;  // the source ended inside this batch
    }
    return summary;
}

std::size_t ChunkPipeline::open_records(std::size_t bytes, std::size_t count,
                                        std::uint64_t first_index, const NonceFn& nonce) {
    const std::size_t chunk = layout_.chunk_size;
    const std::size_t record = layout_.record_size();
    for (std::size_t j = 0; j < count; ++j) {
        const std::size_t offset = j * record;
        const std::size_t len = std::min(record, bytes - offset) - kTagSize;
        std::uint8_t* rec = records_.get() + offset;
        std::uint8_t* n = nonces_.data() + j * kChunkNonceSize;
        nonce(first_index + j, n);
        chunks_[j] = AeadChunk{n, kChunkNonceSize, nullptr, 0, rec, plain_.get() + j * chunk,
                               len, rec + len};
    }
    if (count != 0)
        plain_used_ = std::max(plain_used_, (count - 1) * chunk + chunks_[count - 1].len);
    if (key_.open({chunks_.data(), count}, ok_.get()) == 0) return count;
    return static_cast<std::size_t>(std::find(ok_.get(), ok_.get() + count, false) - ok_.get());
}

OpenSummary ChunkPipeline::open(ByteSource& in, ByteSink& out, const NonceFn& nonce,
                                const PlaintextObserver& observer, std::uint64_t first_index) {
    const std::size_t record = layout_.record_size();
    const std::size_t per_batch = layout_.chunks_per_batch;
    const std::size_t tail = tail_bytes_;
    OpenSummary summary;
    std::uint64_t index = first_index;

    const auto deliver = [&](std::size_t count, std::size_t plaintext_bytes) {
        const std::span<const std::uint8_t> plaintext{plain_.get(), plaintext_bytes};
        if (observer) observer(plaintext);
        out.write(plaintext.data(), plaintext.size());
        summary.chunks += count;
        summary.plaintext_bytes += plaintext_bytes;
        index += count;
    };
    const auto fail = [&](std::size_t position, std::size_t record_len) {
        summary.failed_chunk = index + position;
        summary.failed_record = {records_.get() + position * record, record_len};
        return summary;
    };

    // records_ holds one batch of records plus room for the tail. Whenever it is full, its
    // first per_batch records are certainly records (at least `tail` bytes follow them);
    // what remains at the end of the input is the last records, then the tail.
    std::size_t have = 0;
    for (;;) {
        have += read_fully(in, records_.get() + have, records_size_ - have);
        if (have < records_size_) break;

        const std::size_t failed = open_records(per_batch * record, per_batch, index, nonce);
        if (failed < per_batch) return fail(failed, record);
        deliver(per_batch, layout_.batch_plaintext_bytes());
        std::memmove(records_.get(), records_.get() + per_batch * record, tail);
        have = tail;
    }

    summary.reached_end = true;
    if (have < tail) {
        summary.tail = summary.final_segment = {records_.get(), have};
        summary.final_segment_index = index;
        return summary;
    }
    const std::size_t record_bytes = have - tail;
    const std::size_t count = ceil_div(record_bytes, record);
    const std::size_t last_len = count == 0 ? 0 : record_bytes - (count - 1) * record;
    const std::size_t segment_start = count == 0 ? 0 : (count - 1) * record;
    summary.tail = {records_.get() + record_bytes, tail};
    summary.final_segment = {records_.get() + segment_start, have - segment_start};
    summary.final_segment_index = count == 0 ? index : index + count - 1;

    if (count != 0 && last_len <= kTagSize) {
        // Not a valid end: still say which earlier record fails, if one does, but write
        // nothing of this batch.
        summary.malformed_last_record = true;
        const std::size_t failed = open_records(segment_start, count - 1, index, nonce);
        if (failed < count - 1) return fail(failed, record);
        return summary;
    }
    if (count != 0) {
        const std::size_t failed = open_records(record_bytes, count, index, nonce);
        if (failed < count)
            return fail(failed, std::min(record, record_bytes - failed * record));
        deliver(count, record_bytes - count * kTagSize);
    }
    return summary;
}

}  // namespace warp::stream
