// Every accelerated backend under test (backends_under_test.hpp) against the scalar reference,
// byte for byte: every message length from 0 to 16 x 16 + 15 bytes (the widest kernel's blocks in
// flight, plus every partial final block), AAD lengths around block edges, every key size, batches
// of many chunks of mixed lengths in one call, and raw AES blocks. The vector files and the
// OpenSSL differential tests cover the same backends from the outside; this test walks the edges
// of the kernels' loops.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "engine/aead_key.hpp"
#include "engine/registry.hpp"
#include "tests/support/backends_under_test.hpp"
#include "tests/support/hex.hpp"
#include "tests/support/random_bytes.hpp"
#include "tests/support/vectors.hpp"

namespace warp::test {
namespace {

constexpr std::size_t kMaxTail = 16 * 16 + 15;

struct Sealed {
    Bytes ct;
    Bytes tag;
};

Sealed seal_one(const AeadKey& key, const Bytes& nonce, const Bytes& aad, const Bytes& pt) {
    Sealed s{Bytes(pt.size()), Bytes(kMaxTagSize)};
    const AeadChunk chunk{nonce.data(), nonce.size(), aad.data(), aad.size(), pt.data(),
                          s.ct.data(), pt.size(), s.tag.data()};
    key.seal({&chunk, 1});
    return s;
}

// ours seals pt as the reference does, and opens the reference's ciphertext (out of place).
void expect_like_scalar(const AeadKey& ours, const AeadKey& reference, const Bytes& nonce,
                        const Bytes& aad, const Bytes& pt) {
    const Sealed got = seal_one(ours, nonce, aad, pt);
    const Sealed want = seal_one(reference, nonce, aad, pt);
    ASSERT_EQ(to_hex(got.ct), to_hex(want.ct));
    ASSERT_EQ(to_hex(got.tag), to_hex(want.tag));

    Bytes opened(pt.size()), tag = want.tag;
    bool ok = false;
    const AeadChunk chunk{nonce.data(), nonce.size(), aad.data(), aad.size(),
                          want.ct.data(), opened.data(), pt.size(), tag.data()};
    ASSERT_EQ(ours.open({&chunk, 1}, &ok), 0u);
    ASSERT_TRUE(ok);
    ASSERT_EQ(to_hex(opened), to_hex(pt));
}

const Backend& scalar() { return find_backend("scalar"); }

std::vector<const Backend*> accelerated() {
    std::vector<const Backend*> list;
    for (const Backend* b : backends_under_test())
        if (b->name != "scalar") list.push_back(b);
    return list;
}

struct Suite {
    Aead aead;
    std::size_t key_len;
    const char* name;
};
constexpr Suite kSuites[] = {{Aead::aes_gcm, 16, "aes-128-gcm"},
                             {Aead::aes_gcm, 24, "aes-192-gcm"},
                             {Aead::aes_gcm, 32, "aes-256-gcm"},
                             {Aead::chacha20_poly1305, 32, "chacha20-poly1305"}};

class AgainstScalar : public ::testing::TestWithParam<const Backend*> {};

TEST_P(AgainstScalar, EveryTailLengthSealsAndOpensLikeScalar) {
    const Backend& backend = *GetParam();
    std::mt19937_64 rng(7);
    for (const Suite& suite : kSuites) {
        if (backend.aead(suite.aead) == nullptr) continue;
        const Bytes key_bytes = random_bytes(rng, suite.key_len);
        const AeadKey ours(*backend.aead(suite.aead), key_bytes);
        const AeadKey reference(*scalar().aead(suite.aead), key_bytes);
        for (std::size_t len = 0; len <= kMaxTail; ++len) {
            SCOPED_TRACE(std::string(suite.name) + " length " + std::to_string(len));
            const Bytes nonce = random_bytes(rng, kChunkNonceSize);
            const Bytes aad = random_bytes(rng, len % 37);
            const Bytes pt = random_bytes(rng, len);
            ASSERT_NO_FATAL_FAILURE(expect_like_scalar(ours, reference, nonce, aad, pt));
        }
    }
}

// The loop edges of the multi-step kernels, beyond kMaxTail: the AVX2 ChaCha20-Poly1305 takes a
// 192-byte head from its first keystream call, then 512-byte steps with the MAC stitched in (a
// short last step of 257..511 bytes goes through a buffer), then a tail of up to 256 bytes; its
// open MACs ahead of decrypting so that in place works. Every length 192 + 512 k + t for k in
// 0..2 and t in 0..511 seals like scalar, opens out of place and in place, and with a damaged
// tag fails with its output zeroed.
TEST_P(AgainstScalar, EveryLengthAcrossStitchedStepsLikeScalarAndInPlace) {
    const Backend& backend = *GetParam();
    std::mt19937_64 rng(13);
    constexpr std::size_t kHead = 192, kStep = 512;
    for (const Suite& suite : kSuites) {
        if (backend.aead(suite.aead) == nullptr) continue;
        const Bytes key_bytes = random_bytes(rng, suite.key_len);
        const AeadKey ours(*backend.aead(suite.aead), key_bytes);
        const AeadKey reference(*scalar().aead(suite.aead), key_bytes);
        // Up to four 512-byte steps: two of x86-avx512's 1024-byte steps, and its short last
        // steps on both sides of the 512 bytes where the AVX2 kernel takes over.
        for (std::size_t steps = 0; steps <= 4; ++steps) {
            for (std::size_t tail = 0; tail < kStep; ++tail) {
                const std::size_t len = kHead + steps * kStep + tail;
                SCOPED_TRACE(std::string(suite.name) + " length " + std::to_string(len));
                const Bytes nonce = random_bytes(rng, kChunkNonceSize);
                const Bytes aad = random_bytes(rng, tail % 3 == 0 ? tail % 41 : 0);
                const Bytes pt = random_bytes(rng, len);
                ASSERT_NO_FATAL_FAILURE(expect_like_scalar(ours, reference, nonce, aad, pt));

                const Sealed want = seal_one(reference, nonce, aad, pt);
                Bytes in_place = want.ct, tag = want.tag;
                bool ok = false;
                const AeadChunk same{nonce.data(), nonce.size(), aad.data(), aad.size(),
                                     in_place.data(), in_place.data(), len, tag.data()};
                ASSERT_EQ(ours.open({&same, 1}, &ok), 0u);
                ASSERT_TRUE(ok);
                ASSERT_EQ(to_hex(in_place), to_hex(pt));

                if (tail % 7 != 0) continue;  // the forgery check on every seventh length
                std::copy(want.ct.begin(), want.ct.end(), in_place.begin());  // same buffer
                tag[tail % kMaxTagSize] ^= 0x80;
                ASSERT_EQ(ours.open({&same, 1}, &ok), 1u);
                ASSERT_FALSE(ok);
                ASSERT_EQ(to_hex(in_place), std::string(2 * len, '0'));
            }
        }
    }
}

// Long messages, whose counters cross a carry out of their lowest byte at every position in a
// step: the 512-bit GCM kernel makes a step's counter blocks with one byte addition when no
// carry leaves that byte, and the byte-reversed way otherwise (gcm_ctr.hpp). Nonces of 12 bytes
// start every message's counter at 2; other lengths hash to a counter anywhere, so forty random
// ones of 16 and 8 bytes put the carry at a different block of the step each time. In place too.
TEST_P(AgainstScalar, LongMessagesWhoseCountersCarryAnywhereLikeScalar) {
    const Backend& backend = *GetParam();
    std::mt19937_64 rng(29);
    for (const Suite& suite : kSuites) {
        if (suite.aead != Aead::aes_gcm || backend.aead(suite.aead) == nullptr) continue;
        const Bytes key_bytes = random_bytes(rng, suite.key_len);
        const AeadKey ours(*backend.aead(suite.aead), key_bytes);
        const AeadKey reference(*scalar().aead(suite.aead), key_bytes);
        for (int i = 0; i < 40; ++i) {
            const std::size_t nonce_len = i == 0 ? kChunkNonceSize : (i % 2 == 0 ? 16 : 8);
            const std::size_t len = 16 * 1024 + static_cast<std::size_t>(i) * 61;
            SCOPED_TRACE(std::string(suite.name) + " message " + std::to_string(i));
            const Bytes nonce = random_bytes(rng, nonce_len);
            const Bytes pt = random_bytes(rng, len);
            ASSERT_NO_FATAL_FAILURE(expect_like_scalar(ours, reference, nonce, {}, pt));
            const Sealed want = seal_one(reference, nonce, {}, pt);
            Bytes in_place = want.ct, tag = want.tag;
            bool ok = false;
            const AeadChunk same{nonce.data(), nonce.size(), nullptr, 0, in_place.data(),
                                 in_place.data(), len, tag.data()};
            ASSERT_EQ(ours.open({&same, 1}, &ok), 0u);
            ASSERT_TRUE(ok);
            ASSERT_EQ(to_hex(in_place), to_hex(pt));
        }
    }
}

TEST_P(AgainstScalar, AMixedBatchEqualsItsChunksSealedOneByOne) {
    const Backend& backend = *GetParam();
    std::mt19937_64 rng(11);
    for (const Suite& suite : kSuites) {
        if (backend.aead(suite.aead) == nullptr) continue;
        SCOPED_TRACE(suite.name);
        const Bytes key_bytes = random_bytes(rng, suite.key_len);
        const AeadKey ours(*backend.aead(suite.aead), key_bytes);
        const AeadKey reference(*scalar().aead(suite.aead), key_bytes);
        constexpr std::size_t kChunks = 100;
        std::vector<Bytes> nonces, aads, pts, cts, tags;
        std::vector<AeadChunk> batch;
        for (std::size_t i = 0; i < kChunks; ++i) {
            nonces.push_back(random_bytes(rng, kChunkNonceSize));
            aads.push_back(random_bytes(rng, rng() % 3 == 0 ? rng() % 64 : 0));
            pts.push_back(random_bytes(rng, rng() % 5000));
            cts.emplace_back(pts.back().size());
            tags.emplace_back(kMaxTagSize);
        }
        for (std::size_t i = 0; i < kChunks; ++i)
            batch.push_back({nonces[i].data(), nonces[i].size(), aads[i].data(), aads[i].size(),
                             pts[i].data(), cts[i].data(), pts[i].size(), tags[i].data()});
        ours.seal(batch);
        for (std::size_t i = 0; i < kChunks; ++i) {
            const Sealed want = seal_one(reference, nonces[i], aads[i], pts[i]);
            ASSERT_EQ(to_hex(cts[i]), to_hex(want.ct)) << "chunk " << i;
            ASSERT_EQ(to_hex(tags[i]), to_hex(want.tag)) << "chunk " << i;
        }
        // Open the batch in place with one tag damaged: only that chunk fails and is zeroed.
        tags[42][0] ^= 1;
        for (std::size_t i = 0; i < kChunks; ++i) batch[i].in = batch[i].out = cts[i].data();
        const std::unique_ptr<bool[]> ok(new bool[kChunks]);
        ASSERT_EQ(ours.open(batch, ok.get()), 1u);
        for (std::size_t i = 0; i < kChunks; ++i) {
            EXPECT_EQ(ok[i], i != 42) << "chunk " << i;
            if (i == 42)
                EXPECT_EQ(to_hex(cts[i]), std::string(2 * cts[i].size(), '0'));
            else
                EXPECT_EQ(to_hex(cts[i]), to_hex(pts[i])) << "chunk " << i;
        }
    }
}

class RawAesAgainstScalar : public ::testing::TestWithParam<const Backend*> {};

TEST_P(RawAesAgainstScalar, EncryptsAndDecryptsLikeScalar) {
    const Backend& backend = *GetParam();
    std::mt19937_64 rng(13);
    for (std::size_t key_len : {16u, 24u, 32u}) {
        const Bytes key_bytes = random_bytes(rng, key_len);
        const BlockCipherKey ours(*backend.aes, key_bytes);
        const BlockCipherKey reference(*scalar().aes, key_bytes);
        for (std::size_t blocks = 0; blocks <= 40; ++blocks) {
            const Bytes in = random_bytes(rng, blocks * kAesBlockSize);
            Bytes got(in.size()), want(in.size()), back(in.size());
            ours.encrypt(in.data(), got.data(), blocks);
            reference.encrypt(in.data(), want.data(), blocks);
            ASSERT_EQ(to_hex(got), to_hex(want)) << key_len << "-byte key, " << blocks << " blocks";
            ours.decrypt(got.data(), back.data(), blocks);
            ASSERT_EQ(to_hex(back), to_hex(in)) << key_len << "-byte key, " << blocks << " blocks";
        }
    }
}

std::vector<const Backend*> accelerated_with_raw_aes() {
    std::vector<const Backend*> list;
    for (const Backend* b : accelerated())
        if (b->aes != nullptr) list.push_back(b);
    return list;
}

std::string backend_test_name(const ::testing::TestParamInfo<const Backend*>& p) {
    return test_name_part(p.param->name);
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(AgainstScalar);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(RawAesAgainstScalar);
INSTANTIATE_TEST_SUITE_P(Backends, AgainstScalar, ::testing::ValuesIn(accelerated()),
                         backend_test_name);
INSTANTIATE_TEST_SUITE_P(Backends, RawAesAgainstScalar,
                         ::testing::ValuesIn(accelerated_with_raw_aes()), backend_test_name);

}  // namespace
}  // namespace warp::test
