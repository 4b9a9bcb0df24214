// Range decryption's arithmetic and its one pass over the chunks, for both formats: the
// format finds the plaintext's length (warp: the trailer; age: the final chunk, each opened
// first) and where its records lie; this says which chunks hold a byte range and opens just
// those, writing the range's bytes of them.
#pragma once

#include <cstdint>
#include <string_view>

#include "engine/aead_key.hpp"
#include "engine/io.hpp"
#include "engine/stream/chunk_pipeline.hpp"
#include "formats/options.hpp"

namespace warp::formats {

struct ChunkRange {
    std::uint64_t begin = 0, end = 0;   // plaintext bytes [begin, end)
    std::uint64_t first = 0, last = 0;  // the chunks that hold them (first == last when empty)
    constexpr bool empty() const { return begin == end; }
    constexpr std::uint64_t chunks() const { return empty() ? 0 : last - first + 1; }
};

// [offset, offset + length) clamped to a plaintext of `plaintext_bytes`, in chunks of `chunk`.
constexpr ChunkRange chunk_range(std::uint64_t offset, std::uint64_t length,
                                 std::uint64_t plaintext_bytes, std::uint64_t chunk) {
    ChunkRange range;
    range.begin = offset < plaintext_bytes ? offset : plaintext_bytes;
    const std::uint64_t room = plaintext_bytes - range.begin;
    range.end = range.begin + (length < room ? length : room);
    range.first = range.begin / chunk;
    range.last = range.empty() ? range.first : (range.end - 1) / chunk;
    return range;
}

// Where a format's data chunks lie: records of chunk + tag bytes from `records_start`, and
// their nonces.
struct ChunkLayoutInFile {
    std::size_t chunk = 0;
    std::uint64_t records_start = 0;
    stream::NonceFn nonces;
};

// Opens data chunks range.first..through (the records up to `window_end` at most: the last
// may be short) and writes to `out` what of them lies in the range, which begins in chunk
// range.first; each batch is written once it authenticated, and a failing chunk is
// Error(corrupted, "chunk N<of_what> failed to authenticate") after the chunks before it were
// written. `progress` counts the plaintext opened.
void open_range_chunks(const RandomAccessSource& in, ByteSink& out, const AeadKey& key,
                       const ChunkLayoutInFile& layout, const ChunkRange& range,
                       std::uint64_t through, std::uint64_t window_end, const Options& options,
                       std::string_view of_what);

}  // namespace warp::formats
