// SPEC 6, "Lengths follow by arithmetic": decrypting a byte range of a seekable file. The
// trailer chunk is authenticated first (it fixes the plaintext length), then only the chunks
// that hold the range are read and opened.
#include <algorithm>
#include <string>

#include "engine/aead_key.hpp"
#include "engine/error.hpp"
#include "engine/stream/chunk_pipeline.hpp"
#include "engine/stream/memory_io.hpp"
#include "formats/common/chunk_range.hpp"
#include "formats/warp/warp.hpp"
#include "formats/warp/header.hpp"
#include "formats/warp/payload.hpp"
#include "formats/warp/suite.hpp"
#include "formats/warp/unlock.hpp"

namespace warp::formats::warp_format {

Result decrypt_range(const RandomAccessSource& in, ByteSink& out, const Options& options,
                     std::uint64_t offset, std::uint64_t length) {
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
    const ChunkRange range = chunk_range(offset, length, plaintext_bytes, chunk);
    const std::uint64_t opened_bytes = range.chunks() * chunk;

    // The engine's one decision, for the bytes this call opens (the slots use it too).
    Result result;
    result.entries_before = result.entries_after = header.slots.size();
    result.selection =
        select(aead_of(header.suite), SizeHint::exactly(opened_bytes), options.backend);
    WipedKey payload_key;
    result.opened_with = unlock(header, options, *result.selection.impl, payload_key);
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

    if (range.empty()) return result;
    open_range_chunks(in, out, key, {static_cast<std::size_t>(chunk), payload_start, data_chunk_nonces()},
                      range, range.last, file_size - kTrailerChunkSize, options, "");
    result.plaintext_bytes = range.end - range.begin;
    return result;
}

}  // namespace warp::formats::warp_format
