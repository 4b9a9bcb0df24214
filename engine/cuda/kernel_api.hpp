// What the host passes to the CUDA kernels, and the two ways to run them: on the GPU
// (kernels.cu, launch_*) or on the CPU, thread by thread (emulator.cpp, emulate_*), so that CI
// checks the GPU algorithm on every run without a GPU (docs/design.md, "Backends").
//
// Plain C++: no CUDA header is needed to include this file. The structs are trivially
// copyable blobs that the host builds (key_tables.cpp, batch_layout.cpp) and copies to the
// device as they are; the kernels read them through device pointers.
#pragma once

#include <cstddef>
#include <cstdint>

namespace warp::cuda {

// Threads of one GCM thread block. One thread block seals or opens one piece of a chunk
// (below): thread t encrypts counter blocks t, t + T, t + 2T, ... of the piece and folds the
// GHASH blocks of the same positions into its own accumulator (Horner with H^T), so the GHASH
// powers table below has exactly T entries.
inline constexpr unsigned kGcmThreads = 256;
// GHASH positions (AAD blocks, data blocks, the length block) of one piece. A chunk with more
// is split into pieces of this many positions counted back from its end (the first piece is
// the short one), each sealed or opened by its own thread block, so that a file of 1-16 MiB
// chunks fills the GPU (a 16 MiB chunk is 257 pieces instead of one thread block on one
// multiprocessor). Why 4096 (64 KiB of data, 16 blocks per thread): a thread block's fixed
// work (loading 96 KiB of tables, one constant-time multiply by H^k per thread, the XOR tree)
// costs about what 3-4 blocks per thread cost (scripts/gpu-sass-count.sh: about 3,000
// instructions against 700-880 per block), so 16 keep it near a fifth of the piece's time;
// and an H200 holds 132 x 2 = 264 thread blocks at once, which 64 KiB pieces fill from
// 16.5 MiB per launch.
inline constexpr std::uint64_t kGcmPiecePositions = 4096;
// Threads of one ECB thread block (grid-stride over all blocks of the call).
inline constexpr unsigned kEcbThreads = 256;

// An AES key schedule as FIPS-197 words (big-endian byte order within each word).
struct AesRoundKeys {
    std::uint32_t words[60];  // (rounds + 1) * 4 used
    std::uint32_t rounds;     // 10, 12 or 14
};

// The expanded key of the raw block kernels: the encryption schedule and the decryption
// schedule of the equivalent inverse cipher (FIPS-197 5.3.5: InvMixColumns applied to the
// middle round keys). This is BlockCipherImpl::state for the cuda backends.
struct AesKeyTables {
    AesRoundKeys encrypt;
    AesRoundKeys decrypt;
};

// The expanded key of the GCM kernels: AeadImpl::state for the cuda backends (built on the
// host by build_gcm_key_tables, in constant time, and copied to the device with each batch).
struct GcmKeyTables {
    AesRoundKeys aes;
    std::uint32_t h[4];                       // H = E(K, 0^128), big-endian words
    std::uint32_t h_powers[kGcmThreads][4];   // h_powers[i] = H^(i+1)
    std::uint32_t h_t_positions[4][16][4];    // [i][v] = v(x)·x^(4i)·H^kGcmThreads (gf128.hpp)
    std::uint32_t h_piece[4];                 // H^kGcmPiecePositions, to join pieces' sums
};

// One chunk of a packed batch (batch_layout.hpp). Offsets are into the batch's buffers; a
// chunk's input and output sit at the same offset of the input and output buffers, and
// data_offset is a multiple of 16.
struct GcmChunkDesc {
    std::uint64_t data_offset;
    std::uint64_t len;         // message bytes
    std::uint64_t aad_offset;  // into the AAD buffer
    std::uint64_t aad_len;
    std::uint32_t first_piece;  // its pieces are first_piece .. first_piece + pieces - 1
    std::uint32_t pieces;       // 1 unless the chunk has more than kGcmPiecePositions positions
    std::uint8_t j0[16];       // the pre-counter block (SP 800-38D 7.1 step 2), built on the host
};

// One piece: GHASH positions [first, end) of chunk `chunk`, the index-th of its pieces.
struct GcmPieceDesc {
    std::uint64_t first;
    std::uint64_t end;
    std::uint32_t chunk;
    std::uint32_t index;
};

// Number of GHASH positions of a chunk, and of its pieces (public: lengths only).
inline constexpr std::uint64_t gcm_positions(std::uint64_t aad_len, std::uint64_t len) {
    return (aad_len + 15) / 16 + (len + 15) / 16 + 1;
}
inline constexpr std::uint64_t gcm_piece_count(std::uint64_t positions) {
    return (positions + kGcmPiecePositions - 1) / kGcmPiecePositions;
}

// One GCM kernel launch over a packed batch: piece i is sealed or opened by thread block i;
// then, if any chunk has several pieces, a second kernel joins their sums into its tag.
// Pointers are device pointers for launch_gcm and host pointers for emulate_gcm.
struct GcmLaunch {
    const GcmKeyTables* key;
    const GcmChunkDesc* chunks;
    std::uint32_t chunk_count;
    const GcmPieceDesc* pieces;
    std::uint32_t piece_count;  // > chunk_count exactly when some chunk is split
    std::uint8_t* piece_sums;   // 16 bytes per piece, scratch written by the first kernel
    const std::uint8_t* in;   // plaintext (seal) or ciphertext (open)
    std::uint8_t* out;        // ciphertext (seal) or plaintext (open)
    const std::uint8_t* aad;
    std::uint8_t* tags;       // 16 bytes per chunk: the full computed tag (seal and open)
    bool open;                // true: GHASH runs over `in` (the ciphertext)
};

// One raw AES launch over `blocks` 16-byte blocks (ECB), in place allowed.
struct EcbLaunch {
    const AesKeyTables* key;
    const std::uint8_t* in;
    std::uint8_t* out;
    std::uint64_t blocks;
    bool decrypt;
};

// Host side, constant time (no secret-dependent branch or table index): expand `key` (16, 24
// or 32 bytes) into the tables the kernels read. key_tables.cpp.
void build_aes_key_tables(const std::uint8_t* key, std::size_t key_len, AesKeyTables& out);
void build_gcm_key_tables(const std::uint8_t* key, std::size_t key_len, GcmKeyTables& out);

// Runs the kernels' phases on the CPU for every (block, thread) in turn; same results as the
// GPU, byte for byte (emulate_gcm runs both GCM kernels). emulator.cpp.
void emulate_gcm(const GcmLaunch& launch);
void emulate_ecb(const EcbLaunch& launch);

// Enqueues the kernel on `stream` (a cudaStream_t). kernels.cu; only in CUDA builds.
void launch_gcm(const GcmLaunch& launch, void* stream);
void launch_ecb(const EcbLaunch& launch, void* stream);

}  // namespace warp::cuda
