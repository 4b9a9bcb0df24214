// The pass over a range's chunks both formats make (chunk_range.hpp).
#include "formats/common/chunk_range.hpp"

#include <algorithm>
#include <string>

#include "engine/error.hpp"
#include "engine/stream/memory_io.hpp"

namespace warp::formats {

void open_range_chunks(const RandomAccessSource& in, ByteSink& out, const AeadKey& key,
                       const ChunkLayoutInFile& layout, const ChunkRange& range,
                       std::uint64_t through, std::uint64_t window_end, const Options& options,
                       std::string_view of_what) {
    const std::uint64_t record = layout.chunk + kMaxTagSize;  // both formats: 16-byte tags
    const std::uint64_t window_start = layout.records_start + range.first * record;
    const std::uint64_t end =
        std::min(layout.records_start + (through + 1) * record, window_end);
    stream::WindowSource window(in, window_start, end - window_start);
    stream::SliceSink slice(out, range.begin - range.first * layout.chunk,
                            range.end - range.begin);
    stream::ChunkPipeline pipeline(
        key, stream::layout_for(key, layout.chunk, (through - range.first + 1) * layout.chunk), 0,
        options.threads);
    std::uint64_t done = 0;
    const stream::OpenSummary summary = pipeline.open(
        window, slice, layout.nonces,
        [&](std::span<const std::uint8_t> batch) {
            done += batch.size();
            if (options.progress) options.progress(done);
        },
        range.first, stream::FailedBatch::write_what_opened);
    if (summary.failed_chunk)
        throw Error(ErrorCause::corrupted, "chunk " + std::to_string(*summary.failed_chunk) +
                                               std::string(of_what) + " failed to authenticate");
}

}  // namespace warp::formats
