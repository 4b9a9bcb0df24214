// SPEC 6, "Lengths follow by arithmetic": decrypting a byte range of a seekable file. The
// trailer chunk is authenticated first (it fixes the plaintext length), then only the chunks
// that hold the range are read and opened.
#include <algorithm>
#include <string>

#include "engine/aead_key.hpp"
#include "engine/error.hpp"
#include "engine/stream/chunk_pipeline.hpp"
#include "engine/stream/memory_io.hpp"
#include "formats/container.hpp"
#include "formats/header.hpp"
#include "formats/payload.hpp"
#include "formats/suite.hpp"
#include "formats/unlock.hpp"

namespace warp::formats {

DecryptResult decrypt_range(const RandomAccessSource& in, ByteSink& out,
                            const DecryptOptions& options, std::uint64_t offset,
                            std::uint64_t length) {
    const std::uint64_t file_size = in.size();
    stream::WindowSource header_source(in, 0, file_size);
    const Header header = read_header(header_source);
    const unsigned chunk_log2 = header.chunk_log2;
    const std::uint64_t chunk = chunk_size_of(chunk_log2);
    const std::uint64_t record = record_size_of(chunk_log2);
    const std::uint64_t payload_start = header.bytes.size();
    const std::uint64_t payload_bytes = file_size - payload_start;
    // The records before the trailer slot, by the arithmetic of SPEC 6, even when the size
    // does not follow it (the failure below then says why).
    const std::uint64_t record_bytes =
        payload_bytes < kTrailerChunkSize ? 0 : payload_bytes - kTrailerChunkSize;
    const std::uint64_t records = (record_bytes + record - 1) / record;
    const std::uint64_t last_record_start =
        payload_start + (records == 0 ? 0 : (records - 1) * record);

    const std::optional<PayloadGeometry> geometry = payload_geometry(payload_bytes, chunk_log2);

    // The range in the plaintext the file's size implies; the trailer, opened below, must
    // agree, or nothing is written.
    const std::uint64_t plaintext_bytes = geometry ? geometry->plaintext_bytes : 0;
    const std::uint64_t begin = std::min(offset, plaintext_bytes);
    const std::uint64_t end = begin + std::min(length, plaintext_bytes - begin);
    const std::uint64_t first = begin / chunk;
    const std::uint64_t last = begin == end ? first : (end - 1) / chunk;
    const std::uint64_t opened_bytes = begin == end ? 0 : (last - first + 1) * chunk;

    // The engine's one decision, for the bytes this call opens (the slots use it too).
    DecryptResult result;
    result.selection =
        select(aead_of(header.suite), SizeHint::exactly(opened_bytes), options.backend);
    WipedKey payload_key;
    result.slot_used = unlock(header, options, *result.selection.impl, payload_key);
    const AeadKey key(*result.selection.impl, payload_key.span());

    std::optional<Trailer> trailer;
    if (geometry)
        trailer = open_trailer(key, records,
                               stream::read_bytes_at(in, file_size - kTrailerChunkSize, kTrailerChunkSize));
    if (!trailer) {
        const std::vector<std::uint8_t> segment = stream::read_bytes_at(in, last_record_start, file_size - last_record_start);
        PayloadFailure failure;
        failure.at_end = true;
        failure.segment = segment;
        failure.segment_index = records == 0 ? 0 : records - 1;
        failure.chunk = records;
        failure.kind = payload_bytes < kTrailerChunkSize
                           ? PayloadFailure::Kind::shorter_than_trailer
                           : (geometry ? PayloadFailure::Kind::trailer_failed
                                       : PayloadFailure::Kind::malformed_last);
        throw_payload_error(key, chunk_log2, failure);
    }
    if (trailer->plaintext_bytes != plaintext_bytes)
        throw Error(ErrorCause::corrupted,
                    "trailer mismatch: it records " + std::to_string(trailer->plaintext_bytes) +
                        " bytes of plaintext, the file's size says " +
                        std::to_string(plaintext_bytes));

    if (begin == end) return result;

    const std::uint64_t window_start = payload_start + first * record;
    const std::uint64_t window_end =
        std::min(payload_start + (last + 1) * record, file_size - kTrailerChunkSize);
    stream::WindowSource window(in, window_start, window_end - window_start);
    stream::SliceSink slice(out, begin - first * chunk, end - begin);
    stream::ChunkPipeline pipeline(
        key, stream::layout_for(key, static_cast<std::size_t>(chunk), opened_bytes), 0,
        options.threads);
    std::uint64_t done = 0;
    const stream::OpenSummary summary = pipeline.open(
        window, slice, data_chunk_nonces(),
        [&](std::span<const std::uint8_t> batch) {
            done += batch.size();
            if (options.progress) options.progress(done);
        },
        first, stream::FailedBatch::write_what_opened);  // as open_payload does
    if (summary.failed_chunk)
        throw Error(ErrorCause::corrupted,
                    "chunk " + std::to_string(*summary.failed_chunk) + " failed to authenticate");
    result.plaintext_bytes = end - begin;
    return result;
}

}  // namespace warp::formats
