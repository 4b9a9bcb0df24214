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
#include "formats/common/chunk_range.hpp"
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

Result decrypt_range(const RandomAccessSource& in, ByteSink& out, const Options& options,
                     std::uint64_t offset, std::uint64_t length) {
    const std::uint64_t file_size = in.size();
    stream::WindowSource header_source(in, 0, file_size);
    const Header header = read_header(header_source);
    check_stanzas(header);
    WipedFileKey file_key;
    Result result;
    result.format = Format::age;
    result.entries_before = result.entries_after = header.stanzas.size();
    result.opened_with =
        open_file_key(header, options, file_key.bytes, &result.opened_by_plugin);
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

    const ChunkRange range = chunk_range(offset, length, plaintext_bytes, kChunkSize);
    if (range.empty()) return result;
    // The chunks before the final one through the pipeline; the final one is open already.
    if (range.first < final_index)
        open_range_chunks(in, out, key,
                          {kChunkSize, payload_start,
                           [](std::uint64_t index, std::uint8_t* n) { chunk_nonce(index, false, n); }},
                          range, std::min(range.last, final_index - 1), file_size, options,
                          " of the age payload");
    if (range.last == final_index) {
        // What of the final chunk lies in the range: from its start, or from range.begin.
        const std::uint64_t final_start = final_index * kChunkSize;
        const std::uint64_t from = std::max(range.begin, final_start) - final_start;
        out.write(final_chunk.bytes().data() + from,
                  static_cast<std::size_t>(range.end - final_start - from));
    }
    result.plaintext_bytes = range.end - range.begin;
    return result;
}

}  // namespace warp::formats::age
