// The chunk pipeline with its batches carried by several threads in turns
// (engine/stream/chunk_pipeline.hpp, batches_in_turns.hpp): the same bytes and the same verdicts whatever the thread
// count (one thread runs the stages in turn: the reference), failures and exceptions from any
// stage stopping the run cleanly. Small, odd layouts
// make every input of a few hundred bytes span many batches.
#include <gtest/gtest.h>

#include <string>

#include "engine/aead_key.hpp"
#include "engine/error.hpp"
#include "engine/registry.hpp"
#include "engine/selection.hpp"
#include "engine/stream/chunk_pipeline.hpp"
#include "engine/stream/thread_count.hpp"
#include "formats/warp/constants.hpp"
#include "tests/formats/format_fixtures.hpp"

namespace warp::formats::warp_format::test {
namespace {

using stream::ChunkPipeline;

const std::array<std::uint8_t, 32> kKey = {9, 8, 7, 6, 5, 4, 3, 2, 1};
constexpr stream::ChunkLayout kLayout{100, 3};  // 300 plaintext bytes, 348 of records a batch
constexpr std::size_t kTail = 7;
constexpr unsigned kThreadCounts[] = {1, 2, 3, 8};

AeadKey gcm_key() { return AeadKey(*select(Aead::aes_gcm, SizeHint::exactly(1 << 20)).impl, kKey); }

struct Sealed {
    Bytes bytes;
    Bytes observed;
    std::uint64_t chunks = 0;
};

Sealed seal(const AeadKey& key, const Bytes& plain, unsigned threads) {
    ChunkPipeline pipeline(key, kLayout, 0, threads);
    stream::SpanSource in(plain);
    stream::VectorSink out;
    Sealed sealed;
    sealed.chunks = pipeline
                        .seal(in, out, counter_nonce,
                              [&](std::span<const std::uint8_t> b) {
                                  sealed.observed.insert(sealed.observed.end(), b.begin(), b.end());
                              })
                        .chunks;
    sealed.bytes = std::move(out.bytes);
    return sealed;
}

// Everything open() reports, as plain values, so that runs can be compared.
struct Opened {
    Bytes written;
    Bytes observed;
    std::uint64_t chunks = 0, plaintext_bytes = 0;
    std::optional<std::uint64_t> failed_chunk;
    Bytes failed_record, final_segment, tail;
    std::uint64_t final_segment_index = 0;
    bool reached_end = false, malformed = false;

