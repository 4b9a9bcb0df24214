// age.md, "Payload": a 16-byte nonce, then STREAM over ChaCha20-Poly1305 in 64 KiB chunks,
// nonce = u88(counter) || u8(final), the final chunk holding data (empty only when the whole
// payload is), through the engine's chunk pipeline: every chunk before the final one in
// batches on every thread, the final one held back (engine/stream/hold_last.hpp) and sealed or
// opened on its own.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "engine/aead_key.hpp"
#include "engine/io.hpp"
#include "formats/options.hpp"

namespace warp::formats::age {

// The bytes after the nonce of a payload of `plaintext_bytes`: every chunk's tag, and one
// chunk (empty) for an empty plaintext.
std::uint64_t sealed_payload_bytes(std::uint64_t plaintext_bytes);
// The plaintext of `payload_bytes` after the nonce, or nullopt when no payload has that size.
std::optional<std::uint64_t> opened_payload_bytes(std::uint64_t payload_bytes);

// Seals all of `in` as the chunks of the payload (the nonce is the caller's); returns the
// plaintext length. `plaintext_hint`: the input's size when known, which sizes the pipeline's
// buffers for a small input (a hint only: any size is sealed).
std::uint64_t seal_payload(const AeadKey& key, ByteSource& in, ByteSink& out,
                           const ProgressFn& progress, unsigned threads,
                           std::optional<std::uint64_t> plaintext_hint = std::nullopt);

// Opens the chunks that follow the payload nonce in `in`, writing each chunk's plaintext as
// soon as it authenticated (age releases everything authenticated, in order), batch by batch.
// Throws Error(corrupted) naming the chunk that fails, or saying that the final chunk is
// missing, empty or followed by more; Error(truncated) for a payload cut short. Returns the
// plaintext length.
// `payload_hint`: the bytes after the nonce when known, as for seal_payload.
std::uint64_t open_payload(const AeadKey& key, ByteSource& in, ByteSink& out,
                           const ProgressFn& progress, unsigned threads,
                           std::optional<std::uint64_t> payload_hint = std::nullopt);

// Opens `last`, the input's last 16..64 KiB + 16 bytes, as the final chunk `index`, and
// writes its plaintext; returns its length. The errors of open_payload for the end of a
// payload (none there, empty after other chunks, a whole non-final chunk after which the
// input ends, a failing tag).
std::size_t open_final_chunk(const AeadKey& key, std::span<const std::uint8_t> last,
                             std::uint64_t index, ByteSink& out);

// The nonce of chunk `index` (formats/common/stream_nonce.hpp).
void chunk_nonce(std::uint64_t index, bool final, std::uint8_t* nonce);

}  // namespace warp::formats::age
