// The chunk pipeline under the format (engine/stream/chunk_pipeline.hpp): batch shape, what
// open() reports, and memory bounded by its batch buffers whatever the input size.
#include <gtest/gtest.h>

#include <malloc.h>

#include <algorithm>

#include "engine/aead_key.hpp"
#include "engine/registry.hpp"
#include "engine/selection.hpp"
#include "engine/stream/chunk_pipeline.hpp"
#include "engine/stream/hold_last.hpp"
#include "formats/warp/constants.hpp"
#include "tests/formats/format_fixtures.hpp"

namespace warp::formats::warp_format::test {
namespace {

using stream::ChunkPipeline;

const std::array<std::uint8_t, 32> kKey = {1, 2, 3, 4, 5, 6, 7, 8, 9};

AeadKey chacha_key() {
    return AeadKey(*select(Aead::chacha20_poly1305, SizeHint::exactly(1 << 20)).impl, kKey);
}

// A large input made on the fly: no buffer of its size anywhere.
class GeneratedSource final : public ByteSource {
public:
    explicit GeneratedSource(std::uint64_t size) : left_(size) {}
    std::size_t read(std::uint8_t* buf, std::size_t len) override {
        const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(len, left_));
        std::fill_n(buf, n, static_cast<std::uint8_t>(left_));
        left_ -= n;
        return n;
    }

private:
    std::uint64_t left_;
};

std::size_t heap_in_use() {
    const struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}

// Discards, and records the largest write and the most heap in use while writing.
class WatchingSink final : public ByteSink {
public:
    void write(const std::uint8_t*, std::size_t len) override {
        bytes += len;
        largest_write = std::max(largest_write, len);
        peak_heap = std::max(peak_heap, heap_in_use());
    }
    std::uint64_t bytes = 0;
    std::size_t largest_write = 0;
    std::size_t peak_heap = 0;
};

TEST(FormatPipeline, LayoutKeepsBatchesNearOneMiB) {
    EXPECT_EQ(stream::layout_for(1 << 16).chunks_per_batch, 16u);
    EXPECT_EQ(stream::layout_for(1 << 12).chunks_per_batch, 256u);
    EXPECT_EQ(stream::layout_for(1 << 24).chunks_per_batch, 1u);
    const AeadKey key = chacha_key();
    for (unsigned threads : {1u, 16u}) {
        const ChunkPipeline pipeline(key, stream::layout_for(1 << 16), 40, threads);
        // Per batch in flight: plaintext, records + tail, per-chunk bookkeeping.
        EXPECT_LT(pipeline.buffer_bytes(), stream::batches_in_flight(threads) *
                                               (2 * (std::size_t{1} << 20) + 16 * 1024));
    }
}

TEST(FormatPipeline, SealThenOpenWithAHeldBackTail) {
    const AeadKey key = chacha_key();
    const stream::ChunkLayout layout{100, 3};  // small, odd sizes on purpose
    for (std::size_t size : {0u, 1u, 99u, 100u, 101u, 299u, 300u, 301u, 1000u}) {
        const Bytes plain = pattern(size);
        ChunkPipeline pipeline(key, layout, 7);
        stream::SpanSource in(plain);
        stream::VectorSink sealed;
        Bytes seen;
        const auto summary = pipeline.seal(in, sealed, counter_nonce,
                                           [&](std::span<const std::uint8_t> b) {
                                               seen.insert(seen.end(), b.begin(), b.end());
                                           });
        EXPECT_EQ(seen, plain);
        EXPECT_EQ(summary.chunks, (size + 99) / 100);
        EXPECT_EQ(sealed.bytes.size(), size + 16 * summary.chunks);

        const Bytes tail = {1, 2, 3, 4, 5, 6, 7};
        sealed.bytes.insert(sealed.bytes.end(), tail.begin(), tail.end());
        stream::SpanSource records(sealed.bytes);
        stream::VectorSink opened;
        const auto result = pipeline.open(records, opened, counter_nonce, {});
        EXPECT_FALSE(result.failed_chunk.has_value());
        EXPECT_TRUE(result.reached_end);
        EXPECT_EQ(opened.bytes, plain);
        EXPECT_EQ(result.chunks, summary.chunks);
        EXPECT_EQ(Bytes(result.tail.begin(), result.tail.end()), tail);
    }
}

TEST(FormatPipeline, OpenReportsTheFirstFailedChunkAndWritesNothingOfItsBatch) {
    const AeadKey key = chacha_key();
    const stream::ChunkLayout layout{64, 4};
    const Bytes plain = pattern(64 * 10);
    ChunkPipeline pipeline(key, layout);
    stream::SpanSource in(plain);
    stream::VectorSink sealed;
    pipeline.seal(in, sealed, counter_nonce, {}, 1000);
    sealed.bytes[6 * 80 + 5] ^= 1;  // chunk 1006, in the second batch
    sealed.bytes[7 * 80 + 5] ^= 1;
    stream::SpanSource records(sealed.bytes);
    stream::VectorSink opened;
    const auto result = pipeline.open(records, opened, counter_nonce, {}, 1000);
    ASSERT_TRUE(result.failed_chunk.has_value());
    EXPECT_EQ(*result.failed_chunk, 1006u);
    EXPECT_FALSE(result.reached_end);
    EXPECT_EQ(result.failed_record.size(), 80u);
    EXPECT_EQ(opened.bytes.size(), 4u * 64);  // the first batch only
}

TEST(FormatPipeline, OrWritesWhatOpenedBeforeTheFailure) {
    const AeadKey key = chacha_key();
    const stream::ChunkLayout layout{64, 4};
    const Bytes plain = pattern(64 * 10);
    for (unsigned threads : {1u, 3u}) {
        ChunkPipeline pipeline(key, layout, 0, threads);
        stream::SpanSource in(plain);
        stream::VectorSink sealed;
        pipeline.seal(in, sealed, counter_nonce, {});
        sealed.bytes[6 * 80 + 5] ^= 1;  // chunk 6, the third of the second batch
        stream::SpanSource records(sealed.bytes);
        stream::VectorSink opened;
        const auto result = pipeline.open(records, opened, counter_nonce, {}, 0,
                                          stream::FailedBatch::write_what_opened);
        ASSERT_TRUE(result.failed_chunk.has_value());
        EXPECT_EQ(*result.failed_chunk, 6u);
        EXPECT_EQ(result.chunks, 6u);
        EXPECT_EQ(opened.bytes, Bytes(plain.begin(), plain.begin() + 6 * 64));
    }
}

// engine/stream/hold_last.hpp: whole units while more follows, the last 1..unit bytes held.
TEST(FormatPipeline, HoldLastUnitKeepsTheLastUnitBack) {
    for (const std::size_t size : {0u, 1u, 63u, 64u, 65u, 128u, 129u, 640u, 1000u}) {
        SCOPED_TRACE(size);
        const Bytes input = pattern(size);
        stream::SpanSource in(input);
        stream::HoldLastUnit held(in, 64);
        Bytes served(input.size() + 256);
        std::size_t total = 0;
        for (;;) {  // as the pipeline reads: whole batches, until one comes back short
            const std::size_t n = read_fully(held, served.data() + total, 256);
            total += n;
            if (n < 256) break;
        }
        const std::size_t last = size == 0 ? 0 : (size - 1) % 64 + 1;
        EXPECT_EQ(total, size - last);
        EXPECT_EQ(held.held().size(), last);
        EXPECT_EQ(held.units_served(), (size - last) / 64);
        Bytes joined(served.begin(), served.begin() + static_cast<std::ptrdiff_t>(total));
        joined.insert(joined.end(), held.held().begin(), held.held().end());
        EXPECT_EQ(joined, input);
    }
    Bytes buffer(10);
    stream::SpanSource in(buffer);
    stream::HoldLastUnit held(in, 64);
    EXPECT_THROW(held.read(buffer.data(), 10), Error);  // not a whole unit
}

TEST(FormatPipeline, OneGiBThroughEncryptStaysWithinAFewBatches) {
    constexpr std::uint64_t size = std::uint64_t{1} << 30;
    GeneratedSource in(size);
    WatchingSink out;
    auto options = options_for({key_file_secret(1)}, Suite::chacha20_poly1305, 16);
    options.size_hint = size;
    options.threads = 2;
    const std::size_t before = heap_in_use();
    warp_format::encrypt(in, out, options);
    EXPECT_EQ(out.bytes, header_size(1) + size + 16 * (size >> 16) + 40);
    // Every write is at most one batch of records; the heap grew by the batch buffers (2 MiB
    // per batch in flight: 5 with two threads) and small change, not by anything that scales
    // with the input.
    EXPECT_LE(out.largest_write, stream::layout_for(1 << 16).batch_record_bytes());
    EXPECT_LT(out.peak_heap - std::min(before, out.peak_heap), std::size_t{12} << 20);
}

}  // namespace
}  // namespace warp::formats::warp_format::test
