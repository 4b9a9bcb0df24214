// The payload (SPEC 6) and what a reader rejects in it (SPEC 7, items 7 and 8): chunks
// tampered with, swapped, duplicated, dropped, cut and appended to, each with its cause.
#include <gtest/gtest.h>

#include "formats/warp/constants.hpp"
#include "tests/formats/format_fixtures.hpp"

namespace warp::formats::warp_format::test {
namespace {

constexpr unsigned kLog2 = 12;
constexpr std::size_t kChunk = std::size_t{1} << kLog2;
constexpr std::size_t kRecord = kChunk + kTagSize;
constexpr std::size_t kHeader = header_size(1);

struct Sample {
    Bytes plain;
    Bytes file;
    std::size_t data_chunks;
};

// `chunks` data chunks, the last holding `last` bytes.
Sample sample(std::size_t chunks, std::size_t last, Suite suite = Suite::aes_256_gcm) {
    Sample s;
    s.plain = pattern((chunks - 1) * kChunk + last, static_cast<std::uint32_t>(chunks + last));
    s.file = encrypt_bytes(s.plain, options_for({key_file_secret(5)}, suite, kLog2));
    s.data_chunks = chunks;
    return s;
}

std::size_t record_start(std::size_t index) { return kHeader + index * kRecord; }

Bytes open_file(const Bytes& file) { return decrypt_bytes(file, {key_file_secret(5)}); }

Bytes cut(const Bytes& file, std::size_t len) {
    return Bytes(file.begin(), file.begin() + static_cast<std::ptrdiff_t>(len));
}

Bytes erase(Bytes file, std::size_t at, std::size_t len) {
    file.erase(file.begin() + static_cast<std::ptrdiff_t>(at),
               file.begin() + static_cast<std::ptrdiff_t>(at + len));
    return file;
}

Bytes insert(Bytes file, std::size_t at, const Bytes& what) {
    file.insert(file.begin() + static_cast<std::ptrdiff_t>(at), what.begin(), what.end());
    return file;
}

Bytes slice(const Bytes& file, std::size_t at, std::size_t len) {
    return Bytes(file.begin() + static_cast<std::ptrdiff_t>(at),
                 file.begin() + static_cast<std::ptrdiff_t>(at + len));
}

TEST(FormatPayload, EveryFlippedByteNamesItsChunk) {
    const Sample s = sample(4, 100);
    for (std::size_t at = kHeader; at < s.file.size(); at += 37) {
        Bytes bad = s.file;
        bad[at] ^= 0x20;
        const std::size_t index = (at - kHeader) / kRecord;
        SCOPED_TRACE(at);
        if (at >= s.file.size() - kTrailerChunkSize)
            expect_error([&] { open_file(bad); }, ErrorCause::corrupted,
                         "the final chunk (chunk 4) failed to authenticate");
        else
            expect_error([&] { open_file(bad); }, ErrorCause::corrupted,
                         "chunk " + std::to_string(index) + " failed to authenticate");
    }
}

TEST(FormatPayload, SwappedDuplicatedDroppedChunks) {
    const Sample s = sample(5, kChunk);
    Bytes swapped = s.file;
    std::swap_ranges(swapped.begin() + static_cast<std::ptrdiff_t>(record_start(1)),
                     swapped.begin() + static_cast<std::ptrdiff_t>(record_start(2)),
                     swapped.begin() + static_cast<std::ptrdiff_t>(record_start(2)));
    expect_error([&] { open_file(swapped); }, ErrorCause::corrupted,
                 "chunk 1 failed to authenticate");

    const Bytes duplicated =
        insert(s.file, record_start(2), slice(s.file, record_start(1), kRecord));
    expect_error([&] { open_file(duplicated); }, ErrorCause::corrupted,
                 "chunk 2 failed to authenticate");

    const Bytes dropped = erase(s.file, record_start(3), kRecord);
    expect_error([&] { open_file(dropped); }, ErrorCause::corrupted,
                 "chunk 3 failed to authenticate");

    // Dropping the last data chunk: the trailer sits where chunk 4 should be.
    const Bytes dropped_last = erase(s.file, record_start(4), kRecord);
    expect_error([&] { open_file(dropped_last); }, ErrorCause::corrupted);

    // A chunk from another file with another key stream.
    const Sample other = sample(5, kChunk);
    Bytes foreign = s.file;
    std::copy_n(other.file.begin() + static_cast<std::ptrdiff_t>(record_start(2)), kRecord,
                foreign.begin() + static_cast<std::ptrdiff_t>(record_start(2)));
    expect_error([&] { open_file(foreign); }, ErrorCause::corrupted,
                 "chunk 2 failed to authenticate");
}

// Cutting the file after any data chunk is "truncated", whatever the last chunk's size.
TEST(FormatPayload, CutAtEveryChunkBoundaryIsTruncated) {
    for (std::size_t last : {std::size_t{1}, std::size_t{10}, std::size_t{23}, std::size_t{24},
                             std::size_t{25}, std::size_t{40}, std::size_t{41}, kChunk - 1,
                             kChunk})
        for (Suite suite : {Suite::aes_256_gcm, Suite::chacha20_poly1305}) {
            const Sample s = sample(4, last, suite);
            for (std::size_t kept = 0; kept <= s.data_chunks; ++kept) {
                const std::size_t len =
                    kept == s.data_chunks ? s.file.size() - kTrailerChunkSize
                                          : record_start(kept);
                SCOPED_TRACE("last " + std::to_string(last) + ", kept " + std::to_string(kept));
                expect_error([&] { open_file(cut(s.file, len)); }, ErrorCause::truncated,
                             kept == 0 ? std::string("after the header")
                                       : "truncated: input ends after chunk " +
                                             std::to_string(kept - 1) + ", before the final chunk");
            }
        }
}

TEST(FormatPayload, CutInsideAChunkIsCorruptedOrTruncated) {
    const Sample s = sample(3, 500);
    for (std::size_t len = kHeader + 1; len < s.file.size(); len += 97) {
        const Bytes bad = cut(s.file, len);
        try {
            open_file(bad);
            ADD_FAILURE() << "cut at " << len << " was accepted";
        } catch (const Error& e) {
            EXPECT_TRUE(e.cause() == ErrorCause::corrupted || e.cause() == ErrorCause::truncated)
                << len << ": " << e.what();
        }
    }
    // Inside the first 40 bytes of the payload: too short for even the final chunk.
    expect_error([&] { open_file(cut(s.file, kHeader + 20)); }, ErrorCause::truncated,
                 "shorter than the final chunk");
    // Inside the trailer.
    expect_error([&] { open_file(cut(s.file, s.file.size() - 1)); }, ErrorCause::corrupted);
}

TEST(FormatPayload, AppendedBytesAreCorrupted) {
    for (std::size_t last : {std::size_t{100}, kChunk})
        for (std::size_t extra : {std::size_t{1}, std::size_t{16}, std::size_t{17},
                                  std::size_t{40}, std::size_t{100}, kRecord, 3 * kRecord + 5,
                                  std::size_t{5} << 20}) {
            const Sample s = sample(3, last);
            SCOPED_TRACE("last " + std::to_string(last) + ", extra " + std::to_string(extra));
            expect_error([&] { open_file(insert(s.file, s.file.size(), pattern(extra, 9))); },
                         ErrorCause::corrupted);
        }
    // When the trailer starts a record, the reader can tell what happened.
    const Sample full = sample(3, kChunk);
    for (std::size_t extra : {std::size_t{1}, std::size_t{17}, std::size_t{100}, kRecord,
                              std::size_t{5} << 20})
        expect_error([&] { open_file(insert(full.file, full.file.size(), pattern(extra))); },
                     ErrorCause::corrupted, "trailing data after the final chunk");
    // A second copy of the trailer.
    const Sample empty = sample(1, 0);
    expect_error([&] { open_file(insert(empty.file, empty.file.size(),
                                        slice(empty.file, kHeader, kTrailerChunkSize))); },
                 ErrorCause::corrupted, "trailing data after the final chunk");
}

TEST(FormatPayload, TrailerMovedUpFails) {
    // The index is in the nonce: a trailer moved in place of the dropped last data chunk fails.
    const Sample s = sample(2, 50);
    const Bytes moved = erase(s.file, record_start(1), 50 + kTagSize);
    expect_error([&] { open_file(moved); }, ErrorCause::corrupted,
                 "the final chunk (chunk 1) failed to authenticate");
}

TEST(FormatPayload, MalformedLastRecordIsCorrupted) {
    // 1..16 bytes between the last full record and the trailer cannot be a chunk.
    const Sample s = sample(2, kChunk);
    for (std::size_t extra : {std::size_t{1}, std::size_t{16}}) {
        Bytes bad = insert(s.file, s.file.size() - kTrailerChunkSize, pattern(extra));
        expect_error([&] { open_file(bad); }, ErrorCause::corrupted);
    }
}

TEST(FormatPayload, EveryChunkBeforeAFailingOneIsReleasedAndNothingAfter) {
    // 64 KiB chunks: 64 per 4 MiB batch. Damage chunk 70, in the second batch: chunks 0..69
    // authenticated and are released (SPEC 7), whatever the batch they are in; 70 and after
    // are not.
    constexpr unsigned log2 = 16;
    constexpr std::size_t chunk = std::size_t{1} << log2;
    const Bytes plain = pattern(100 * chunk);
    Bytes file = encrypt_bytes(plain,
                               options_for({key_file_secret(5)}, Suite::chacha20_poly1305, log2));
    file[kHeader + 70 * (chunk + kTagSize) + 9] ^= 1;
    Options options;
    options.identities.push_back(key_file_secret(5));
    stream::SpanSource in(file);
    stream::VectorSink out;
    expect_error([&] { warp_format::decrypt(in, out, options); }, ErrorCause::corrupted,
                 "chunk 70 failed to authenticate");
    ASSERT_EQ(out.bytes.size(), 70 * chunk);
    EXPECT_TRUE(std::equal(out.bytes.begin(), out.bytes.end(), plain.begin()));
}

}  // namespace
}  // namespace warp::formats::warp_format::test
