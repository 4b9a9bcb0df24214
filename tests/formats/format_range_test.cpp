// Range decryption (formats/file.hpp decrypt_range; SPEC 6 "Lengths follow by arithmetic"):
// any range equals the slice of the plaintext, and only what it reads must be authentic.
#include <gtest/gtest.h>

#include "formats/warp/constants.hpp"
#include "tests/formats/format_fixtures.hpp"

namespace warp::formats::warp_format::test {
namespace {

constexpr unsigned kLog2 = 12;
constexpr std::size_t kChunk = std::size_t{1} << kLog2;
constexpr std::size_t kRecord = kChunk + kTagSize;

// Counts the bytes read, to show a range reads little.
class CountingRandomAccess final : public RandomAccessSource {
public:
    explicit CountingRandomAccess(const Bytes& bytes) : inner_(bytes) {}
    std::uint64_t size() const override { return inner_.size(); }
    void read_at(std::uint64_t offset, std::uint8_t* buf, std::size_t len) const override {
        bytes_read += len;
        inner_.read_at(offset, buf, len);
    }
    mutable std::uint64_t bytes_read = 0;

private:
    stream::SpanRandomAccess inner_;
};

Bytes range_of(const Bytes& file, std::uint64_t offset, std::uint64_t length,
               Result* result = nullptr) {
    Options options;
    options.identities.push_back(key_file_secret(8));
    stream::SpanRandomAccess in(file);
    stream::VectorSink out;
    const Result r = warp_format::decrypt_range(in, out, options, offset, length);
    if (result) *result = r;
    return out.bytes;
}

Bytes expected_slice(const Bytes& plain, std::uint64_t offset, std::uint64_t length) {
    const std::uint64_t begin = std::min<std::uint64_t>(offset, plain.size());
    const std::uint64_t end = begin + std::min<std::uint64_t>(length, plain.size() - begin);
    return Bytes(plain.begin() + static_cast<std::ptrdiff_t>(begin),
                 plain.begin() + static_cast<std::ptrdiff_t>(end));
}

TEST(FormatRange, EveryRangeAtChunkEdgesIsTheSlice) {
    for (std::size_t size : {std::size_t{0}, std::size_t{1}, kChunk, 3 * kChunk + 77}) {
        const Bytes plain = pattern(size, 3);
        const Bytes file = encrypt_bytes(plain, options_for({key_file_secret(8)},
                                                            Suite::aes_256_gcm, kLog2));
        std::vector<std::uint64_t> points = {0, 1};
        for (std::uint64_t c = kChunk; c <= size + kChunk; c += kChunk)
            for (std::uint64_t d : {c - 1, c, c + 1}) points.push_back(d);
        points.push_back(size);
        for (std::uint64_t offset : points)
            for (std::uint64_t end : points) {
                if (end < offset) continue;
                SCOPED_TRACE("size " + std::to_string(size) + " [" + std::to_string(offset) +
                             ", " + std::to_string(end) + ")");
                Result result;
                const Bytes got = range_of(file, offset, end - offset, &result);
                EXPECT_EQ(got, expected_slice(plain, offset, end - offset));
                EXPECT_EQ(result.plaintext_bytes, got.size());
            }
    }
}

TEST(FormatRange, ClampsToThePlaintext) {
    const Bytes plain = pattern(10000);
    const Bytes file = encrypt_bytes(plain, options_for({key_file_secret(8)}));
    EXPECT_EQ(range_of(file, 9000, ~std::uint64_t{0}), expected_slice(plain, 9000, 1000));
    EXPECT_TRUE(range_of(file, 20000, 5).empty());
    EXPECT_TRUE(range_of(file, ~std::uint64_t{0}, ~std::uint64_t{0}).empty());
}

TEST(FormatRange, ReadsOnlyTheHeaderTheChunksAndTheTrailer) {
    const Bytes plain = pattern(100 * kChunk);
    const Bytes file = encrypt_bytes(plain, options_for({key_file_secret(8)}));
    CountingRandomAccess in(file);
    Options options;
    options.identities.push_back(key_file_secret(8));
    stream::VectorSink out;
    warp_format::decrypt_range(in, out, options, 50 * kChunk + 10, kChunk);  // chunks 50 and 51
    EXPECT_EQ(out.bytes, expected_slice(plain, 50 * kChunk + 10, kChunk));
    EXPECT_LE(in.bytes_read, header_size(1) + 2 * kRecord + kTrailerChunkSize);
}

TEST(FormatRange, DamageInsideTheRangeIsCaughtOutsideNot) {
    const Bytes plain = pattern(10 * kChunk);
    Bytes file = encrypt_bytes(plain, options_for({key_file_secret(8)}));
    file[header_size(1) + 5 * kRecord + 3] ^= 1;  // chunk 5
    EXPECT_EQ(range_of(file, 0, 5 * kChunk), expected_slice(plain, 0, 5 * kChunk));
    expect_error([&] { range_of(file, 5 * kChunk - 1, 2); }, ErrorCause::corrupted,
                 "chunk 5 failed to authenticate");
}

TEST(FormatRange, TheTrailerIsAlwaysChecked) {
    const Bytes plain = pattern(3 * kChunk + 5);
    const Bytes file = encrypt_bytes(plain, options_for({key_file_secret(8)}));
    Bytes bad = file;
    bad[bad.size() - 1] ^= 1;
    expect_error([&] { range_of(bad, 0, 10); }, ErrorCause::corrupted, "final chunk");
    // Cut at a chunk boundary: truncated, named as decrypt names it.
    const Bytes cut(file.begin(), file.begin() + static_cast<std::ptrdiff_t>(header_size(1) +
                                                                            2 * kRecord));
    expect_error([&] { range_of(cut, 0, 10); }, ErrorCause::truncated,
                 "input ends after chunk 1, before the final chunk");
    const Bytes header_only(file.begin(),
                            file.begin() + static_cast<std::ptrdiff_t>(header_size(1)));
    expect_error([&] { range_of(header_only, 0, 10); }, ErrorCause::truncated);
    Bytes appended = file;
    appended.push_back(0);
    expect_error([&] { range_of(appended, 0, 10); }, ErrorCause::corrupted);
}

}  // namespace
}  // namespace warp::formats::warp_format::test
