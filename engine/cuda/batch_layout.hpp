// Packing a span of AeadChunk into the contiguous buffers one GCM launch reads (kernel_api.hpp),
// and unpacking its results: the host half of every cuda AEAD call, shared by the GPU driver
// and the CPU emulator so that both are tested by the same CPU tests.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "engine/aead.hpp"
#include "engine/cuda/kernel_api.hpp"

namespace warp::cuda {

// Bytes each buffer of a packed batch needs for `chunks`.
struct GcmBatchSizes {
    std::size_t data_bytes = 0;  // each chunk's bytes, each start rounded up to 16
    std::size_t aad_bytes = 0;
    std::size_t chunk_count = 0;
    std::size_t piece_count = 0;  // thread blocks: one per chunk, more for a split chunk
    std::size_t desc_bytes() const { return chunk_count * sizeof(GcmChunkDesc); }
    std::size_t piece_bytes() const { return piece_count * sizeof(GcmPieceDesc); }
    std::size_t sum_bytes() const { return piece_count * 16; }  // GcmLaunch::piece_sums
    std::size_t tag_bytes() const { return chunk_count * 16; }
};
GcmBatchSizes gcm_batch_sizes(std::span<const AeadChunk> chunks);

// Cuts chunk `chunk` (its descriptor d, lengths set) into pieces of kGcmPiecePositions
// positions counted back from its end, written from pieces[first_piece]; sets d.first_piece
// and d.pieces and returns the number of pieces (kernel_api.hpp).
std::uint32_t describe_pieces(GcmChunkDesc& d, std::uint32_t chunk, std::uint32_t first_piece,
                              GcmPieceDesc* pieces);

// Writes the descriptors (J0 included: nonce || 0^31 || 1 for 12-byte nonces, GHASH of the
// nonce otherwise, with key.h), the pieces (kernel_api.hpp, kGcmPiecePositions), the input
// bytes and the AAD of `chunks` into buffers of at least gcm_batch_sizes(chunks) bytes.
// data == nullptr: the input bytes are not copied (the driver sends them from the chunks' own
// pinned memory); the descriptors still place them.
void pack_gcm_batch(std::span<const AeadChunk> chunks, const GcmKeyTables& key,
                    GcmChunkDesc* descs, GcmPieceDesc* pieces, std::uint8_t* data,
                    std::uint8_t* aad);

// After a seal launch: copies each chunk's ciphertext from `data_out` and the first tag_len
// bytes of its tag from `tags` to the chunk's out and tag (data_out == nullptr: the ciphertext
// is already in out, sent there straight from the device).
void finish_gcm_seal(std::span<const AeadChunk> chunks, const GcmChunkDesc* descs,
                     const std::uint8_t* data_out, const std::uint8_t* tags, std::size_t tag_len);

// After an open launch: compares each computed tag (first tag_len bytes) with the chunk's
// tag in constant time; copies the plaintext of the chunks that authenticated to their out
// (unless data_out == nullptr: it is already there). ok[i] as AeadImpl::open; AeadKey::open
// zeroes the out of the chunks that failed. Returns the failures.
std::size_t finish_gcm_open(std::span<const AeadChunk> chunks, const GcmChunkDesc* descs,
                            const std::uint8_t* data_out, const std::uint8_t* tags,
                            std::size_t tag_len, bool* ok);

}  // namespace warp::cuda
