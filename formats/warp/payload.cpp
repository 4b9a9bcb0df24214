// SPEC 6 (payload: STREAM nonces, data chunks, trailer) and SPEC 7 items 7 and 8.
#include "formats/warp/payload.hpp"

#include <xxhash.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "engine/error.hpp"
#include "formats/common/big_endian.hpp"

namespace warp::formats::warp_format {
namespace {

using stream::ChunkPipeline;
using stream::layout_for;

std::string chunk_name(std::uint64_t index) { return "chunk " + std::to_string(index); }

// Whether `segment` is a run of data records (full ones, then a last one of 17..C+16 bytes)
// that all authenticate from `first_index` on: the shape of an input whose trailer chunk was
// cut off. Returns the index of the last one.
std::optional<std::uint64_t> data_chunks_end_at(const AeadKey& key, unsigned chunk_log2,
                                                std::span<const std::uint8_t> segment,
                                                std::uint64_t first_index) {
    const std::size_t record = record_size_of(chunk_log2);
    if (segment.empty()) return std::nullopt;
    // A copy, because AeadChunk's tag pointer is writable (open only reads it).
    std::vector<std::uint8_t> sealed(segment.begin(), segment.end());
    std::vector<std::uint8_t> scratch(record);
    std::array<std::uint8_t, kNonceSize> nonce{};
    std::uint64_t index = first_index;
    for (std::size_t offset = 0; offset < sealed.size(); offset += record, ++index) {
        const std::size_t len = std::min(record, sealed.size() - offset);
        if (len <= kTagSize) return std::nullopt;
        std::uint8_t* rec = sealed.data() + offset;
        write_chunk_nonce(index, kFlagData, nonce.data());
        const AeadChunk chunk{nonce.data(), nonce.size(), nullptr, 0, rec, scratch.data(),
                              len - kTagSize, rec + len - kTagSize};
        bool ok = false;
        key.open({&chunk, 1}, &ok);
        secure_wipe(scratch.data(), scratch.size());
        if (!ok) return std::nullopt;
    }
    return index - 1;
}

bool trailer_starts(const AeadKey& key, std::uint64_t index, std::span<const std::uint8_t> bytes) {
    return bytes.size() >= kTrailerChunkSize &&
           open_trailer(key, index, bytes.first(kTrailerChunkSize)).has_value();
}

[[noreturn]] void trailing_data() {
    throw Error(ErrorCause::corrupted, "trailing data after the final chunk");
}

}  // namespace

stream::NonceFn data_chunk_nonces() {
    return [](std::uint64_t index, std::uint8_t* nonce) {
        write_chunk_nonce(index, kFlagData, nonce);
    };
}

struct PlaintextHash::State {
    XXH3_state_t* xxh;
};

PlaintextHash::PlaintextHash() : state_(new State{XXH3_createState()}) {
    if (state_->xxh == nullptr) {
        delete state_;
        throw std::bad_alloc();
    }
    XXH3_128bits_reset(state_->xxh);
}

PlaintextHash::~PlaintextHash() {
    XXH3_freeState(state_->xxh);
    delete state_;
}

void PlaintextHash::update(std::span<const std::uint8_t> bytes) {
    XXH3_128bits_update(state_->xxh, bytes.data(), bytes.size());
}

PlaintextDigest PlaintextHash::digest() const {
    XXH128_canonical_t canonical;
    XXH128_canonicalFromHash(&canonical, XXH3_128bits_digest(state_->xxh));
    PlaintextDigest out;
    static_assert(sizeof canonical.digest == out.size());
    std::memcpy(out.data(), canonical.digest, out.size());
    return out;
}

std::optional<Trailer> open_trailer(const AeadKey& key, std::uint64_t index,
                                    std::span<const std::uint8_t> chunk) {
    if (chunk.size() != kTrailerChunkSize) return std::nullopt;
    std::array<std::uint8_t, kTrailerChunkSize> sealed{};
    std::copy(chunk.begin(), chunk.end(), sealed.begin());
    std::array<std::uint8_t, kTrailerPlaintextSize> plain{};
    std::array<std::uint8_t, kNonceSize> nonce{};
    write_chunk_nonce(index, kFlagFinal, nonce.data());
    const AeadChunk c{nonce.data(), nonce.size(), nullptr, 0, sealed.data(), plain.data(),
                      kTrailerPlaintextSize, sealed.data() + kTrailerPlaintextSize};
    bool ok = false;
    key.open({&c, 1}, &ok);
    if (!ok) return std::nullopt;
    Trailer trailer;
    trailer.plaintext_bytes = load_be<std::uint64_t>(plain.data());
    std::copy_n(plain.begin() + 8, trailer.hash.size(), trailer.hash.begin());
    return trailer;
}

std::optional<PayloadGeometry> payload_geometry(std::uint64_t payload_bytes, unsigned chunk_log2) {
    const std::uint64_t record = record_size_of(chunk_log2);
    if (payload_bytes < kTrailerChunkSize) return std::nullopt;
    const std::uint64_t records = payload_bytes - kTrailerChunkSize;
    const std::uint64_t n = (records + record - 1) / record;
    if (n != 0 && records - (n - 1) * record <= kTagSize) return std::nullopt;
    return PayloadGeometry{n, records - n * kTagSize};
}

std::uint64_t sealed_payload_bytes(std::uint64_t plaintext_bytes, unsigned chunk_log2) {
    const std::uint64_t chunk = chunk_size_of(chunk_log2);
    return plaintext_bytes + (plaintext_bytes + chunk - 1) / chunk * kTagSize + kTrailerChunkSize;
}

std::uint64_t seal_payload(const AeadKey& key, unsigned chunk_log2, ByteSource& in,
                           ByteSink& out, const ProgressFn& progress, unsigned threads,
                           std::optional<std::uint64_t> plaintext_hint) {
    PlaintextHash hash;
    std::uint64_t done = 0;
    ChunkPipeline pipeline(key, layout_for(key, chunk_size_of(chunk_log2), plaintext_hint), 0,
                           threads);
    const stream::SealSummary summary =
        pipeline.seal(in, out, data_chunk_nonces(), [&](std::span<const std::uint8_t> batch) {
            hash.update(batch);
            done += batch.size();
            if (progress) progress(done);
        });

    // trailer = u64(L) || XXH3_128(P), sealed as chunk n with the final flag.
    std::array<std::uint8_t, kTrailerChunkSize> trailer{};
    store_be<std::uint64_t>(trailer.data(), summary.plaintext_bytes);
    const PlaintextDigest digest = hash.digest();
    std::copy(digest.begin(), digest.end(), trailer.begin() + 8);
    std::array<std::uint8_t, kNonceSize> nonce{};
    write_chunk_nonce(summary.chunks, kFlagFinal, nonce.data());
    const AeadChunk chunk{nonce.data(), nonce.size(), nullptr, 0, trailer.data(), trailer.data(),
                          kTrailerPlaintextSize, trailer.data() + kTrailerPlaintextSize};
    key.seal({&chunk, 1});
    out.write(trailer.data(), trailer.size());
    return summary.plaintext_bytes;
}

std::uint64_t open_payload(const AeadKey& key, unsigned chunk_log2, ByteSource& in,
                           ByteSink& out, const ProgressFn& progress, unsigned threads,
                           std::optional<std::uint64_t> payload_hint) {
    PlaintextHash hash;
    std::uint64_t done = 0;
    ChunkPipeline pipeline(key, layout_for(key, chunk_size_of(chunk_log2), payload_hint),
                           kTrailerChunkSize, threads);
    // A batch with a failing chunk still releases the chunks before it, which authenticated
    // (SPEC 7: each data chunk may be released once it authenticates): what a reader gets of
    // a damaged file is then the same whatever the batch size or thread count.
    const stream::OpenSummary summary = pipeline.open(
        in, out, data_chunk_nonces(),
        [&](std::span<const std::uint8_t> batch) {
            hash.update(batch);
            done += batch.size();
            if (progress) progress(done);
        },
        0, stream::FailedBatch::write_what_opened);

    PayloadFailure failure;
    failure.at_end = summary.reached_end;
    failure.segment = summary.final_segment;
    failure.segment_index = summary.final_segment_index;
    if (summary.failed_chunk) {
        failure.kind = PayloadFailure::Kind::chunk_failed;
        failure.chunk = *summary.failed_chunk;
        failure.record = summary.failed_record;
        throw_payload_error(key, chunk_log2, failure);
    }
    if (summary.tail.size() < kTrailerChunkSize) {
        failure.kind = PayloadFailure::Kind::shorter_than_trailer;
        throw_payload_error(key, chunk_log2, failure);
    }
    if (summary.malformed_last_record) {
        failure.kind = PayloadFailure::Kind::malformed_last;
        throw_payload_error(key, chunk_log2, failure);
    }
    const std::optional<Trailer> trailer = open_trailer(key, summary.chunks, summary.tail);
    if (!trailer) {
        failure.kind = PayloadFailure::Kind::trailer_failed;
        failure.chunk = summary.chunks;
        throw_payload_error(key, chunk_log2, failure);
    }
    if (trailer->plaintext_bytes != summary.plaintext_bytes)
        throw Error(ErrorCause::corrupted,
                    "trailer mismatch: it records " + std::to_string(trailer->plaintext_bytes) +
                        " bytes of plaintext, the chunks hold " +
                        std::to_string(summary.plaintext_bytes));
    if (trailer->hash != hash.digest())
        throw Error(ErrorCause::corrupted,
                    "trailer mismatch: the plaintext's XXH3-128 differs from the trailer's");
    return summary.plaintext_bytes;
}

void throw_payload_error(const AeadKey& key, unsigned chunk_log2, const PayloadFailure& failure) {
    using Kind = PayloadFailure::Kind;
    // A data chunk failed where a trailer chunk opens: the writer ended there.
    if (failure.kind == Kind::chunk_failed && trailer_starts(key, failure.chunk, failure.record))
        trailing_data();
    const bool end_in_question =
        failure.at_end && (failure.kind != Kind::chunk_failed ||
                           failure.chunk >= failure.segment_index);
    if (end_in_question) {
        if (failure.kind != Kind::trailer_failed &&
            trailer_starts(key, failure.segment_index, failure.segment))
            trailing_data();
        if (const auto last = data_chunks_end_at(key, chunk_log2, failure.segment,
                                                 failure.segment_index))
            throw Error(ErrorCause::truncated, "truncated: input ends after " +
                                                   chunk_name(*last) + ", before the final chunk");
    }
    switch (failure.kind) {
        case Kind::chunk_failed:
            throw Error(ErrorCause::corrupted,
                        chunk_name(failure.chunk) + " failed to authenticate" +
                            (end_in_question
                                 ? " (damaged, or the input was cut or extended near its end)"
                                 : ""));
        case Kind::malformed_last:
            throw Error(ErrorCause::corrupted,
                        "malformed payload: " + chunk_name(failure.segment_index) +
                            " is too short to hold its tag");
        case Kind::trailer_failed:
            throw Error(ErrorCause::corrupted,
                        "the final chunk (" + chunk_name(failure.chunk) +
                            ") failed to authenticate");
        case Kind::shorter_than_trailer:
            break;
    }
    // Fewer bytes than one trailer chunk: only possible right after the header.
    throw Error(ErrorCause::truncated,
                failure.segment.empty()
                    ? std::string("truncated: input ends after the header, before the final chunk")
                    : "truncated: the payload is " + std::to_string(failure.segment.size()) +
                          " bytes, shorter than the final chunk (" +
                          std::to_string(kTrailerChunkSize) + " bytes)");
}

}  // namespace warp::formats::warp_format
