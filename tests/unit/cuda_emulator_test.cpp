// The CUDA kernels run by the CPU emulator (engine/cuda/emulator.cpp) against the scalar
// backend: raw AES for every key size and direction, across the ECB grid's stride; AES-GCM on
// batches that mix chunk lengths 0..600, lengths around multiples of 16 x 256 (where a
// thread's Horner loop gains a block), 64 KiB and odd, AAD lengths 0..100 and beyond one
// round of threads, nonces of 1, 12, 13 and 64 bytes, every tag length, in place and not;
// forged chunks in a batch; and the kernel itself with a J0 whose counter wraps (inc32).
// The vector files, ACVP sets and differential tests run the emulator too, as the backend
// "cuda-emulated" (tests/support/backends_under_test.hpp).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "engine/aead_key.hpp"
#include "engine/cuda/batch_layout.hpp"
#include "engine/cuda/cuda.hpp"
#include "engine/cuda/device/ecb_phases.hpp"
#include "engine/cuda/kernel_api.hpp"
#include "engine/scalar/aes/aes_bitsliced.hpp"
#include "engine/scalar/aes/ghash.hpp"
#include "engine/scalar/scalar.hpp"
#include "tests/support/hex.hpp"
#include "tests/support/random_bytes.hpp"

namespace warp::cuda {
namespace {

using test::Bytes;
using test::random_bytes;
using test::to_hex;

// ---- Raw AES ------------------------------------------------------------------------------

TEST(CudaEmulatedEcb, EncryptsAndDecryptsLikeScalarForEveryKeySize) {
    std::mt19937_64 rng(21);
    // Around one thread block, and past a full grid (the grid-stride loop's second round).
    const std::size_t grid_blocks = std::size_t{device::kEcbMaxGrid} * kEcbThreads;
    const std::vector<std::size_t> counts = {0, 1, 2, 31, 32, 33, 255, 256, 257, 1000,
                                             grid_blocks + 37};
    for (std::size_t key_len : {16u, 24u, 32u}) {
        const Bytes key = random_bytes(rng, key_len);
        const BlockCipherKey ours(kAesEmulated, key);
        const BlockCipherKey reference(scalar::kAes, key);
        for (std::size_t blocks : counts) {
            if (blocks > 1000 && key_len != 32) continue;  // one large run is enough
            SCOPED_TRACE(std::to_string(key_len) + "-byte key, " + std::to_string(blocks) + " blocks");
            const Bytes in = random_bytes(rng, 16 * blocks);
            Bytes got(in.size()), want(in.size());
            ours.encrypt(in.data(), got.data(), blocks);
            reference.encrypt(in.data(), want.data(), blocks);
            ASSERT_EQ(got, want);
            ours.decrypt(got.data(), got.data(), blocks);  // in place
            ASSERT_EQ(got, in);
            reference.decrypt(in.data(), want.data(), blocks);
            ours.decrypt(in.data(), got.data(), blocks);
            ASSERT_EQ(got, want);
        }
    }
}

// ---- AES-GCM through the emulated backend ---------------------------------------------------

struct Message {
    Bytes nonce, aad, pt;
};

constexpr std::size_t kNonceLengths[] = {12, 1, 13, 64};
constexpr std::size_t kTagLengths[] = {4, 8, 12, 13, 14, 15, 16};

AeadChunk chunk_of(const Message& m, const std::uint8_t* in, std::uint8_t* out, std::size_t len,
                   std::uint8_t* tag) {
    return {m.nonce.data(), m.nonce.size(), m.aad.data(), m.aad.size(), in, out, len, tag};
}

// Seals `messages` in one emulated batch (in place or not) and checks every ciphertext and tag
// against the scalar backend, then opens the batch back (in place or not).
void expect_batch_like_scalar(const Bytes& key, const std::vector<Message>& messages,
                              std::size_t tag_len, bool in_place) {
    const AeadKey ours(kAesGcmEmulated, key);
    const AeadKey reference(scalar::kAesGcm, key);
    const std::size_t n = messages.size();
    std::vector<Bytes> out(n), tags(n, Bytes(tag_len));
    std::vector<AeadChunk> batch;
    for (std::size_t i = 0; i < n; ++i) {
        out[i] = in_place ? messages[i].pt : Bytes(messages[i].pt.size());
        batch.push_back(chunk_of(messages[i], in_place ? out[i].data() : messages[i].pt.data(),
                                 out[i].data(), messages[i].pt.size(), tags[i].data()));
    }
    ours.seal(batch, tag_len);
    for (std::size_t i = 0; i < n; ++i) {
        const Message& m = messages[i];
        SCOPED_TRACE("chunk " + std::to_string(i) + ": " + std::to_string(m.pt.size()) +
                     " bytes, AAD " + std::to_string(m.aad.size()) + ", nonce " +
                     std::to_string(m.nonce.size()) + ", tag " + std::to_string(tag_len));
        Bytes want(m.pt.size()), want_tag(tag_len);
        const AeadChunk one = chunk_of(m, m.pt.data(), want.data(), m.pt.size(), want_tag.data());
        reference.seal({&one, 1}, tag_len);
        ASSERT_EQ(to_hex(out[i]), to_hex(want));
        ASSERT_EQ(to_hex(tags[i]), to_hex(want_tag));
    }

    std::vector<Bytes> opened(n);
    for (std::size_t i = 0; i < n; ++i) {
        opened[i] = in_place ? out[i] : Bytes(out[i].size());
        batch[i].in = in_place ? opened[i].data() : out[i].data();
        batch[i].out = opened[i].data();
    }
    const std::unique_ptr<bool[]> ok(new bool[n]);
    ASSERT_EQ(ours.open(batch, ok.get(), tag_len), 0u);
    for (std::size_t i = 0; i < n; ++i) {
        EXPECT_TRUE(ok[i]) << "chunk " << i;
        EXPECT_EQ(opened[i], messages[i].pt) << "chunk " << i;
    }
}

TEST(CudaEmulatedGcm, EveryLengthTo600MixedInBatchesWithEveryNonceAndTagLength) {
    std::mt19937_64 rng(22);
    for (std::size_t key_len : {16u, 24u, 32u}) {
        const Bytes key = random_bytes(rng, key_len);
        // One batch per tag length (a call has one); together they hold every length once.
        for (std::size_t t = 0; t < std::size(kTagLengths); ++t) {
            std::vector<Message> batch;
            for (std::size_t len = t; len <= 600; len += std::size(kTagLengths))
                batch.push_back({random_bytes(rng, kNonceLengths[(len / 7) % 4]),
                                 random_bytes(rng, (len * 37) % 101), random_bytes(rng, len)});
            expect_batch_like_scalar(key, batch, kTagLengths[t], t % 2 == 1);
        }
    }
}

TEST(CudaEmulatedGcm, LengthsAroundEveryThreadRoundAnd64KiB) {
    std::mt19937_64 rng(23);
    constexpr std::size_t kRound = 16 * kGcmThreads;  // bytes one pass of the threads covers
    std::vector<Message> batch;
    for (std::size_t k = 1; k <= 3; ++k)
        for (long d : {-17L, -16L, -15L, -1L, 0L, 1L, 15L, 16L, 17L}) {
            const std::size_t len = static_cast<std::size_t>(static_cast<long>(k * kRound) + d);
            batch.push_back({random_bytes(rng, 12), random_bytes(rng, len % 3 == 0 ? 0 : len % 101),
                             random_bytes(rng, len)});
        }
    for (std::size_t len : {65536u + 1u, 65536u + 13u, 65536u + 4095u, 2u * 65536u + 7u})
        batch.push_back({random_bytes(rng, 12), random_bytes(rng, 29), random_bytes(rng, len)});
    // AAD alone longer than one pass of the threads, and a message behind it.
    batch.push_back({random_bytes(rng, 13), random_bytes(rng, kRound + 33), random_bytes(rng, 5000)});
    batch.push_back({random_bytes(rng, 64), random_bytes(rng, 3 * kRound), {}});
    const Bytes key = random_bytes(rng, 32);
    expect_batch_like_scalar(key, batch, 16, false);
    expect_batch_like_scalar(key, batch, 12, true);
}

TEST(CudaEmulatedGcm, ForgedChunksFailAloneAndReleaseNothing) {
    std::mt19937_64 rng(24);
    const Bytes key = random_bytes(rng, 16);
    const AeadKey ours(kAesGcmEmulated, key);
    for (bool in_place : {false, true}) {
        SCOPED_TRACE(in_place ? "in place" : "separate buffers");
        constexpr std::size_t kChunks = 12;
        std::vector<Message> messages;
        std::vector<Bytes> cts, tags;
        std::vector<AeadChunk> batch;
        for (std::size_t i = 0; i < kChunks; ++i) {
            messages.push_back({random_bytes(rng, kNonceLengths[i % 4]), random_bytes(rng, 1 + i * 7),
                                random_bytes(rng, 1 + i * 150)});
            cts.emplace_back(messages[i].pt.size());
            tags.emplace_back(16);
        }
        for (std::size_t i = 0; i < kChunks; ++i)
            batch.push_back(chunk_of(messages[i], messages[i].pt.data(), cts[i].data(),
                                     messages[i].pt.size(), tags[i].data()));
        ours.seal(batch);
        tags[2][15] ^= 0x01;                      // a tag
        cts[5][cts[5].size() / 2] ^= 0x80;        // a ciphertext byte
        messages[9].aad[0] ^= 0x40;               // the AAD
        std::vector<Bytes> outs(kChunks);
        for (std::size_t i = 0; i < kChunks; ++i) {
            outs[i] = in_place ? cts[i] : Bytes(cts[i].size(), 0xee);
            batch[i] = chunk_of(messages[i], in_place ? outs[i].data() : cts[i].data(),
                                outs[i].data(), cts[i].size(), tags[i].data());
        }
        const std::unique_ptr<bool[]> ok(new bool[kChunks]);
        EXPECT_EQ(ours.open(batch, ok.get()), 3u);
        for (std::size_t i = 0; i < kChunks; ++i) {
            const bool forged = i == 2 || i == 5 || i == 9;
            EXPECT_EQ(ok[i], !forged) << "chunk " << i;
            if (forged)
                EXPECT_EQ(outs[i], Bytes(outs[i].size(), 0)) << "chunk " << i;
            else
                EXPECT_EQ(outs[i], messages[i].pt) << "chunk " << i;
        }
    }
}

// ---- Chunks split into pieces (kernel_api.hpp, kGcmPiecePositions) --------------------------

constexpr std::size_t kPiece = kGcmPiecePositions;

TEST(CudaGcmPieces, AreCutBackFromTheEndAndCoverEveryPositionOnce) {
    for (std::uint64_t aad_len : {0u, 1u, 16u, 17u, 16u * 4095u, 16u * 4096u + 3u, 16u * 9000u})
        for (std::uint64_t len : {0u, 1u, 16u * 4094u, 16u * 4095u, 16u * 4095u + 1u,
                                  16u * 8191u, 16u * 8192u + 5u, (16u << 20) + 9u}) {
            SCOPED_TRACE("AAD " + std::to_string(aad_len) + ", message " + std::to_string(len));
            GcmChunkDesc d{};
            d.aad_len = aad_len;
            d.len = len;
            const std::uint64_t m = gcm_positions(aad_len, len);
            std::vector<GcmPieceDesc> pieces(gcm_piece_count(m) + 3);
            const std::uint32_t n = describe_pieces(d, 7, 3, pieces.data());
            ASSERT_EQ(n, (m + kPiece - 1) / kPiece);
            EXPECT_EQ(d.first_piece, 3u);
            EXPECT_EQ(d.pieces, n);
            std::uint64_t next = 0;
            for (std::uint32_t p = 0; p < n; ++p) {
                const GcmPieceDesc& piece = pieces[3 + p];
                EXPECT_EQ(piece.chunk, 7u);
                EXPECT_EQ(piece.index, p);
                EXPECT_EQ(piece.first, next);
                ASSERT_GT(piece.end, piece.first);
                if (p == 0)
                    EXPECT_LE(piece.end - piece.first, kPiece);
                else
                    EXPECT_EQ(piece.end - piece.first, kPiece);  // only the first may be short
                next = piece.end;
            }
            EXPECT_EQ(next, m);
        }
}

// A message whose chunk has exactly `positions` GHASH positions with `aad_blocks` of AAD:
// len is trimmed by `short_by` bytes inside its last block.
Message with_positions(std::mt19937_64& rng, std::size_t positions, std::size_t aad_blocks,
                       std::size_t short_by) {
    const std::size_t data_blocks = positions - 1 - aad_blocks;
    const std::size_t len = data_blocks == 0 ? 0 : 16 * data_blocks - short_by;
    return {random_bytes(rng, 12), random_bytes(rng, 16 * aad_blocks), random_bytes(rng, len)};
}

TEST(CudaEmulatedGcm, ChunksSplitIntoPiecesAtEveryBoundaryMixedWithWholeOnes) {
    std::mt19937_64 rng(27);
    std::vector<Message> batch;
    batch.push_back({random_bytes(rng, 12), random_bytes(rng, 5), random_bytes(rng, 100)});
    for (std::size_t k = 1; k <= 3; ++k)
        for (long d : {-1L, 0L, 1L, 2L}) {
            const auto positions = static_cast<std::size_t>(static_cast<long>(k * kPiece) + d);
            batch.push_back(with_positions(rng, positions, 0, (k + 3) % 16));
            // A piece boundary inside the AAD: the AAD ends 2 positions past the first cut.
            const std::size_t first_cut = positions - (positions - 1) / kPiece * kPiece;
            batch.push_back(with_positions(rng, positions, std::min(first_cut + 2, positions - 1), 0));
        }
    // AAD alone longer than a piece, behind it a message of another two pieces and a bit.
    batch.push_back({random_bytes(rng, 13), random_bytes(rng, 16 * kPiece + 77),
                     random_bytes(rng, 2 * 16 * kPiece + 300)});
    batch.push_back({random_bytes(rng, 12), {}, random_bytes(rng, 1 << 20)});  // 17 pieces
    batch.push_back({random_bytes(rng, 12), random_bytes(rng, 3), random_bytes(rng, 64)});
    const Bytes key = random_bytes(rng, 32);
    expect_batch_like_scalar(key, batch, 16, false);
    expect_batch_like_scalar(random_bytes(rng, 16), batch, 13, true);
}

TEST(CudaEmulatedGcm, AForgeryInAnyPieceOfASplitChunkFailsIt) {
    std::mt19937_64 rng(28);
    const Bytes key = random_bytes(rng, 24);
    const AeadKey ours(kAesGcmEmulated, key);
    const Message m{random_bytes(rng, 12), random_bytes(rng, 40),
                    random_bytes(rng, 3 * 16 * kPiece + 1000)};  // 4 pieces
    Bytes ct(m.pt.size()), tag(16);
    const AeadChunk sealing = chunk_of(m, m.pt.data(), ct.data(), ct.size(), tag.data());
    ours.seal({&sealing, 1});
    // A byte in the short first piece, in each full piece, the last byte, the tag, the AAD.
    const std::size_t where[] = {3, 16 * kPiece, 2 * 16 * kPiece + 5, ct.size() - 1};
    for (std::size_t i = 0; i <= std::size(where) + 1; ++i) {
        SCOPED_TRACE("forgery " + std::to_string(i));
        Message forged_m = m;
        Bytes forged = ct, forged_tag = tag, out(ct.size(), 0xee);
        if (i < std::size(where))
            forged[where[i]] ^= 0x10;
        else if (i == std::size(where))
            forged_tag[0] ^= 0x01;
        else
            forged_m.aad[39] ^= 0x02;
        const AeadChunk opening =
            chunk_of(forged_m, forged.data(), out.data(), forged.size(), forged_tag.data());
        bool ok = true;
        EXPECT_EQ(ours.open({&opening, 1}, &ok), 1u);
        EXPECT_FALSE(ok);
        EXPECT_EQ(out, Bytes(out.size(), 0));
    }
    Bytes out(ct.size());
    const AeadChunk opening = chunk_of(m, ct.data(), out.data(), ct.size(), tag.data());
    bool ok = false;
    EXPECT_EQ(ours.open({&opening, 1}, &ok), 0u);
    EXPECT_TRUE(ok);
    EXPECT_EQ(out, m.pt);
}

// ---- The kernel with a chosen J0 -------------------------------------------------------------

// AES-GCM from an explicit J0 with the scalar backend's parts (SP 800-38D 7.1 steps 3-6).
void reference_gcm(const Bytes& key, const std::uint8_t j0[16], const Bytes& aad, const Bytes& in,
                   bool open, Bytes& out, std::uint8_t tag[16]) {
    auto ks = std::make_unique<scalar::aes::KeySchedule>();
    scalar::aes::expand_key(*ks, key.data(), key.size());
    std::uint8_t h[16] = {};
    scalar::aes::encrypt_blocks(*ks, h, h, 1);
    scalar::aes::GhashKey gk{};
    scalar::aes::ghash_init(gk, h);
    std::uint8_t counter[16];
    std::memcpy(counter, j0, 16);
    std::uint32_t low = (std::uint32_t{counter[12]} << 24) | (std::uint32_t{counter[13]} << 16) |
                        (std::uint32_t{counter[14]} << 8) | counter[15];
    low += 1;  // inc32
    for (int i = 0; i < 4; ++i) counter[12 + i] = static_cast<std::uint8_t>(low >> (24 - 8 * i));
    out.assign(in.size(), 0);
    scalar::aes::ctr32_xor(*ks, counter, in.data(), out.data(), in.size());
    scalar::aes::Block128 s{};
    scalar::aes::ghash_update(gk, s, aad.data(), aad.size());
    scalar::aes::ghash_update(gk, s, open ? in.data() : out.data(), in.size());
    scalar::aes::ghash_block(gk, s, {std::uint64_t{aad.size()} * 8, std::uint64_t{in.size()} * 8});
    std::uint8_t mask[16];
    scalar::aes::encrypt_blocks(*ks, j0, mask, 1);
    scalar::aes::store_block128(tag, s);
    for (int i = 0; i < 16; ++i) tag[i] ^= mask[i];
}

TEST(CudaGcmKernel, TheCounterWrapsInItsLow32BitsOnlyInPlaceOrNotSealingOrOpening) {
    std::mt19937_64 rng(25);
    const Bytes key = random_bytes(rng, 24);
    GcmKeyTables tables{};
    build_gcm_key_tables(key.data(), key.size(), tables);
    for (std::uint32_t start : {0xfffffff0u, 0xffffffffu, 0xfffffeffu}) {
        const Bytes nonce = random_bytes(rng, 12), aad = random_bytes(rng, 45);
        const Bytes message = random_bytes(rng, 16 * 300 + 9);  // wraps, past one thread round
        const AeadChunk chunk{nonce.data(), nonce.size(), aad.data(), aad.size(),
                              message.data(), nullptr, message.size(), nullptr};
        const GcmBatchSizes sizes = gcm_batch_sizes({&chunk, 1});
        GcmChunkDesc desc{};
        GcmPieceDesc piece{};
        Bytes packed(sizes.data_bytes), packed_aad(sizes.aad_bytes);
        pack_gcm_batch({&chunk, 1}, tables, &desc, &piece, packed.data(), packed_aad.data());
        for (int i = 0; i < 4; ++i) desc.j0[12 + i] = static_cast<std::uint8_t>(start >> (24 - 8 * i));
        for (bool open : {false, true})
            for (bool in_place : {false, true}) {
                SCOPED_TRACE(std::to_string(start) + (open ? " open" : " seal") +
                             (in_place ? " in place" : ""));
                Bytes in = packed, separate(packed.size(), 0);
                std::uint8_t* out = in_place ? in.data() : separate.data();
                alignas(16) std::uint8_t tag[16] = {};
                emulate_gcm(GcmLaunch{&tables, &desc, 1, &piece, 1, nullptr, in.data(), out,
                                      packed_aad.data(), tag, open});
                Bytes want;
                std::uint8_t want_tag[16];
                reference_gcm(key, desc.j0, aad, message, open, want, want_tag);
                EXPECT_EQ(to_hex(Bytes(out, out + message.size())), to_hex(want));
                EXPECT_EQ(to_hex(Bytes(tag, tag + 16)), to_hex(Bytes(want_tag, want_tag + 16)));
            }
    }
}

TEST(CudaGcmKernel, AnEmptyBatchAndEmptyChunksAreFine) {
    std::mt19937_64 rng(26);
    const Bytes key = random_bytes(rng, 16);
    const AeadKey ours(kAesGcmEmulated, key);
    ours.seal({});
    bool ok_none[1] = {};
    EXPECT_EQ(ours.open({}, ok_none), 0u);
    // Empty messages, with and without AAD: only the length block (and the AAD) is hashed.
    std::vector<Message> messages = {{random_bytes(rng, 12), {}, {}},
                                     {random_bytes(rng, 12), random_bytes(rng, 1), {}},
                                     {random_bytes(rng, 1), random_bytes(rng, 100), {}}};
    expect_batch_like_scalar(key, messages, 16, false);
}

}  // namespace
}  // namespace warp::cuda
