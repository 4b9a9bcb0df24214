// Where the chunk pipeline puts the bytes it reads and writes (engine/stream/placed_buffer.hpp):
// every bulk read lands, and every bulk write starts, at an address congruent to its file
// offset modulo 64, whatever the offset the stream starts at, the layout, the thread count,
// the held-back tail and the wrappers the formats put around a file (HoldLastUnit, the
// look-ahead). And the wrappers report the offsets of the file below them.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "engine/aead_key.hpp"
#include "engine/registry.hpp"
#include "engine/selection.hpp"
#include "engine/stream/chunk_pipeline.hpp"
#include "engine/stream/hold_last.hpp"
#include "engine/stream/lookahead.hpp"
#include "engine/stream/memory_io.hpp"
#include "engine/stream/placed_buffer.hpp"
#include "tests/formats/format_fixtures.hpp"

namespace warp::formats::warp_format::test {
namespace {

using stream::kPlacementModulus;

const std::array<std::uint8_t, 32> kKey = {4, 4, 4, 4, 2};
constexpr unsigned kThreadCounts[] = {1, 3};
// Reads and writes at least this long are the pipeline's batches; shorter ones are a held
// byte of look-ahead or a header, which nothing places.
constexpr std::size_t kBulk = 200;

AeadKey chacha_key() {
    return AeadKey(*select(Aead::chacha20_poly1305, SizeHint::exactly(1 << 20)).impl, kKey);
}

std::size_t misplacement(const std::uint8_t* address, std::uint64_t file_offset) {
    return static_cast<std::size_t>((reinterpret_cast<std::uintptr_t>(address) - file_offset) %
                                    kPlacementModulus);
}

// A file's bytes from `start` on, remembering how far from its file offset each bulk read
// landed.
class FileSource final : public ByteSource {
public:
    FileSource(const Bytes& bytes, std::uint64_t start) : bytes_(bytes), start_(start) {}
    std::size_t read(std::uint8_t* buf, std::size_t len) override {
        const std::size_t n = std::min(len, bytes_.size() - served_);
        if (n >= kBulk) misplaced.push_back(misplacement(buf, position()));
        std::copy_n(bytes_.begin() + static_cast<std::ptrdiff_t>(served_), n, buf);
        served_ += n;
        return n;
    }
    std::uint64_t position() const noexcept override { return start_ + served_; }

    std::vector<std::size_t> misplaced;

private:
    const Bytes& bytes_;
    std::uint64_t start_;
    std::size_t served_ = 0;
};

class FileSink final : public ByteSink {
public:
    explicit FileSink(std::uint64_t start) : start_(start) {}
    void write(const std::uint8_t* buf, std::size_t len) override {
        if (len >= kBulk) misplaced.push_back(misplacement(buf, position()));
        bytes.insert(bytes.end(), buf, buf + len);
    }
    std::uint64_t position() const noexcept override { return start_ + bytes.size(); }

    Bytes bytes;
    std::vector<std::size_t> misplaced;

private:
    std::uint64_t start_;
};

void expect_all_placed(const std::vector<std::size_t>& misplaced, const char* what) {
    EXPECT_FALSE(misplaced.empty()) << what;
    for (std::size_t m : misplaced) EXPECT_EQ(m, 0u) << what;
}

TEST(StreamPlacement, PlacedBufferStartsAtTheOffsetsResidueAndRemembersWhatItHeld) {
    stream::PlacedBuffer buffer(1000);
    for (std::uint64_t offset : {0u, 1u, 16u, 63u, 64u, 65u, 4097u, 123457u}) {
        std::uint8_t* data = buffer.place(offset);
        EXPECT_EQ(data, buffer.data());
        EXPECT_EQ(misplacement(data, offset), 0u) << offset;
        EXPECT_LE(data + 1000, buffer.base() + 1000 + kPlacementModulus);
    }
    buffer.place(10);
    buffer.mark_used(100);
    buffer.place(3);
    buffer.mark_used(50);
    EXPECT_EQ(buffer.touched(), 110u);
}

TEST(StreamPlacement, SealAndOpenPlaceEveryBatchAtItsFileOffset) {
    const AeadKey key = chacha_key();
    const Bytes plain = pattern(7000, 5);
    for (const stream::ChunkLayout layout : {stream::ChunkLayout{100, 3}, {257, 4}, {1024, 2}}) {
        for (std::size_t tail : {std::size_t{0}, std::size_t{7}}) {
            for (unsigned threads : kThreadCounts) {
                SCOPED_TRACE(testing::Message() << "chunk " << layout.chunk_size << " x "
                                                << layout.chunks_per_batch << ", tail " << tail
                                                << ", threads " << threads);
                // Headers of odd lengths before the payload, in the input and the output.
                FileSource in(plain, 37);
                FileSink sealed(91);
                stream::ChunkPipeline sealer(key, layout, 0, threads);
                sealer.seal(in, sealed, counter_nonce, {});
                expect_all_placed(in.misplaced, "seal's reads");
                expect_all_placed(sealed.misplaced, "seal's writes");

                Bytes records = sealed.bytes;
                records.insert(records.end(), tail, 0);
                FileSource ciphertext(records, 1234);
                FileSink opened(5);
                stream::ChunkPipeline opener(key, layout, tail, threads);
                const stream::OpenSummary summary =
                    opener.open(ciphertext, opened, counter_nonce, {});
                EXPECT_FALSE(summary.failed_chunk);
                EXPECT_EQ(opened.bytes, plain);
                expect_all_placed(ciphertext.misplaced, "open's reads");
                expect_all_placed(opened.misplaced, "open's writes");
            }
        }
    }
}

// age's payload goes through HoldLastUnit, which serves a byte of look-ahead first.
TEST(StreamPlacement, ThroughHoldLastUnitTheReadsStillLandAtTheirFileOffsets) {
    const AeadKey key = chacha_key();
    const Bytes plain = pattern(5000, 9);
    constexpr stream::ChunkLayout layout{128, 4};
    for (unsigned threads : kThreadCounts) {
        FileSource file(plain, 200);
        stream::HoldLastUnit body(file, layout.chunk_size);
        FileSink out(0);
        stream::ChunkPipeline(key, layout, 0, threads).seal(body, out, counter_nonce, {});
        expect_all_placed(file.misplaced, "reads below HoldLastUnit");
    }
}

TEST(StreamPlacement, WrappersReportTheOffsetOfTheirNextByteInTheFileBelow) {
    const Bytes bytes = pattern(1000, 1);
    FileSource file(bytes, 50);
    stream::HoldLastUnit held(file, 100);
    EXPECT_EQ(held.position(), 50u);
    std::vector<std::uint8_t> buf(300);
    ASSERT_EQ(held.read(buf.data(), 300), 300u);  // and one byte of look-ahead
    EXPECT_EQ(file.position(), 50u + 301u);
    EXPECT_EQ(held.position(), 50u + 300u);

    FileSource file2(bytes, 7);
    stream::LookaheadSource ahead(file2, 400);
    EXPECT_EQ(ahead.position(), 7u);
    ASSERT_EQ(ahead.read(buf.data(), 150), 150u);
    EXPECT_EQ(ahead.position(), 7u + 150u);
    ASSERT_EQ(ahead.read(buf.data(), 300), 300u);  // replays the rest, then reads on
    EXPECT_EQ(ahead.position(), 7u + 450u);
}

}  // namespace
}  // namespace warp::formats::warp_format::test
