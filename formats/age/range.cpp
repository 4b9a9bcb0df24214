// age.md, "Payload": "The payload can be seeked by jumping ahead in chunk increments, and
// decrypting the whole chunk that contains the seeked position. Seeking relatively to the
// end of file MUST first decrypt and verify that the last chunk is a valid final chunk." The
// final chunk is opened first (it fixes the plaintext's length), then only the chunks that
// hold the range, through the chunk pipeline.
#include <algorithm>

#include "engine/aead_key.hpp"
#include "engine/error.hpp"
#include "engine/stream/chunk_pipeline.hpp"
#include "engine/stream/memory_io.hpp"
#include "formats/age/age.hpp"
#include "formats/age/unlock.hpp"
#include "formats/age/payload.hpp"

namespace warp::formats::age {
namespace {

// Holds the final chunk's plaintext until the range reaches it; wiped when done.
class FinalChunk final : public ByteSink {
public:
    ~FinalChunk() override { secure_wipe(bytes_.data(), bytes_.size()); }
    void write(const std::uint8_t* buf, std::size_t len) override {
        std::copy_n(buf, len, bytes_.data() + size_);
        size_ += len;
    }
    std::span<const std::uint8_t> bytes() const { return {bytes_.data(), size_}; }

private:
    std::array<std::uint8_t, kChunkSize> bytes_{};
    std::size_t size_ = 0;
};


}  // namespace

Result decrypt_range(const RandomAccessSource& in, ByteSink& out, const DecryptOptions& options,
                     std::uint64_t offset, std::uint64_t length) {
    const std::uint64_t file_size = in.size();
    stream::WindowSource header_source(in, 0, file_size);
    const Header header = read_header(header_source);
    check_stanzas(header);
    WipedFileKey file_key;
    Result result;
    result.stanza_used = open_file_key(header, options, file_key.bytes);
    if (file_size < header.size + kPayloadNonceSize)
        throw Error(ErrorCause::truncated, "truncated: input ends inside the age payload's nonce");
    const std::vector<std::uint8_t> nonce = stream::read_bytes_at(in, header.size, kPayloadNonceSize);
    const std::uint64_t payload_start = header.size + kPayloadNonceSize;
    const std::uint64_t payload_bytes = file_size - payload_start;
    // Whole records, then the final one: 16 (an empty payload) to 64 KiB + 16 bytes.
    const std::uint64_t records = payload_bytes == 0 ? 0 : (payload_bytes + kRecordSize - 1) / kRecordSize;
    const std::uint64_t last_start = records == 0 ? 0 : (records - 1) * kRecordSize;

    result.selection = select(Aead::chacha20_poly1305,
                              SizeHint::exactly(std::min<std::uint64_t>(length, payload_bytes)),
                              options.backend);
    WipedKey payload_key;
    derive_key(file_key.bytes, nonce, kPayloadLabel, payload_key);
    const AeadKey key(*result.selection.impl, payload_key.span());

    FinalChunk final_chunk;
    const std::vector<std::uint8_t> last =
        stream::read_bytes_at(in, payload_start + last_start, payload_bytes - last_start);
    open_final_chunk(key, last, records == 0 ? 0 : records - 1, final_chunk);
    const std::uint64_t final_index = records - 1;
    const std::uint64_t plaintext_bytes = final_index * kChunkSize + final_chunk.bytes().size();

    const std::uint64_t begin = std::min(offset, plaintext_bytes);
    const std::uint64_t end = begin + std::min(length, plaintext_bytes - begin);
    if (begin == end) return result;
    const std::uint64_t first = begin / kChunkSize;
    const std::uint64_t last_chunk = (end - 1) / kChunkSize;
    stream::SliceSink slice(out, begin - first * kChunkSize, end - begin);
    if (first < final_index) {
        const std::uint64_t through = std::min(last_chunk, final_index - 1);
        stream::WindowSource window(in, payload_start + first * kRecordSize,
                                    (through - first + 1) * kRecordSize);
        stream::ChunkPipeline pipeline(
            key, stream::layout_for(key, kChunkSize, (through - first + 1) * kChunkSize), 0,
            options.threads);
        const stream::OpenSummary summary = pipeline.open(
            window, slice,
            [](std::uint64_t index, std::uint8_t* n) { chunk_nonce(index, false, n); }, {},
            first, stream::FailedBatch::write_what_opened);
        if (summary.failed_chunk)
            throw Error(ErrorCause::corrupted, "chunk " + std::to_string(*summary.failed_chunk) +
                                                   " of the age payload failed to authenticate");
    }
    if (last_chunk == final_index)
        slice.write(final_chunk.bytes().data(), final_chunk.bytes().size());
    result.plaintext_bytes = end - begin;
    return result;
}

}  // namespace warp::formats::age
