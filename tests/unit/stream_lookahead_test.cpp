// Deciding for a stream (engine/stream/lookahead.hpp): the look-ahead is read only when
// the decision depends on the size, stops at the crossover, and every byte it
// read reaches the pipeline exactly once, in order. Also the pipeline's larger buffer budget
// for backends that ask for big batches (a GPU).
#include <gtest/gtest.h>

#include <numeric>
#include <optional>
#include <vector>

#include "engine/aead_key.hpp"
#include "engine/registry.hpp"
#include "engine/scalar/scalar.hpp"
#include "engine/stream/chunk_pipeline.hpp"
#include "engine/stream/memory_io.hpp"
#include "engine/stream/lookahead.hpp"

namespace warp::stream {
namespace {

std::vector<std::uint8_t> counting_bytes(std::size_t n) {
    std::vector<std::uint8_t> bytes(n);
    std::iota(bytes.begin(), bytes.end(), std::uint8_t{0});
    return bytes;
}

// Everything left in `source`, read in pieces of `piece` bytes.
std::vector<std::uint8_t> drain(ByteSource& source, std::size_t piece) {
    std::vector<std::uint8_t> out;
    std::vector<std::uint8_t> buffer(piece);
    while (const std::size_t n = source.read(buffer.data(), buffer.size()))
        out.insert(out.end(), buffer.begin(), buffer.begin() + static_cast<std::ptrdiff_t>(n));
    return out;
}

// Restores the built-in defaults when a test that installs a model ends, however it ends.
struct InstalledModelGuard {
    ~InstalledModelGuard() { install_cost_model(builtin_cost_model()); }
};

// The usable AES-GCM backend other than scalar with the most throughput, if any (x86 or arm).
const Backend* hardware_aes_gcm() {
    for (const Backend* b : usable_backends())
        if (b->aes_gcm != nullptr && b->name != "scalar" && b->open_device == nullptr) return b;
    return nullptr;
}

TEST(LookaheadSource, ReplaysThenReadsOnWithFullReads) {
    const std::vector<std::uint8_t> input = counting_bytes(1000);
    for (std::size_t limit : {0, 1, 999, 1000, 1001, 4000})
        for (std::size_t piece : {1, 7, 300, 5000}) {
            stream::SpanSource inner(input);
            LookaheadSource source(inner, limit);
            EXPECT_EQ(source.ended(), limit > input.size()) << limit;
            EXPECT_EQ(source.buffered(), std::min(limit, input.size()));
            EXPECT_EQ(inner.position(), std::min(limit, input.size()));
            EXPECT_EQ(drain(source, piece), input) << "limit " << limit << " piece " << piece;
        }
}

TEST(LookaheadSource, AReadAcrossTheReplayedPartIsFull) {
    const std::vector<std::uint8_t> input = counting_bytes(100);
    stream::SpanSource inner(input);
    LookaheadSource source(inner, 10);
    std::vector<std::uint8_t> first(60);
    ASSERT_EQ(source.read(first.data(), first.size()), 60u);  // 10 replayed + 50 read on
    EXPECT_TRUE(std::equal(first.begin(), first.end(), input.begin()));
}

TEST(StreamSelection, NoLookaheadWhenAutoNeverChanges) {
    InstalledModelGuard guard;
    CostModel model;
    model.set({"scalar", Aead::aes_gcm, 100, 1, CostSource::calibrated});
    install_cost_model(model);  // only one entry: table order decides at every size
    EXPECT_EQ(lookahead_bytes(Aead::aes_gcm, {}), 0u);

    const std::vector<std::uint8_t> input = counting_bytes(5000);
    stream::SpanSource inner(input);
    std::optional<LookaheadSource> lookahead;
    const StreamSelection chosen =
        select_for_stream(Aead::aes_gcm, {}, std::nullopt, inner, lookahead);
    EXPECT_FALSE(lookahead.has_value());
    EXPECT_EQ(chosen.source, &inner);
    EXPECT_EQ(inner.position(), 0u);
}

// A model in which scalar wins below 10,000 bytes and the hardware backend above: a stream
// shorter than that is sealed by scalar, a longer one by the hardware backend, and the
// look-ahead reads exactly up to the crossover.
TEST(StreamSelection, AStreamIsJudgedByWhatArrivedBeforeTheCrossover) {
    InstalledModelGuard guard;
    if (hardware_aes_gcm() == nullptr) {
        // Scalar is the only AES-GCM backend here: auto cannot change with the size.
        EXPECT_EQ(lookahead_bytes(Aead::aes_gcm, {}), 0u);
        return;
    }
    CostModel model = builtin_cost_model();
    model.set({"scalar", Aead::aes_gcm, 0, 1, CostSource::calibrated});
    for (const Backend* b : usable_backends())
        if (b->aes_gcm != nullptr && b->name != "scalar")
            model.set({std::string(b->name), Aead::aes_gcm, 5000, 2, CostSource::calibrated});
    install_cost_model(model);
    // 0 + n/1 vs 5000 + n/2: equal at n = 10,000, where the tie goes to the hardware backend
    // (earlier in the table).
    ASSERT_EQ(lookahead_bytes(Aead::aes_gcm, {}), 10'000u);

    for (std::size_t size : {0, 1, 9'999, 10'000, 10'001, 50'000}) {
        const std::vector<std::uint8_t> input = counting_bytes(size);
        stream::SpanSource inner(input);
        std::optional<LookaheadSource> lookahead;
        const StreamSelection chosen =
            select_for_stream(Aead::aes_gcm, {}, std::nullopt, inner, lookahead);
        ASSERT_TRUE(lookahead.has_value());
        EXPECT_EQ(chosen.source, &*lookahead);
        EXPECT_EQ(inner.position(), std::min<std::size_t>(size, 10'000)) << size;
        const AeadImpl* expected =
            size < 10'000 ? &scalar::kAesGcm
                          : select(Aead::aes_gcm, SizeHint::exactly(1 << 30)).impl;
        EXPECT_EQ(chosen.selection.impl, expected) << size;
        // A stream that did not end within the look-ahead is "at least" that long.
        EXPECT_NE(chosen.selection.reason.find(size < 10'000 ? "for " + std::to_string(size) +
                                                                   " bytes"
                                                             : std::string("at least 10000")),
                  std::string::npos)
            << chosen.selection.reason;
        EXPECT_EQ(drain(*chosen.source, 4096), input) << size;
    }
}

TEST(StreamSelection, AKnownSizeOrOneForcedBackendReadsNothingAhead) {
    const std::vector<std::uint8_t> input = counting_bytes(100);
    stream::SpanSource inner(input);
    std::optional<LookaheadSource> lookahead;
    const Backend& scalar = find_backend("scalar");
    StreamSelection chosen =
        select_for_stream(Aead::aes_gcm, &scalar, std::nullopt, inner, lookahead);
    EXPECT_EQ(chosen.selection.impl, &scalar::kAesGcm);
    chosen = select_for_stream(Aead::aes_gcm, {}, 100, inner, lookahead);
    EXPECT_EQ(chosen.selection.impl, select(Aead::aes_gcm, SizeHint::exactly(100)).impl);
    EXPECT_FALSE(lookahead.has_value());
    EXPECT_EQ(inner.position(), 0u);
}

// A backend that asks for 8 MiB batches still gets two workers (reading and writing overlap
// its calls); a CPU backend with chunks that large gets one, as before.
TEST(PipelineBudget, BigBatchBackendsGetTwoWorkers) {
    AeadImpl big_batches = scalar::kAesGcm;
    big_batches.batch_bytes = std::size_t{8} << 20;
    const std::array<std::uint8_t, 32> key{};
    const AeadKey gpu_like(big_batches, key);
    const AeadKey cpu(scalar::kAesGcm, key);
    const stream::ChunkLayout layout = stream::layout_for(gpu_like, 1 << 16);
    EXPECT_EQ(layout.batch_plaintext_bytes(), std::size_t{8} << 20);
    EXPECT_EQ(stream::layout_for(cpu, 1 << 16).batch_plaintext_bytes(),
              stream::kDefaultBatchBytes);
    EXPECT_EQ(stream::ChunkPipeline(gpu_like, layout, 0, 8).threads(), 2u);
    EXPECT_EQ(stream::ChunkPipeline(cpu, layout, 0, 8).threads(), 1u);
}

}  // namespace
}  // namespace warp::stream
