// `decrypt --offset N --length M`: the slice equals the plaintext's, at and around the chunk
// edges, spanning chunks and past the end; it authenticates the chunks it reads and the
// trailer; non-seekable input is refused.
#include <string>

#include "tests/cli/cli_fixture.hpp"

namespace warp::clitest {
namespace {

constexpr std::size_t chunk = 65536;
constexpr std::size_t plaintext_size = 3 * chunk + 3000;  // 3 full chunks and a short one

class Range : public CliTest {
protected:
    void SetUp() override {
        CliTest::SetUp();
        key_ = make_key("r.key");
        plaintext_ = pattern(plaintext_size, 99);
        sealed_ = make_file("r.warp", encrypt_with_key(key_, plaintext_));
    }

    Outcome slice(std::uint64_t offset, std::uint64_t length, const fs::path& file) const {
        return run({"decrypt", file.string(), "-k", key_.string(), "-o", "-", "--offset",
                    std::to_string(offset), "--length", std::to_string(length)});
    }

    // The plaintext slice the contract promises: [offset, offset + length) clamped.
    std::string expected(std::uint64_t offset, std::uint64_t length) const {
        if (offset >= plaintext_.size()) return {};
        return plaintext_.substr(offset, length);
    }

    fs::path key_;
    std::string plaintext_;
    fs::path sealed_;
};

TEST_F(Range, SlicesAtChunkEdges) {
    const std::uint64_t last = plaintext_size;
    const std::vector<std::pair<std::uint64_t, std::uint64_t>> cases = {
        {0, 1},           {0, 100},          {0, chunk},           {chunk - 1, 1},
        {chunk - 1, 2},   {chunk, 1},        {chunk, chunk},       {chunk + 1, 10},
        {chunk - 1, chunk + 2},  // touches three chunks
        {1, 3 * chunk},          // from the first chunk into the short last one
        {3 * chunk, 3000},       // exactly the short last chunk
        {last - 1, 1},    {last - 1, 1000},  // clamped at the end
        {0, last},        {0, last + 12345}, {100, 0},
        {last, 10},       {last + 1000, 5},  // past the end: nothing
    };
    for (const auto& [offset, length] : cases) {
        const auto outcome = slice(offset, length, sealed_);
        ASSERT_EQ(outcome.exit_code, 0) << "offset " << offset << " length " << length << ": "
                                        << describe(outcome);
        EXPECT_TRUE(outcome.out == expected(offset, length))
            << "offset " << offset << " length " << length << ": got " << outcome.out.size()
            << " bytes, expected " << expected(offset, length).size();
    }
}

TEST_F(Range, SliceToAFile) {
    const auto out = path("slice.bin");
    const auto outcome = run({"decrypt", sealed_.string(), "-k", key_.string(), "-o",
                              out.string(), "--offset", "65530", "--length", "70000"});
    ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
    EXPECT_TRUE(read_file(out) == expected(65530, 70000));
}

TEST_F(Range, EmptyPlaintextHasNoSlice) {
    const auto empty = make_file("e.warp", encrypt_with_key(key_, ""));
    const auto outcome = slice(0, 10, empty);
    ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
    EXPECT_TRUE(outcome.out.empty());
}

TEST_F(Range, ReadsOnlyTheChunksItNeedsButAuthenticatesThemAndTheTrailer) {
    const auto bytes = read_file(sealed_);
    const auto c = parse_container(bytes);
    ASSERT_EQ(c.data_chunks, 4u);

    // Damage chunk 2: a slice inside chunk 0 does not read it; a slice inside chunk 2 fails.
    auto damaged = bytes;
    damaged[c.chunk_offset(2) + 100] = static_cast<char>(damaged[c.chunk_offset(2) + 100] ^ 1);
    const auto file = make_file("d.warp", damaged);
    auto outcome = slice(10, 100, file);
    EXPECT_EQ(outcome.exit_code, 0) << "slice away from the damage: " << describe(outcome);
    EXPECT_TRUE(outcome.out == expected(10, 100));

    outcome = slice(2 * chunk + 5, 10, file);
    EXPECT_EQ(outcome.exit_code, 4) << "slice inside the damaged chunk: " << describe(outcome);
    EXPECT_TRUE(outcome.out.empty()) << "unauthenticated bytes released";

    // Damage the trailer: every slice fails, since the trailer is authenticated first.
    auto bad_trailer = bytes;
    bad_trailer[c.trailer_offset() + 3] = static_cast<char>(bad_trailer[c.trailer_offset() + 3] ^ 0x40);
    const auto trailer_file = make_file("t.warp", bad_trailer);
    outcome = slice(0, 10, trailer_file);
    EXPECT_EQ(outcome.exit_code, 4) << "damaged trailer: " << describe(outcome);
    EXPECT_TRUE(outcome.out.empty());
}

TEST_F(Range, WrongKeyIsRefused) {
    const auto stranger = make_key("stranger.key");
    const auto outcome = run({"decrypt", sealed_.string(), "-k", stranger.string(), "-o", "-",
                              "--offset", "0", "--length", "10"});
    EXPECT_EQ(outcome.exit_code, 3) << describe(outcome);
    EXPECT_TRUE(outcome.out.empty());
}

TEST_F(Range, NonSeekableInputIsAUsageError) {
    Command command;
    command.args = {"decrypt", "-k", key_.string(), "--offset", "10", "--length", "10"};
    command.stdin_bytes = read_file(sealed_);
    const auto outcome = run(command);
    EXPECT_EQ(outcome.exit_code, 2) << describe(outcome);
    EXPECT_TRUE(outcome.out.empty());
}

}  // namespace
}  // namespace warp::clitest
