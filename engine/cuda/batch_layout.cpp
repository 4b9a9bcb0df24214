// Packing AeadChunks into one GCM launch's buffers and unpacking the results
// (batch_layout.hpp). Layout: chunk i's bytes start at data_offset_i, the sum of the earlier
// chunks' lengths each rounded up to 16 (so every chunk's blocks are 16-byte aligned for the
// kernel's 128-bit loads); the padding bytes are zeroed, though the kernel never reads them.
// The AAD is packed back to back (the kernel reads it byte by byte).
#include "engine/cuda/batch_layout.hpp"

#include <cstring>

#include "engine/cuda/device/gf128.hpp"
#include "engine/secure_memory.hpp"

namespace warp::cuda {
namespace {

std::size_t round_up16(std::size_t n) { return (n + 15) & ~std::size_t{15}; }

device::Gf128 load_element(const std::uint8_t* p, std::size_t n) {  // n <= 16, zero-padded
    device::Gf128 x{};
    for (std::size_t b = 0; b < n; ++b) x.w[b / 4] |= std::uint32_t{p[b]} << (24 - 8 * (b % 4));
    return x;
}

// J0 (SP 800-38D 7.1 step 2): IV || 0^31 || 1 for a 96-bit IV; otherwise
// GHASH_H(IV || zero padding || [0]_64 || [len(IV) in bits]_64), with the constant-time
// multiplication: J0 is secret (it is a hash under H) and so is every intermediate value.
void pre_counter_block(const std::uint8_t* nonce, std::size_t nonce_len, const GcmKeyTables& key,
                       std::uint8_t j0[16]) {
    if (nonce_len == kChunkNonceSize) {
        std::memcpy(j0, nonce, kChunkNonceSize);
        j0[12] = j0[13] = j0[14] = 0;
        j0[15] = 1;
        return;
    }
    device::Gf128 h{{key.h[0], key.h[1], key.h[2], key.h[3]}};
    device::Gf128 y{};
    for (std::size_t offset = 0; offset < nonce_len; offset += 16) {
        const std::size_t n = nonce_len - offset < 16 ? nonce_len - offset : 16;
        y = device::gf128_mul_bitwise(device::gf128_xor(y, load_element(nonce + offset, n)), h);
    }
    const std::uint64_t bits = std::uint64_t{nonce_len} * 8;
    const device::Gf128 lengths{{0, 0, static_cast<std::uint32_t>(bits >> 32),
                                 static_cast<std::uint32_t>(bits)}};
    y = device::gf128_mul_bitwise(device::gf128_xor(y, lengths), h);
    for (std::size_t b = 0; b < 16; ++b)
        j0[b] = static_cast<std::uint8_t>(y.w[b / 4] >> (24 - 8 * (b % 4)));
    secure_wipe(&y, sizeof y);
    secure_wipe(&h, sizeof h);
}

}  // namespace

GcmBatchSizes gcm_batch_sizes(std::span<const AeadChunk> chunks) {
    GcmBatchSizes sizes;
    sizes.chunk_count = chunks.size();
    for (const AeadChunk& c : chunks) {
        sizes.data_bytes += round_up16(c.len);
        sizes.aad_bytes += c.aad_len;
        sizes.piece_count += gcm_piece_count(gcm_positions(c.aad_len, c.len));
    }
    return sizes;
}

std::uint32_t describe_pieces(GcmChunkDesc& d, std::uint32_t chunk, std::uint32_t first_piece,
                              GcmPieceDesc* pieces) {
    // Piece p of n ends at m - (n-1-p)·P; all but the first are P positions long.
    const std::uint64_t m = gcm_positions(d.aad_len, d.len);
    const auto n = static_cast<std::uint32_t>(gcm_piece_count(m));
    d.first_piece = first_piece;
    d.pieces = n;
    for (std::uint32_t p = 0; p < n; ++p) {
        const std::uint64_t end = m - (n - 1 - p) * kGcmPiecePositions;
        pieces[first_piece + p] = {p == 0 ? 0 : end - kGcmPiecePositions, end, chunk, p};
    }
    return n;
}

void pack_gcm_batch(std::span<const AeadChunk> chunks, const GcmKeyTables& key,
                    GcmChunkDesc* descs, GcmPieceDesc* pieces, std::uint8_t* data,
                    std::uint8_t* aad) {
    std::size_t data_offset = 0;
    std::size_t aad_offset = 0;
    std::uint32_t piece_at = 0;
    for (std::size_t i = 0; i < chunks.size(); ++i) {
        const AeadChunk& c = chunks[i];
        GcmChunkDesc& d = descs[i];
        d.data_offset = data_offset;
        d.len = c.len;
        d.aad_offset = aad_offset;
        d.aad_len = c.aad_len;
        piece_at += describe_pieces(d, static_cast<std::uint32_t>(i), piece_at, pieces);
        pre_counter_block(c.nonce, c.nonce_len, key, d.j0);
        const std::size_t padded = round_up16(c.len);
        if (data != nullptr && c.len != 0) std::memcpy(data + data_offset, c.in, c.len);
        if (data != nullptr && padded != c.len)
            std::memset(data + data_offset + c.len, 0, padded - c.len);
        if (c.aad_len != 0) std::memcpy(aad + aad_offset, c.aad, c.aad_len);
        data_offset += padded;
        aad_offset += c.aad_len;
    }
}

void finish_gcm_seal(std::span<const AeadChunk> chunks, const GcmChunkDesc* descs,
                     const std::uint8_t* data_out, const std::uint8_t* tags, std::size_t tag_len) {
    for (std::size_t i = 0; i < chunks.size(); ++i) {
        const AeadChunk& c = chunks[i];
        if (data_out != nullptr && c.len != 0)
            std::memcpy(c.out, data_out + descs[i].data_offset, c.len);
        std::memcpy(c.tag, tags + 16 * i, tag_len);
    }
}

std::size_t finish_gcm_open(std::span<const AeadChunk> chunks, const GcmChunkDesc* descs,
                            const std::uint8_t* data_out, const std::uint8_t* tags,
                            std::size_t tag_len, bool* ok) {
    std::size_t failures = 0;
    for (std::size_t i = 0; i < chunks.size(); ++i) {
        const AeadChunk& c = chunks[i];
        ok[i] = equal_in_constant_time(tags + 16 * i, c.tag, tag_len);
        if (ok[i] && data_out != nullptr && c.len != 0)
            std::memcpy(c.out, data_out + descs[i].data_offset, c.len);
        failures += !ok[i];  // AeadKey::open wipes a failed chunk's output
    }
    return failures;
}

}  // namespace warp::cuda