    bool operator==(const Opened&) const = default;
};

Opened open(const AeadKey& key, const Bytes& input, unsigned threads) {
    ChunkPipeline pipeline(key, kLayout, kTail, threads);
    stream::SpanSource in(input);
    stream::VectorSink out;
    Opened o;
    const auto s = pipeline.open(in, out, counter_nonce, [&](std::span<const std::uint8_t> b) {
        o.observed.insert(o.observed.end(), b.begin(), b.end());
    });
    o.written = std::move(out.bytes);
    o.chunks = s.chunks;
    o.plaintext_bytes = s.plaintext_bytes;
    o.failed_chunk = s.failed_chunk;
    o.failed_record.assign(s.failed_record.begin(), s.failed_record.end());
    o.final_segment.assign(s.final_segment.begin(), s.final_segment.end());
    o.tail.assign(s.tail.begin(), s.tail.end());
    o.final_segment_index = s.final_segment_index;
    o.reached_end = s.reached_end;
    o.malformed = s.malformed_last_record;
    return o;
}

TEST(StreamThreads, SameRecordsAndSamePlaintextForEveryThreadCount) {
    const AeadKey key = gcm_key();
    for (std::size_t size : {0u, 1u, 299u, 300u, 301u, 600u, 900u, 1001u, 4567u}) {
        const Bytes plain = pattern(size, static_cast<std::uint32_t>(size));
        const Sealed reference = seal(key, plain, 1);
        EXPECT_EQ(reference.observed, plain);
        for (unsigned threads : kThreadCounts) {
            const Sealed sealed = seal(key, plain, threads);
            EXPECT_EQ(sealed.bytes, reference.bytes) << size << " bytes, " << threads << " threads";
            EXPECT_EQ(sealed.observed, plain);

            Bytes input = sealed.bytes;
            const Bytes tail = {1, 2, 3, 4, 5, 6, 7};
            input.insert(input.end(), tail.begin(), tail.end());
            const Opened opened = open(key, input, threads);
            EXPECT_EQ(opened.written, plain) << size << " bytes, " << threads << " threads";
            EXPECT_EQ(opened.observed, plain);
            EXPECT_FALSE(opened.failed_chunk.has_value());
            EXPECT_TRUE(opened.reached_end);
            EXPECT_EQ(opened.tail, tail);
            EXPECT_EQ(opened.chunks, reference.chunks);
        }
    }
}

// Every single-byte change and every truncation of a 10-batch input: the verdict, what was
// written and every reported span are the same for every thread count.
TEST(StreamThreads, SameVerdictForEveryDamageWhateverTheThreadCount) {
    const AeadKey key = gcm_key();
    const Bytes plain = pattern(2950, 5);
    Bytes good = seal(key, plain, 1).bytes;
    good.insert(good.end(), kTail, 0xab);

    std::vector<Bytes> inputs;
    for (std::size_t at = 0; at < good.size(); at += 13) {
        Bytes flipped = good;
        flipped[at] ^= 0x20;
        inputs.push_back(std::move(flipped));
    }
    for (std::size_t len = 0; len < good.size(); len += 11)
        inputs.emplace_back(good.begin(), good.begin() + static_cast<long>(len));

    for (const Bytes& input : inputs) {
        const Opened reference = open(key, input, 1);
        // Whatever the damage, what was written is a prefix of the plaintext, in whole batches.
        ASSERT_LE(reference.written.size(), plain.size());
        EXPECT_TRUE(std::equal(reference.written.begin(), reference.written.end(), plain.begin()));
        EXPECT_EQ(reference.written, reference.observed);
        for (unsigned threads : {2u, 3u, 8u})
            EXPECT_EQ(open(key, input, threads), reference) << input.size() << " bytes";
    }
}

TEST(StreamThreads, FailureInALaterBatchWritesEveryBatchBeforeIt) {
    const AeadKey key = gcm_key();
    const Bytes plain = pattern(3000, 7);
    Bytes input = seal(key, plain, 2).bytes;
    input.insert(input.end(), kTail, 0);
    input[20 * 116 + 3] ^= 1;  // chunk 20, the third chunk of batch 6
    for (unsigned threads : kThreadCounts) {
        const Opened opened = open(key, input, threads);
        ASSERT_TRUE(opened.failed_chunk.has_value());
        EXPECT_EQ(*opened.failed_chunk, 18u + 2);
        EXPECT_EQ(opened.written, Bytes(plain.begin(), plain.begin() + 6 * 300));
        EXPECT_EQ(opened.failed_record.size(), 116u);
        EXPECT_FALSE(opened.reached_end);
    }
}

// A sink or source that fails part-way: the error comes out of seal/open, nothing hangs.
class FailingSink final : public ByteSink {
public:
    explicit FailingSink(int fail_at) : left_(fail_at) {}
    void write(const std::uint8_t*, std::size_t) override {
        if (--left_ == 0) throw Error(ErrorCause::io, "disk full");
    }

private:
    int left_;
};

class FailingSource final : public ByteSource {
public:
    explicit FailingSource(std::size_t fail_after) : left_(fail_after) {}
    std::size_t read(std::uint8_t* buf, std::size_t len) override {
        if (left_ == 0) throw Error(ErrorCause::io, "read error");
        const std::size_t n = std::min(len, left_);
        std::fill_n(buf, n, 0x5a);
        left_ -= n;
        return n;
    }

private:
    std::size_t left_;
};

TEST(StreamThreads, AnErrorInAnyStageIsThrownAndStopsTheOthers) {
    const AeadKey key = gcm_key();
    const Bytes plain = pattern(5000, 3);
    for (unsigned threads : kThreadCounts) {
        for (int fail_at : {1, 2, 5}) {
            ChunkPipeline pipeline(key, kLayout, 0, threads);
            stream::SpanSource in(plain);
            FailingSink out(fail_at);
            EXPECT_THROW(pipeline.seal(in, out, counter_nonce, {}), Error);
        }
        for (std::size_t fail_after : {0u, 100u, 350u, 2000u}) {
            ChunkPipeline pipeline(key, kLayout, 0, threads);
            FailingSource in(fail_after);
            stream::DiscardSink out;
            EXPECT_THROW(pipeline.seal(in, out, counter_nonce, {}), Error);
        }
        // The observer (a format's hash) throwing from the writer stage of open.
        Bytes input = seal(key, plain, threads).bytes;
        input.insert(input.end(), kTail, 0);
        ChunkPipeline pipeline(key, kLayout, kTail, threads);
        stream::SpanSource in(input);
        stream::DiscardSink out;
        int batches = 0;
        EXPECT_THROW(pipeline.open(in, out, counter_nonce,
                                   [&](std::span<const std::uint8_t>) {
                                       if (++batches == 3) throw Error(ErrorCause::io, "observer");
                                   }),
                     Error);
    }
}

TEST(StreamThreads, APipelineCanBeReusedAfterAFailure) {
    const AeadKey key = gcm_key();
    const Bytes plain = pattern(2000, 11);
    ChunkPipeline pipeline(key, kLayout, 0, 3);
    {
        stream::SpanSource in(plain);
        FailingSink out(2);
        EXPECT_THROW(pipeline.seal(in, out, counter_nonce, {}), Error);
    }
    stream::SpanSource in(plain);
    stream::VectorSink out;
    pipeline.seal(in, out, counter_nonce, {});
    EXPECT_EQ(out.bytes, seal(key, plain, 1).bytes);
}

TEST(StreamThreads, BuffersGrowWithThreadsNotWithInput) {
    const AeadKey key = gcm_key();
    const std::size_t one = ChunkPipeline(key, kLayout, 0, 1).buffer_bytes();
    EXPECT_EQ(ChunkPipeline(key, kLayout, 0, 2).buffer_bytes(), 2 * one);
    EXPECT_EQ(ChunkPipeline(key, kLayout, 0, 8).buffer_bytes(), 8 * one);
    EXPECT_EQ(ChunkPipeline(key, kLayout, 0, 8).threads(), 8u);
    EXPECT_GE(ChunkPipeline(key, kLayout, 0, 0).threads(), 1u);  // one per CPU
    EXPECT_GE(stream::resolve_thread_count(0), 1u);
    // At the default layout, just over 2 MiB of buffers a batch: 24 MiB hold 11 batches,
    // one for each of 11 threads.
    const auto layout = stream::layout_for(1 << 16);
    const std::size_t batch = layout.batch_plaintext_bytes() + layout.batch_record_bytes();
    EXPECT_EQ(stream::usable_threads(64, batch), 11u);
    EXPECT_EQ(stream::usable_threads(4, batch), 4u);
    EXPECT_EQ(ChunkPipeline(key, layout, 0, 64).threads(), 11u);
    EXPECT_LE(ChunkPipeline(key, layout, 0, 64).buffer_bytes(),
              stream::kMaxBufferBytes + 16 * 12 * 64);
    // Chunks so large that two batches do not fit: one thread.
    EXPECT_EQ(stream::usable_threads(8, std::size_t{13} << 20), 1u);
    EXPECT_EQ(stream::usable_threads(8, std::size_t{12} << 20), 2u);
    EXPECT_EQ(stream::resolve_thread_count(5), 5u);
}

// Through the format: with the same randomness, a file of several batches is the same bytes
// whatever --threads says, and decrypts with any thread count.
TEST(StreamThreads, SameFileForEveryThreadCount) {
    const Bytes plain = pattern((7 << 20) / 2, 13);  // 3.5 batches
    std::optional<Bytes> reference;
    for (unsigned threads : {1u, 2u, 5u}) {
        auto options = options_for({key_file_secret(4)});
        options.threads = threads;
        options.random = [](std::uint8_t* out, std::size_t len) { std::fill_n(out, len, 0x42); };
        const Bytes file = encrypt_bytes(plain, options);
        if (!reference) reference = file;
        EXPECT_EQ(file, *reference) << threads << " threads";

        Options dopt;
        dopt.identities.push_back(key_file_secret(4));
        dopt.threads = 6 - threads;
        stream::SpanSource in(file);
        stream::VectorSink out;
        EXPECT_EQ(warp_format::decrypt(in, out, dopt).plaintext_bytes, plain.size());
        EXPECT_EQ(out.bytes, plain);
    }
}

}  // namespace
}  // namespace warp::formats::warp_format::test
