// The STREAM nonce both formats give their chunks (age.md, "Payload"; warp SPEC 6 adopts it):
// nonce(i, final) = u88(i) || u8(final), 12 bytes.
#pragma once

#include <cstddef>
#include <cstdint>

#include "engine/aead.hpp"
#include "formats/common/big_endian.hpp"

namespace warp::formats {

inline constexpr std::size_t kChunkIndexSize = kChunkNonceSize - 1;  // u88 index, then the flag
inline constexpr std::uint8_t kFlagData = 0;
inline constexpr std::uint8_t kFlagFinal = 1;

inline void write_chunk_nonce(std::uint64_t index, std::uint8_t flag, std::uint8_t* nonce) {
    store_be<std::uint64_t>(nonce, index, kChunkIndexSize);
    nonce[kChunkIndexSize] = flag;
}

}  // namespace warp::formats
