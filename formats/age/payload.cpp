// age.md, "Payload".
#include "formats/age/payload.hpp"

#include <algorithm>

#include "engine/error.hpp"
#include "engine/stream/chunk_pipeline.hpp"
#include "engine/stream/hold_last.hpp"
#include "engine/stream/lookahead.hpp"
#include "formats/age/constants.hpp"
#include "formats/common/stream_nonce.hpp"

namespace warp::formats::age {
namespace {

stream::NonceFn non_final_nonces() {
    return [](std::uint64_t index, std::uint8_t* nonce) { chunk_nonce(index, false, nonce); };
}

stream::PlaintextObserver progress_observer(const ProgressFn& progress, std::uint64_t& done) {
    if (!progress) return {};
    return [&progress, &done](std::span<const std::uint8_t> plaintext) {
        done += plaintext.size();
        progress(done);
    };
}

[[noreturn]] void chunk_failed(std::uint64_t index) {
    throw Error(ErrorCause::corrupted,
                "chunk " + std::to_string(index) + " of the age payload failed to authenticate");
}

// Opens `record` as chunk `index` with the final flag or without; its plaintext in `plain`.
bool open_record(const AeadKey& key, std::span<const std::uint8_t> record, std::uint64_t index,
                 bool final, std::array<std::uint8_t, kChunkSize>& plain) {
    // Left uninitialised, as the chunk buffers below: only the bytes copied in are read (64 KiB
    // of zeroing a chunk was a tenth of a 1 KiB file's time through the C API, 2026-12-06).
    std::array<std::uint8_t, kRecordSize> copy;
    std::copy(record.begin(), record.end(), copy.begin());
    std::array<std::uint8_t, kChunkNonceSize> nonce{};
    chunk_nonce(index, final, nonce.data());
    const std::size_t len = record.size() - kTagSize;
    const AeadChunk chunk{nonce.data(), nonce.size(), nullptr, 0, copy.data(), plain.data(), len,
                          copy.data() + len};
    bool ok = false;
    key.open({&chunk, 1}, &ok);
    return ok;
}

// Writes an authenticated chunk's plaintext, then wipes it.
void release(ByteSink& out, std::array<std::uint8_t, kChunkSize>& plain, std::size_t len) {
    out.write(plain.data(), len);
    secure_wipe(plain.data(), len);
}

}  // namespace

void chunk_nonce(std::uint64_t index, bool final, std::uint8_t* nonce) {
    write_chunk_nonce(index, final ? kFlagFinal : kFlagData, nonce);
}

std::uint64_t sealed_payload_bytes(std::uint64_t plaintext_bytes) {
    const std::uint64_t chunks =
        std::max<std::uint64_t>(1, (plaintext_bytes + kChunkSize - 1) / kChunkSize);
    return plaintext_bytes + chunks * kTagSize;
}

std::optional<std::uint64_t> opened_payload_bytes(std::uint64_t payload_bytes) {
    // age.md, "Payload": whole records, then a final one of 16 (empty) to 64 KiB + 16.
    if (payload_bytes < kTagSize) return std::nullopt;
    const std::uint64_t records = (payload_bytes + kRecordSize - 1) / kRecordSize;
    const std::uint64_t last = payload_bytes - (records - 1) * kRecordSize;
    if (last <= kTagSize && records != 1) return std::nullopt;
    return payload_bytes - records * kTagSize;
}

namespace {

// Seals `last` (0..64 KiB) as the final chunk `index` and writes it.
void seal_final_chunk(const AeadKey& key, std::span<const std::uint8_t> last, std::uint64_t index,
                      ByteSink& out) {
    std::array<std::uint8_t, kChunkSize + kTagSize> record;  // only what is sealed is read
    std::array<std::uint8_t, kChunkNonceSize> nonce{};
    chunk_nonce(index, true, nonce.data());
    const AeadChunk chunk{nonce.data(), nonce.size(), nullptr, 0, last.data(), record.data(),
                          last.size(), record.data() + last.size()};
    key.seal({&chunk, 1});
    out.write(record.data(), last.size() + kTagSize);
    secure_wipe(record.data(), last.size() + kTagSize);
}

std::uint64_t seal_through_pipeline(const AeadKey& key, ByteSource& in, ByteSink& out,
                                    const ProgressFn& progress, unsigned threads,
                                    std::optional<std::uint64_t> plaintext_hint) {
    stream::HoldLastUnit body(in, kChunkSize);
    stream::ChunkPipeline pipeline(key, stream::layout_for(key, kChunkSize, plaintext_hint), 0,
                                   threads);
    std::uint64_t done = 0;
    const stream::SealSummary summary =
        pipeline.seal(body, out, non_final_nonces(), progress_observer(progress, done));
    // The final chunk: the last 1..64 KiB, or nothing for an empty input.
    const std::span<const std::uint8_t> last = body.held();
    seal_final_chunk(key, last, summary.chunks, out);
    if (progress) progress(summary.plaintext_bytes + last.size());
    return summary.plaintext_bytes + last.size();
}

}  // namespace

std::uint64_t seal_payload(const AeadKey& key, ByteSource& in, ByteSink& out,
                           const ProgressFn& progress, unsigned threads,
                           std::optional<std::uint64_t> plaintext_hint) {
    // A payload of one chunk, as its size says (a small buffer or file), is sealed as it is:
    // the pipeline's buffers and threads would cost more than the chunk (a tenth of a 1 KiB
    // encryption through the C API, 2026-12-06). The input is read one byte past its hint, so
    // one larger than its hint said goes through the pipeline after all.
    if (plaintext_hint && *plaintext_hint <= kChunkSize) {
        stream::LookaheadSource ahead(in, static_cast<std::size_t>(*plaintext_hint) + 1);
        if (!ahead.ended() || ahead.buffered() > kChunkSize)
            return seal_through_pipeline(key, ahead, out, progress, threads, std::nullopt);
        seal_final_chunk(key, ahead.bytes(), 0, out);
        if (progress) progress(ahead.buffered());
        return ahead.buffered();
    }
    return seal_through_pipeline(key, in, out, progress, threads, plaintext_hint);
}

namespace {

std::uint64_t open_through_pipeline(const AeadKey& key, ByteSource& in, ByteSink& out,
                                    const ProgressFn& progress, unsigned threads,
                                    std::optional<std::uint64_t> payload_hint) {
    stream::HoldLastUnit records(in, kRecordSize);
    stream::ChunkPipeline pipeline(key, stream::layout_for(key, kChunkSize, payload_hint), 0,
                                   threads);
    std::uint64_t done = 0;
    const stream::OpenSummary summary =
        pipeline.open(records, out, non_final_nonces(), progress_observer(progress, done), 0,
                      stream::FailedBatch::write_what_opened);
    std::array<std::uint8_t, kChunkSize> plain;  // written before it is read; wiped after
    if (summary.failed_chunk) {
        // A whole record that does not open as a chunk before the final one may be a final
        // chunk with more bytes after it: authentic, so released, and then refused.
        const std::uint64_t index = *summary.failed_chunk;
        if (open_record(key, summary.failed_record, index, true, plain)) {
            release(out, plain, summary.failed_record.size() - kTagSize);
            throw Error(ErrorCause::corrupted, "trailing data after the final chunk (" +
                                                   std::to_string(index) +
                                                   ") of the age payload");
        }
        chunk_failed(index);
    }
    const std::size_t len = open_final_chunk(key, records.held(), summary.chunks, out);
    if (progress) progress(summary.plaintext_bytes + len);
    return summary.plaintext_bytes + len;
}

}  // namespace

std::uint64_t open_payload(const AeadKey& key, ByteSource& in, ByteSink& out,
                           const ProgressFn& progress, unsigned threads,
                           std::optional<std::uint64_t> payload_hint) {
    // One record, as the payload's size says: opened as it is (see seal_payload).
    if (payload_hint && *payload_hint <= kRecordSize) {
        stream::LookaheadSource ahead(in, static_cast<std::size_t>(*payload_hint) + 1);
        if (!ahead.ended() || ahead.buffered() > kRecordSize)
            return open_through_pipeline(key, ahead, out, progress, threads, std::nullopt);
        const std::size_t len = open_final_chunk(key, ahead.bytes(), 0, out);
        if (progress) progress(len);
        return len;
    }
    return open_through_pipeline(key, in, out, progress, threads, payload_hint);
}

std::size_t open_final_chunk(const AeadKey& key, std::span<const std::uint8_t> last,
                             std::uint64_t index, ByteSink& out) {
    std::array<std::uint8_t, kChunkSize> plain;  // written before it is read; wiped after
    if (last.empty())
        throw Error(ErrorCause::truncated, index == 0
                                               ? "truncated: the age payload has no chunk"
                                               : "truncated: the age payload ends after chunk " +
                                                     std::to_string(index - 1) +
                                                     ", before its final chunk");
    if (last.size() < kTagSize)
        throw Error(ErrorCause::corrupted, "the last chunk of the age payload is " +
                                               std::to_string(last.size()) +
                                               " bytes, too short for its tag");
    const std::size_t len = last.size() - kTagSize;
    if (len == 0 && index != 0)
        throw Error(ErrorCause::corrupted,
                    "the final chunk of the age payload is empty, which only an empty payload "
                    "may be");
    if (!open_record(key, last, index, true, plain)) {
        // Damaged, or a whole chunk sealed as not final after which the input ended: that one
        // is authentic, so released, and the payload is refused as cut short.
        if (len == kChunkSize && open_record(key, last, index, false, plain)) {
            release(out, plain, len);
            throw Error(ErrorCause::truncated,
                        "truncated: the age payload ends after chunk " + std::to_string(index) +
                            ", which is not its final chunk");
        }
        chunk_failed(index);
    }
    release(out, plain, len);
    return len;
}

}  // namespace warp::formats::age
