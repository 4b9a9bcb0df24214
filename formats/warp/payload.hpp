// SPEC 6: the payload, STREAM. Data chunks through the engine's chunk pipeline, then the
// trailer chunk; and the diagnosis of a payload that does not end as it should.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>

#include "engine/aead_key.hpp"
#include "engine/io.hpp"
#include "engine/stream/chunk_pipeline.hpp"
#include "formats/warp/constants.hpp"
#include "formats/common/stream_nonce.hpp"
#include "formats/options.hpp"
#include "formats/warp/suite.hpp"

namespace warp::formats::warp_format {

// The nonce function of data chunks, for the pipeline.
stream::NonceFn data_chunk_nonces();

using PlaintextDigest = std::array<std::uint8_t, 16>;  // XXH3_128, canonical (big-endian)

// XXH3_128 of the plaintext, fed batch by batch.
class PlaintextHash {
public:
    PlaintextHash();
    ~PlaintextHash();
    PlaintextHash(const PlaintextHash&) = delete;
    PlaintextHash& operator=(const PlaintextHash&) = delete;
    void update(std::span<const std::uint8_t> bytes);
    PlaintextDigest digest() const;

private:
    struct State;
    State* state_;
};

struct Trailer {
    std::uint64_t plaintext_bytes = 0;
    PlaintextDigest hash{};
};

// Opens a 40-byte trailer chunk sealed at `index` with the final flag.
std::optional<Trailer> open_trailer(const AeadKey& key, std::uint64_t index,
                                    std::span<const std::uint8_t> chunk);

// SPEC 6, "Lengths follow by arithmetic": the number of data chunks and the plaintext length
// of a payload of `payload_bytes` bytes; nullopt when no valid payload has that size.
struct PayloadGeometry {
    std::uint64_t data_chunks = 0;
    std::uint64_t plaintext_bytes = 0;
};
std::optional<PayloadGeometry> payload_geometry(std::uint64_t payload_bytes, unsigned chunk_log2);

// The payload's size for `plaintext_bytes` (payload_geometry's inverse).
std::uint64_t sealed_payload_bytes(std::uint64_t plaintext_bytes, unsigned chunk_log2);

// Seals all of `in` as the payload and writes it to `out`; returns the plaintext length.
// `threads` as in Options (formats/options.hpp). `plaintext_hint`: the input's size when
// known, which sizes the pipeline's buffers for a small input (any size is sealed).
std::uint64_t seal_payload(const AeadKey& key, unsigned chunk_log2, ByteSource& in,
                           ByteSink& out, const ProgressFn& progress, unsigned threads,
                           std::optional<std::uint64_t> plaintext_hint = std::nullopt);

// Opens the payload that follows the header in `in`, writing plaintext batch by batch.
// Checks everything of SPEC 7 items 7 and 8; throws Error(corrupted | truncated) naming the
// chunk. Returns the plaintext length.
// `payload_hint`: the payload's size when known, as for seal_payload.
std::uint64_t open_payload(const AeadKey& key, unsigned chunk_log2, ByteSource& in,
                           ByteSink& out, const ProgressFn& progress, unsigned threads,
                           std::optional<std::uint64_t> payload_hint = std::nullopt);

// What went wrong at the end of a payload, and the bytes there, for throw_payload_error.
struct PayloadFailure {
    enum class Kind {
        chunk_failed,         // the record `chunk` failed to authenticate
        malformed_last,       // the last record before the trailer is too short for a tag
        trailer_failed,       // every data record opened, the trailer chunk did not
        shorter_than_trailer  // fewer bytes than a trailer chunk after the last batch
    };
    Kind kind = Kind::chunk_failed;
    std::uint64_t chunk = 0;                         // chunk_failed, trailer_failed: index
    std::span<const std::uint8_t> record;            // chunk_failed: its bytes
    bool at_end = false;                             // segment below is valid
    std::span<const std::uint8_t> segment;           // input from record segment_index to its end
    std::uint64_t segment_index = 0;
};

// Throws the most precise Error for `failure`: truncated when the input was cut at a chunk
// boundary (the trailer chunk is missing and what precedes it authenticates as data chunks),
// corrupted "trailing data after the final chunk" when a trailer chunk opens where a data
// chunk failed, else corrupted naming the chunk.
[[noreturn]] void throw_payload_error(const AeadKey& key, unsigned chunk_log2,
                                      const PayloadFailure& failure);

}  // namespace warp::formats::warp_format
