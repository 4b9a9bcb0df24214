// The cuda backend's host driver without a GPU: its tables (cuda::kAesGcm, cuda::kAes) run
// against the fake runtime (fake_cuda_runtime.cpp: deferred streams, the kernels' CPU
// emulator) and must agree with the scalar backend byte for byte. What this covers that the
// emulator's own tests do not: slicing a call (by data, AAD and descriptor bytes), the
// rotation over lanes and its waits, lanes growing for a chunk larger than a slice, the
// context pool under more callers than contexts, open's verdicts and zeroing across slices,
// in-place calls, and wiping before every free.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <thread>
#include <vector>

#include "engine/aead_key.hpp"
#include "engine/cuda/cuda.hpp"
#include "engine/cuda/kernel_api.hpp"
#include "engine/cuda/staging.hpp"
#include "engine/registry.hpp"
#include "engine/stream/chunk_pipeline.hpp"
#include "engine/stream/memory_io.hpp"
#include "tests/gpu/fake_cuda_runtime.hpp"

namespace warp::test {
namespace {

using Bytes = std::vector<std::uint8_t>;

Bytes random_bytes(std::mt19937_64& rng, std::size_t n) {
    Bytes out(n);
    for (auto& b : out) b = static_cast<std::uint8_t>(rng());
    return out;
}

std::size_t slice_bytes() { return cuda::device_info().slice_bytes; }

struct Message {
    Bytes nonce, aad, plaintext, ciphertext, tag;
};

// Seals `lens` with the cuda backend (in place or not) and with scalar, compares; then opens
// with every third chunk tampered and checks the verdicts, the zeroing and the plaintexts.
void seal_and_open(std::mt19937_64& rng, const std::vector<std::size_t>& lens, std::size_t aad_max,
                   std::size_t tag_len, bool in_place, std::size_t key_len) {
    const Bytes key = random_bytes(rng, key_len);
    const AeadKey gpu(*cuda::kAesGcm, key);
    const AeadKey scalar(*find_backend("scalar").aes_gcm, key);
    std::vector<Message> msgs(lens.size());
    std::vector<AeadChunk> gpu_chunks, scalar_chunks;
    std::vector<Bytes> want_ct(lens.size());
    std::vector<Bytes> want_tag(lens.size(), Bytes(kMaxTagSize));
    for (std::size_t i = 0; i < lens.size(); ++i) {
        Message& m = msgs[i];
        m.nonce = random_bytes(rng, rng() % 5 == 0 ? 1 + rng() % 40 : kChunkNonceSize);
        m.aad = random_bytes(rng, aad_max == 0 ? 0 : rng() % (aad_max + 1));
        m.plaintext = random_bytes(rng, lens[i]);
        m.ciphertext = m.plaintext;  // sealed in place when in_place
        m.tag.assign(kMaxTagSize, 0);
        want_ct[i].resize(lens[i]);
        gpu_chunks.push_back({m.nonce.data(), m.nonce.size(), m.aad.data(), m.aad.size(),
                              in_place ? m.ciphertext.data() : m.plaintext.data(),
                              m.ciphertext.data(), lens[i], m.tag.data()});
        scalar_chunks.push_back({m.nonce.data(), m.nonce.size(), m.aad.data(), m.aad.size(),
                                 m.plaintext.data(), want_ct[i].data(), lens[i],
                                 want_tag[i].data()});
    }
    gpu.seal(gpu_chunks, tag_len);
    scalar.seal(scalar_chunks, tag_len);
    for (std::size_t i = 0; i < lens.size(); ++i) {
        ASSERT_EQ(msgs[i].ciphertext, want_ct[i]) << "chunk " << i << " of " << lens[i] << " bytes";
        ASSERT_TRUE(
            std::equal(want_tag[i].begin(), want_tag[i].begin() + tag_len, msgs[i].tag.begin()))
            << "tag of chunk " << i;
    }

    std::vector<Bytes> opened(lens.size());
    std::vector<AeadChunk> open_chunks;
    std::size_t tampered = 0;
    for (std::size_t i = 0; i < lens.size(); ++i) {
        Message& m = msgs[i];
        if (i % 3 == 1) {
            ++tampered;
            if (!m.ciphertext.empty() && i % 2 == 1)
                m.ciphertext[rng() % m.ciphertext.size()] ^= 0x04;
            else
                m.tag[rng() % tag_len] ^= 0x01;
        }
        opened[i] = in_place ? m.ciphertext : Bytes(lens[i], 0x77);
        open_chunks.push_back({m.nonce.data(), m.nonce.size(), m.aad.data(), m.aad.size(),
                               in_place ? opened[i].data() : m.ciphertext.data(), opened[i].data(),
                               lens[i], m.tag.data()});
    }
    std::unique_ptr<bool[]> ok(new bool[lens.size()]);
    EXPECT_EQ(gpu.open(open_chunks, ok.get(), tag_len), tampered);
    for (std::size_t i = 0; i < lens.size(); ++i) {
        SCOPED_TRACE("chunk " + std::to_string(i));
        if (i % 3 == 1) {
            EXPECT_FALSE(ok[i]);
            EXPECT_EQ(opened[i], Bytes(lens[i], 0)) << "plaintext of a forged chunk released";
        } else {
            EXPECT_TRUE(ok[i]);
            EXPECT_EQ(opened[i], msgs[i].plaintext);
        }
    }
}

void ecb_both_ways(std::mt19937_64& rng, std::size_t blocks, std::size_t key_len, bool in_place) {
    const Bytes key = random_bytes(rng, key_len);
    const BlockCipherKey gpu(*cuda::kAes, key);
    const BlockCipherKey scalar(*find_backend("scalar").aes, key);
    const Bytes plaintext = random_bytes(rng, blocks * kAesBlockSize);
    Bytes want(plaintext.size());
    scalar.encrypt(plaintext.data(), want.data(), blocks);
    Bytes got = in_place ? plaintext : Bytes(plaintext.size());
    gpu.encrypt(in_place ? got.data() : plaintext.data(), got.data(), blocks);
    ASSERT_EQ(got, want) << blocks << " blocks";
    Bytes back = in_place ? got : Bytes(got.size());
    gpu.decrypt(in_place ? back.data() : got.data(), back.data(), blocks);
    ASSERT_EQ(back, plaintext) << blocks << " blocks";
}

TEST(CudaDriver, OpensTheFakeDeviceWithSlicesAndStreams) {
    const cuda::DeviceCheck device = cuda::open_device();
    ASSERT_TRUE(device.usable) << device.reason;
    EXPECT_NE(device.reason.find("fake GPU"), std::string::npos) << device.reason;
    EXPECT_GT(cuda::device_info().slice_bytes, 0u);
    EXPECT_GE(cuda::device_info().streams, 2u);
    EXPECT_GE(cuda::kAesGcm->batch_bytes, 2 * cuda::device_info().slice_bytes);
}

// The kernels' shared memory (about 100 KiB per GCM thread block) and sm_90 code decide which
// devices can run them; the others are refused with a reason, not failed launches.
TEST(CudaDriver, DevicesWithoutTheKernelsSharedMemoryOrComputeCapabilityAreRefused) {
    EXPECT_TRUE(cuda::check_device("NVIDIA H200", 9, 0, 227 * 1024).usable);
    EXPECT_TRUE(cuda::check_device("NVIDIA B200", 10, 0, 227 * 1024).usable);
    const cuda::DeviceCheck small = cuda::check_device("NVIDIA GeForce RTX 5090", 12, 0, 99 * 1024);
    EXPECT_FALSE(small.usable);
    EXPECT_NE(small.reason.find("RTX 5090"), std::string::npos) << small.reason;
    EXPECT_NE(small.reason.find("shared memory"), std::string::npos) << small.reason;
    const cuda::DeviceCheck old = cuda::check_device("NVIDIA A100", 8, 0, 163 * 1024);
    EXPECT_FALSE(old.usable);
    EXPECT_NE(old.reason.find("compute capability 8.0"), std::string::npos) << old.reason;
}

TEST(CudaDriver, SmallBatchesAtEveryTagLengthAndKeySize) {
    std::mt19937_64 rng(1);
    seal_and_open(rng, {}, 0, 16, false, 32);
    seal_and_open(rng, {0}, 0, 16, false, 32);
    std::size_t round = 0;
    for (std::size_t tag_len : {4u, 8u, 12u, 13u, 14u, 15u, 16u})
        for (std::size_t key_len : {16u, 24u, 32u})
            seal_and_open(rng, {0, 1, 15, 16, 17, 255, 4096, 4097}, 70, tag_len, ++round % 2 == 0,
                          key_len);
}

TEST(CudaDriver, ABatchOfManySlicesRotatesOverTheLanes) {
    std::mt19937_64 rng(2);
    std::vector<std::size_t> lens(100, 65536);  // ~3 slices per lane
    for (std::size_t i = 0; i < lens.size(); i += 7) lens[i] = 1 + rng() % 70000;
    seal_and_open(rng, lens, 40, 16, false, 32);
    seal_and_open(rng, lens, 0, 16, true, 32);
}

TEST(CudaDriver, AChunkLargerThanASliceGrowsItsLane) {
    std::mt19937_64 rng(3);
    seal_and_open(rng, {1000, slice_bytes() + 12345, 5000, 2 * slice_bytes() + 7, 64}, 16, 16,
                  false, 32);
    EXPECT_EQ(fake_cuda::unwiped_frees(), 0) << "a lane freed its old buffers without wiping";
}

TEST(CudaDriver, ChunksSplitIntoPiecesShareSlicesWithWholeOnes) {
    // 64 KiB of data is one piece (kGcmPiecePositions): around one, two and sixteen pieces,
    // with AAD, beside small chunks, and one larger than a slice.
    std::mt19937_64 rng(17);
    constexpr std::size_t kPieceBytes = 16 * cuda::kGcmPiecePositions;
    seal_and_open(rng, {100, kPieceBytes - 16, kPieceBytes, kPieceBytes + 1, 5,
                        2 * kPieceBytes + 33, 16 * kPieceBytes, 0, slice_bytes() + 3},
                  50, 16, false, 32);
    seal_and_open(rng, {kPieceBytes + 17, 7, 3 * kPieceBytes}, 0, 12, true, 16);
}

TEST(CudaDriver, ThousandsOfTinyChunksWithAadAreSlicedByTheirDescriptorsToo) {
    std::mt19937_64 rng(4);
    std::vector<std::size_t> lens(20000);
    for (auto& len : lens) len = rng() % 33;
    seal_and_open(rng, lens, 200, 16, false, 32);
}

TEST(CudaDriver, RawAesAcrossSlicesBothWaysAndInPlace) {
    std::mt19937_64 rng(5);
    const std::size_t slice_blocks = slice_bytes() / kAesBlockSize;
    for (std::size_t key_len : {16u, 24u, 32u}) {
        ecb_both_ways(rng, 1, key_len, false);
        ecb_both_ways(rng, 257, key_len, true);
        ecb_both_ways(rng, 3 * slice_blocks + 5, key_len, false);
        ecb_both_ways(rng, 4 * slice_blocks, key_len, true);
    }
}

TEST(CudaDriver, MoreConcurrentCallersThanPooledContexts) {
    // GoogleTest records failures from any thread.
    std::vector<std::thread> threads;
    for (unsigned t = 0; t < cuda::ContextPool::kMaxContexts + 4; ++t)
        threads.emplace_back([t] {
            std::mt19937_64 rng(100 + t);
            for (int round = 0; round < 2; ++round) {
                std::vector<std::size_t> lens(24);
                for (auto& len : lens) len = rng() % 100000;
                seal_and_open(rng, lens, 30, 16, round == 1, 32);
                ecb_both_ways(rng, 1 + rng() % 200000, 16, round == 1);
            }
        });
    for (std::thread& t : threads) t.join();
}

// ---- Pinned caller memory: no copy of the data on the host ----------------------------------

constexpr std::size_t kTag = 16;

// Chunks of `chunk` bytes laid out as the pipeline lays them: plaintext back to back in
// `plain`, records (ciphertext || tag) back to back in `records`.
std::vector<AeadChunk> seal_chunks(const Bytes& plain, Bytes& records, std::size_t chunk,
                                   const Bytes& nonces) {
    std::vector<AeadChunk> chunks;
    for (std::size_t at = 0, i = 0; at < plain.size(); at += chunk, ++i) {
        const std::size_t len = std::min(chunk, plain.size() - at);
        std::uint8_t* rec = records.data() + i * (chunk + kTag);
        chunks.push_back({nonces.data() + 12 * i, 12, nullptr, 0, plain.data() + at, rec, len,
                          rec + len});
    }
    return chunks;
}

std::vector<AeadChunk> open_chunks(Bytes& records, Bytes& opened, std::size_t chunk,
                                   const Bytes& nonces) {
    std::vector<AeadChunk> chunks;
    for (std::size_t at = 0, i = 0; at < opened.size(); at += chunk, ++i) {
        const std::size_t len = std::min(chunk, opened.size() - at);
        std::uint8_t* rec = records.data() + i * (chunk + kTag);
        chunks.push_back({nonces.data() + 12 * i, 12, nullptr, 0, rec, opened.data() + at, len,
                          rec + len});
    }
    return chunks;
}

TEST(CudaDriver, ChunksInPinnedMemoryTravelStraightToAndFromTheDevice) {
    std::mt19937_64 rng(21);
    const Bytes key = random_bytes(rng, 32);
    const AeadKey gpu(*cuda::kAesGcm, key);
    const AeadKey scalar(*find_backend("scalar").aes_gcm, key);
    constexpr std::size_t kChunk = 64 * 1024;
    constexpr std::size_t kChunks = 70;  // more than two slices
    const Bytes plain = random_bytes(rng, kChunks * kChunk - 1000);  // the last chunk shorter
    const Bytes nonces = random_bytes(rng, 12 * kChunks);
    const std::size_t total = plain.size();
    Bytes want(total + kTag * kChunks);
    scalar.seal(seal_chunks(plain, want, kChunk, nonces));

    Bytes pinned_plain = plain, records(want.size()), opened(total);
    {
        const PinnedRange pins[] = {{gpu, pinned_plain.data(), pinned_plain.size()},
                                    {gpu, records.data(), records.size()},
                                    {gpu, opened.data(), opened.size()}};
        for (const PinnedRange& pin : pins) ASSERT_TRUE(pin.pinned());
        EXPECT_EQ(fake_cuda::registered_buffers(), 3);

        fake_cuda::reset_copy_tally();
        gpu.seal(seal_chunks(pinned_plain, records, kChunk, nonces));
        EXPECT_EQ(records, want);
        fake_cuda::CopyTally tally = fake_cuda::copy_tally();
        EXPECT_EQ(tally.registered, 2 * total) << "every byte once each way, from and to the chunks";
        EXPECT_EQ(tally.pageable, 0u);
        EXPECT_LT(tally.staged, total / 50) << "staged: key tables, descriptors, tags only";

        fake_cuda::reset_copy_tally();
        std::vector<AeadChunk> chunks = open_chunks(records, opened, kChunk, nonces);
        std::unique_ptr<bool[]> ok(new bool[chunks.size()]);
        EXPECT_EQ(gpu.open(chunks, ok.get()), 0u);
        EXPECT_EQ(opened, plain);
        tally = fake_cuda::copy_tally();
        EXPECT_EQ(tally.registered, 2 * total);
        EXPECT_EQ(tally.pageable, 0u);
        EXPECT_LT(tally.staged, total / 50);

        // A forged chunk's plaintext, copied straight into `opened`, is still zeroed.
        records[5 * (kChunk + kTag) + 100] ^= 0x20;
        EXPECT_EQ(gpu.open(chunks, ok.get()), 1u);
        for (std::size_t i = 0; i < chunks.size(); ++i) EXPECT_EQ(ok[i], i != 5) << i;
        EXPECT_EQ(Bytes(opened.begin() + 5 * kChunk, opened.begin() + 6 * kChunk), Bytes(kChunk, 0));
        EXPECT_TRUE(std::equal(opened.begin(), opened.begin() + 5 * kChunk, plain.begin()));
        records[5 * (kChunk + kTag) + 100] ^= 0x20;
    }
    EXPECT_EQ(fake_cuda::registered_buffers(), 0);

    // The same chunks unpinned: through the staging buffers, as before.
    fake_cuda::reset_copy_tally();
    gpu.seal(seal_chunks(pinned_plain, records, kChunk, nonces));
    EXPECT_EQ(records, want);
    const fake_cuda::CopyTally tally = fake_cuda::copy_tally();
    EXPECT_EQ(tally.registered, 0u);
    EXPECT_EQ(tally.pageable, 0u);
    EXPECT_GE(tally.staged, 2 * total);
}

TEST(CudaDriver, ThePipelinePinsItsBatchesAndTheirBytesGoStraightToTheDevice) {
    std::mt19937_64 rng(22);
    const Bytes key = random_bytes(rng, 16);
    const AeadKey gpu(*cuda::kAesGcm, key);
    const AeadKey scalar(*find_backend("scalar").aes_gcm, key);
    const Bytes plain = random_bytes(rng, (17 << 20) + 123);  // three 8 MiB batches
    const auto nonce = [](std::uint64_t index, std::uint8_t* n) {
        std::memset(n, 0, 12);
        std::memcpy(n + 4, &index, sizeof index);
    };
    const auto seal_with = [&](const AeadKey& key_of, unsigned threads) {
        stream::ChunkPipeline pipeline(key_of, stream::layout_for(key_of, 1 << 16), 0, threads);
        stream::SpanSource in(plain);
        stream::VectorSink out;
        pipeline.seal(in, out, nonce, {});
        return out.bytes;
    };
    const Bytes want = seal_with(scalar, 1);
    for (unsigned threads : {1u, 2u}) {
        SCOPED_TRACE(std::to_string(threads) + " threads");
        Bytes sealed, opened_bytes;
        {
            stream::ChunkPipeline pipeline(gpu, stream::layout_for(gpu, 1 << 16), 0, threads);
            EXPECT_EQ(fake_cuda::registered_buffers(),
                      2 * static_cast<long>(stream::batches_in_flight(threads)));
            fake_cuda::reset_copy_tally();
            stream::SpanSource in(plain);
            stream::VectorSink out;
            pipeline.seal(in, out, nonce, {});
            sealed = out.bytes;
            fake_cuda::CopyTally tally = fake_cuda::copy_tally();
            EXPECT_EQ(tally.registered, 2 * plain.size());
            EXPECT_EQ(tally.pageable, 0u);
            EXPECT_LT(tally.staged, plain.size() / 50);

            fake_cuda::reset_copy_tally();
            stream::SpanSource records(sealed);
            stream::VectorSink opened;
            const auto result = pipeline.open(records, opened, nonce, {});
            EXPECT_FALSE(result.failed_chunk.has_value());
            opened_bytes = opened.bytes;
            tally = fake_cuda::copy_tally();
            EXPECT_EQ(tally.registered, 2 * plain.size());
            EXPECT_EQ(tally.pageable, 0u);
        }
        EXPECT_EQ(fake_cuda::registered_buffers(), 0) << "unpinned when the pipeline ends";
        EXPECT_EQ(sealed, want);
        EXPECT_EQ(opened_bytes, plain);
    }
}

}  // namespace
}  // namespace warp::test
