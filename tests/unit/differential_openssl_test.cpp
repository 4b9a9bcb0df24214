// Differential tests: OpenSSL's libcrypto (EVP; a test-only oracle, never linked into warpcrypt)
// against every backend under test (backends_under_test.hpp), for AES-128/192/256-GCM,
// ChaCha20-Poly1305 and raw AES-ECB. Random keys, nonces, AAD and messages from a seeded PRNG: set
// WARPCRYPT_TEST_SEED to replay a failure (the seed is printed with every failure). Message sizes
// cover the block and batch edges (0, 1, 15, 16, 17, ..., 1 MiB), buffers sit at offsets 0..15,
// and every buffer is fenced by guard bytes so a write outside it is caught.
//
// Runtime: the scalar AES-GCM runs at about 100 MB/s, so only a handful of cases are 1 MiB;
// the whole file takes a few seconds with -O2.
#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/aead_key.hpp"
#include "engine/registry.hpp"
#include "tests/support/backends_under_test.hpp"
#include "tests/support/hex.hpp"
#include "tests/support/vectors.hpp"

namespace warp::test {
namespace {

// ---- Seeded randomness.

constexpr std::uint64_t kDefaultSeed = 0x7761727063727970;  // "warpcryp"

std::uint64_t test_seed() {
    const char* env = std::getenv("WARPCRYPT_TEST_SEED");
    if (env == nullptr || *env == '\0') return kDefaultSeed;
    char* end = nullptr;
    const unsigned long long seed = std::strtoull(env, &end, 0);
    if (*end != '\0') throw std::invalid_argument("WARPCRYPT_TEST_SEED is not a number");
    return seed;
}

std::string seed_trace() { return "WARPCRYPT_TEST_SEED=" + std::to_string(test_seed()); }

// FNV-1a: a stable hash, so that each test's stream depends only on the seed and its name.
std::uint64_t stable_hash(std::string_view text) {
    std::uint64_t h = 0xcbf29ce484222325;
    for (char c : text) h = (h ^ static_cast<std::uint8_t>(c)) * 0x100000001b3;
    return h;
}

class Random {
public:
    explicit Random(std::string_view stream) : gen_(test_seed() ^ stable_hash(stream)) {}

    // Uniform in [lo, hi].
    std::size_t between(std::size_t lo, std::size_t hi) {
        return std::uniform_int_distribution<std::size_t>(lo, hi)(gen_);
    }
    void fill(std::uint8_t* p, std::size_t n) {
        for (std::size_t i = 0; i < n; ++i) p[i] = static_cast<std::uint8_t>(gen_());
    }
    Bytes bytes(std::size_t n) {
        Bytes b(n);
        fill(b.data(), n);
        return b;
    }

private:
    std::mt19937_64 gen_;
};

// A buffer of `size` bytes at `offset` (0..63) from a 64-byte-aligned block (a cache line,
// and an AVX-512 vector), fenced on both sides by guard bytes that no operation may touch.
class Buffer {
public:
    Buffer(std::size_t size, std::size_t offset)
        : storage_(kGuard + kLine - 1 + offset + size + kGuard, kGuardByte), size_(size) {
        const auto first_free = reinterpret_cast<std::uintptr_t>(storage_.data()) + kGuard;
        offset_ = kGuard + (kLine - first_free % kLine) % kLine + offset;
    }

    std::uint8_t* data() { return storage_.data() + offset_; }
    std::size_t size() const { return size_; }
    Bytes bytes() const {
        return Bytes(storage_.begin() + static_cast<long>(offset_),
                     storage_.begin() + static_cast<long>(offset_ + size_));
    }
    bool guards_intact() const {
        const auto is_guard = [](std::uint8_t b) { return b == kGuardByte; };
        return std::all_of(storage_.begin(), storage_.begin() + static_cast<long>(offset_), is_guard) &&
               std::all_of(storage_.begin() + static_cast<long>(offset_ + size_), storage_.end(), is_guard);
    }

private:
    static constexpr std::size_t kGuard = 64;
    static constexpr std::size_t kLine = 64;
    static constexpr std::uint8_t kGuardByte = 0xc3;
    Bytes storage_;
    std::size_t offset_ = 0;
    std::size_t size_;
};

::testing::AssertionResult same_bytes(const std::uint8_t* expected, const std::uint8_t* got,
                                      std::size_t len) {
    const auto [e, g] = std::mismatch(expected, expected + len, got);
    if (e == expected + len) return ::testing::AssertionSuccess();
    const auto at = static_cast<std::size_t>(e - expected);
    return ::testing::AssertionFailure() << "first difference at byte " << at << " of " << len
                                         << ": expected " << int{*e} << ", got " << int{*g};
}

bool all_zero(const std::uint8_t* p, std::size_t n) {
    return std::all_of(p, p + n, [](std::uint8_t b) { return b == 0; });
}

// ---- The oracle: OpenSSL EVP, one message per call.

struct CtxFree {
    void operator()(EVP_CIPHER_CTX* ctx) const { EVP_CIPHER_CTX_free(ctx); }
};
using EvpCtx = std::unique_ptr<EVP_CIPHER_CTX, CtxFree>;

void check(int ret, const char* what) {
    if (ret != 1) throw std::runtime_error(std::string("OpenSSL failed: ") + what);
}

const EVP_CIPHER* evp_aead(Aead aead, std::size_t key_len) {
    if (aead == Aead::chacha20_poly1305) return EVP_chacha20_poly1305();
    return key_len == 16 ? EVP_aes_128_gcm() : key_len == 24 ? EVP_aes_192_gcm() : EVP_aes_256_gcm();
}

// One AEAD message's inputs, shared by both implementations.
struct Message {
    Aead aead;
    Bytes key;
    Bytes nonce;
    Bytes aad;
    std::size_t tag_len = kMaxTagSize;
};

EvpCtx evp_begin(const Message& m, bool encrypt) {
    EvpCtx ctx(EVP_CIPHER_CTX_new());
    if (!ctx) throw std::runtime_error("EVP_CIPHER_CTX_new");
    const EVP_CIPHER* cipher = evp_aead(m.aead, m.key.size());
    check(EVP_CipherInit_ex(ctx.get(), cipher, nullptr, nullptr, nullptr, encrypt), "init");
    check(EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_AEAD_SET_IVLEN, static_cast<int>(m.nonce.size()),
                              nullptr),
          "set IV length");
    check(EVP_CipherInit_ex(ctx.get(), nullptr, nullptr, m.key.data(), m.nonce.data(), encrypt),
          "key and IV");
    int n = 0;
    if (!m.aad.empty())
        check(EVP_CipherUpdate(ctx.get(), nullptr, &n, m.aad.data(), static_cast<int>(m.aad.size())),
              "AAD");
    return ctx;
}

void openssl_seal(const Message& m, const std::uint8_t* pt, std::size_t len, std::uint8_t* ct,
                  std::uint8_t* tag) {
    EvpCtx ctx = evp_begin(m, true);
    int n = 0;
    if (len != 0) check(EVP_EncryptUpdate(ctx.get(), ct, &n, pt, static_cast<int>(len)), "encrypt");
    int final_n = 0;
    check(EVP_EncryptFinal_ex(ctx.get(), ct + n, &final_n), "encrypt final");
    if (static_cast<std::size_t>(n + final_n) != len) throw std::runtime_error("short encrypt");
    check(EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_AEAD_GET_TAG, static_cast<int>(m.tag_len), tag),
          "get tag");
}

bool openssl_open(const Message& m, const std::uint8_t* ct, std::size_t len,
                  const std::uint8_t* tag, std::uint8_t* pt) {
    EvpCtx ctx = evp_begin(m, false);
    int n = 0;
    if (len != 0) check(EVP_DecryptUpdate(ctx.get(), pt, &n, ct, static_cast<int>(len)), "decrypt");
    Bytes tag_copy(tag, tag + m.tag_len);  // the ctrl takes a non-const pointer
    check(EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_AEAD_SET_TAG, static_cast<int>(m.tag_len),
                              tag_copy.data()),
          "set tag");
    int final_n = 0;
    return EVP_DecryptFinal_ex(ctx.get(), pt + n, &final_n) == 1;
}

// ---- Ours, one message (batches are built where they are tested).

AeadChunk chunk_of(const Message& m, const std::uint8_t* in, std::uint8_t* out, std::size_t len,
                   std::uint8_t* tag) {
    return AeadChunk{m.nonce.data(), m.nonce.size(), m.aad.data(), m.aad.size(), in, out, len, tag};
}

void our_seal(const AeadKey& key, const Message& m, const std::uint8_t* pt, std::uint8_t* ct,
              std::size_t len, std::uint8_t* tag) {
    const AeadChunk c = chunk_of(m, pt, ct, len, tag);
    key.seal({&c, 1}, m.tag_len);
}

// True when the message authenticated; `ok` must agree with the return value.
bool our_open(const AeadKey& key, const Message& m, const std::uint8_t* ct, std::uint8_t* pt,
              std::size_t len, std::uint8_t* tag) {
    const AeadChunk c = chunk_of(m, ct, pt, len, tag);
    bool ok = false;
    const std::size_t failures = key.open({&c, 1}, &ok, m.tag_len);
    EXPECT_EQ(failures == 0, ok) << "open's return value and ok[] disagree";
    return failures == 0 && ok;
}

// ---- Parameters: every usable backend x every AEAD it implements x key size.

struct AeadParam {
    const Backend* backend;
    Aead aead;
    std::size_t key_len;
    std::string_view cipher;  // for test names: "aes_128_gcm", "chacha20_poly1305"
};

void PrintTo(const AeadParam& p, std::ostream* os) { *os << p.backend->name << " " << p.cipher; }

std::vector<AeadParam> aead_params() {
    std::vector<AeadParam> params;
    for (const Backend* b : backends_under_test()) {
        if (b->aes_gcm != nullptr) {
            params.push_back({b, Aead::aes_gcm, 16, "aes_128_gcm"});
            params.push_back({b, Aead::aes_gcm, 24, "aes_192_gcm"});
            params.push_back({b, Aead::aes_gcm, 32, "aes_256_gcm"});
        }
        if (b->chacha20_poly1305 != nullptr)
            params.push_back({b, Aead::chacha20_poly1305, 32, "chacha20_poly1305"});
    }
    return params;
}

class OpenSslAead : public ::testing::TestWithParam<AeadParam> {
protected:
    const AeadImpl& impl() const { return *GetParam().backend->aead(GetParam().aead); }
    bool is_gcm() const { return GetParam().aead == Aead::aes_gcm; }
    std::string stream_name() const {
        return std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "/" +
               std::string(GetParam().backend->name) + "/" + std::string(GetParam().cipher);
    }

    // A fresh random message: key, nonce (12 bytes unless asked), AAD of 0..300 bytes.
    Message random_message(Random& rng, std::size_t nonce_len = kChunkNonceSize) const {
        Message m{GetParam().aead, rng.bytes(GetParam().key_len), rng.bytes(nonce_len),
                  rng.bytes(rng.between(0, 300)), kMaxTagSize};
        return m;
    }

    // GCM also allows truncated tags (SP 800-38D): 4, 8, 12..15 bytes, OpenSSL included.
    std::size_t random_gcm_tag_len(Random& rng) const {
        constexpr std::size_t kShort[] = {4, 8, 12, 13, 14, 15};
        return kShort[rng.between(0, std::size(kShort) - 1)];
    }

    // Seal with ours and with OpenSSL, compare, then open each other's output. Buffers at
    // random offsets.
    void round_trip(Random& rng, const Message& m, std::size_t len) const {
        SCOPED_TRACE("message of " + std::to_string(len) + " bytes, nonce " +
                     std::to_string(m.nonce.size()) + ", AAD " + std::to_string(m.aad.size()) +
                     ", tag " + std::to_string(m.tag_len));
        const AeadKey key(impl(), m.key);
        Buffer pt(len, rng.between(0, 63));
        rng.fill(pt.data(), len);

        Buffer ours(len, rng.between(0, 63)), our_tag(m.tag_len, rng.between(0, 63));
        our_seal(key, m, pt.data(), ours.data(), len, our_tag.data());
        Bytes theirs(len), their_tag(m.tag_len);
        openssl_seal(m, pt.data(), len, theirs.data(), their_tag.data());
        EXPECT_TRUE(same_bytes(theirs.data(), ours.data(), len)) << "ciphertext";
        EXPECT_TRUE(same_bytes(their_tag.data(), our_tag.data(), m.tag_len)) << "tag";

        // Ours -> OpenSSL.
        Bytes opened(len);
        EXPECT_TRUE(openssl_open(m, ours.data(), len, our_tag.data(), opened.data()))
            << "OpenSSL rejected our output";
        EXPECT_TRUE(same_bytes(pt.data(), opened.data(), len)) << "OpenSSL opened our output";

        // OpenSSL -> ours, at fresh offsets.
        Buffer ct(len, rng.between(0, 63)), tag(m.tag_len, rng.between(0, 63)),
            out(len, rng.between(0, 63));
        std::copy(theirs.begin(), theirs.end(), ct.data());
        std::copy(their_tag.begin(), their_tag.end(), tag.data());
        EXPECT_TRUE(our_open(key, m, ct.data(), out.data(), len, tag.data()))
            << "we rejected OpenSSL's output";
        EXPECT_TRUE(same_bytes(pt.data(), out.data(), len)) << "we opened OpenSSL's output";

        for (const Buffer* b : {&pt, &ours, &our_tag, &ct, &tag, &out})
            EXPECT_TRUE(b->guards_intact()) << "a write outside a buffer";
    }
};

// The sizes every AEAD must get right: empty, around the 16- and 64-byte blocks, around
// 4 KiB pages and 64 KiB, and 1 MiB.
constexpr std::size_t kEdgeSizes[] = {0,    1,    15,    16,    17,        63,         64,
                                      65,   255,  256,   4095,  4096,      65535,      65536 + 7,
                                      1 << 20};

TEST_P(OpenSslAead, EdgeAndRandomSizesBothWays) {
    SCOPED_TRACE(seed_trace());
    Random rng(stream_name());
    for (std::size_t len : kEdgeSizes) {
        Message m = random_message(rng);
        round_trip(rng, m, len);
    }
    // Random sizes, odd ones included: mostly small, a few large, two up to 1 MiB.
    for (int i = 0; i < 40; ++i) {
        Message m = random_message(rng);
        if (is_gcm() && i % 4 == 3) m.tag_len = random_gcm_tag_len(rng);
        const std::size_t len = i < 2   ? rng.between(512 * 1024, 1 << 20)
                                : i < 6 ? rng.between(65536, 300000)
                                        : rng.between(0, 5000);
        round_trip(rng, m, len);
    }
}

// Every tail length 0..271 (16 blocks of 16 bytes in flight and every partial block) after a
// 192-byte head and 0, 1 or 2 whole 512-byte steps: the loop edges of the stitched AVX2
// ChaCha20-Poly1305 (see backend_consistency_test.cpp); and after 1 or 2 whole 1024-byte
// steps with no head, where x86-avx512 computes the MAC key beside its first step (tails
// below 64) or takes a head again. Against OpenSSL for every AEAD.
TEST_P(OpenSslAead, EveryTailAfterTheStitchedSteps) {
    SCOPED_TRACE(seed_trace());
    Random rng(stream_name());
    for (std::size_t steps = 0; steps <= 2; ++steps)
        for (std::size_t tail = 0; tail <= 16 * 16 + 15; ++tail) {
            Message m = random_message(rng);
            round_trip(rng, m, 192 + 512 * steps + tail);
        }
    for (std::size_t steps = 1; steps <= 2; ++steps)
        for (std::size_t tail = 0; tail <= 16 * 16 + 15; ++tail) {
            Message m = random_message(rng);
            round_trip(rng, m, 1024 * steps + tail);
        }
}

// GCM accepts IVs of any length (other than 12 bytes they are hashed into J0); ChaCha20-Poly1305
// takes only 12-byte nonces, so this suite runs the GCM parameters alone.
class OpenSslGcm : public OpenSslAead {};

std::vector<AeadParam> gcm_params() {
    std::vector<AeadParam> params = aead_params();
    std::erase_if(params, [](const AeadParam& p) { return p.aead != Aead::aes_gcm; });
    return params;
}

TEST_P(OpenSslGcm, IvLengthsOneToSixtyFour) {
    SCOPED_TRACE(seed_trace());
    Random rng(stream_name());
    for (std::size_t nonce_len = 1; nonce_len <= 64; ++nonce_len) {
        Message m = random_message(rng, nonce_len);
        if (nonce_len % 3 == 0) m.tag_len = random_gcm_tag_len(rng);
        round_trip(rng, m, rng.between(0, 600));
    }
}

TEST_P(OpenSslAead, InPlace) {
    SCOPED_TRACE(seed_trace());
    Random rng(stream_name());
    for (std::size_t len : {0u, 1u, 16u, 17u, 255u, 1024u, 1087u, 1088u, 4096u, 65543u,
                            100001u}) {
        SCOPED_TRACE("message of " + std::to_string(len) + " bytes");
        const Message m = random_message(rng);
        const AeadKey key(impl(), m.key);
        Buffer buf(len, rng.between(0, 63)), tag(m.tag_len, rng.between(0, 63));
        rng.fill(buf.data(), len);
        const Bytes pt = buf.bytes();

        our_seal(key, m, buf.data(), buf.data(), len, tag.data());
        Bytes theirs(len), their_tag(m.tag_len);
        openssl_seal(m, pt.data(), len, theirs.data(), their_tag.data());
        EXPECT_TRUE(same_bytes(theirs.data(), buf.data(), len)) << "in-place ciphertext";
        EXPECT_TRUE(same_bytes(their_tag.data(), tag.data(), m.tag_len)) << "in-place tag";

        EXPECT_TRUE(our_open(key, m, buf.data(), buf.data(), len, tag.data()));
        EXPECT_TRUE(same_bytes(pt.data(), buf.data(), len)) << "in-place open";
        EXPECT_TRUE(buf.guards_intact() && tag.guards_intact());
    }
}

// Input and output at every offset from a cache line that a kernel treats apart (none, whole
// blocks, other than whole blocks), in place and not, long enough for the AES-GCM drivers'
// alignment head (two steps or more): seal and open against OpenSSL.
TEST_P(OpenSslAead, EveryAlignmentOfInputAndOutput) {
    SCOPED_TRACE(seed_trace());
    Random rng(stream_name());
    constexpr std::size_t kOffsets[] = {0, 16, 32, 48, 1, 24, 63};
    for (std::size_t len : {1024u + 48u, 4096u + 16u, 65536u + 7u})
        for (std::size_t in_offset : kOffsets)
            for (std::size_t out_offset : kOffsets) {
                const bool in_place = out_offset == in_offset;
                SCOPED_TRACE("message of " + std::to_string(len) + " bytes, in at +" +
                             std::to_string(in_offset) + ", out at +" +
                             std::to_string(out_offset) + (in_place ? ", in place" : ""));
                const Message m = random_message(rng);
                const AeadKey key(impl(), m.key);
                Buffer pt(len, in_offset), tag(m.tag_len, 0);
                rng.fill(pt.data(), len);
                const Bytes plaintext = pt.bytes();
                Buffer separate(len, out_offset);
                std::uint8_t* ct = in_place ? pt.data() : separate.data();
                our_seal(key, m, pt.data(), ct, len, tag.data());
                Bytes theirs(len), their_tag(m.tag_len);
                openssl_seal(m, plaintext.data(), len, theirs.data(), their_tag.data());
                ASSERT_TRUE(same_bytes(theirs.data(), ct, len)) << "ciphertext";
                ASSERT_TRUE(same_bytes(their_tag.data(), tag.data(), m.tag_len)) << "tag";

                // Open from a ciphertext at in_offset into out_offset.
                Buffer sealed(len, in_offset), opened(len, out_offset);
                std::copy_n(theirs.data(), len, sealed.data());
                std::uint8_t* back = in_place ? sealed.data() : opened.data();
                ASSERT_TRUE(our_open(key, m, sealed.data(), back, len, tag.data()));
                ASSERT_TRUE(same_bytes(plaintext.data(), back, len)) << "opened";
                EXPECT_TRUE(pt.guards_intact() && separate.guards_intact() &&
                            sealed.guards_intact() && opened.guards_intact() &&
                            tag.guards_intact());
            }
}

// A tampered message: which part to flip one bit of.
enum class Tamper { ciphertext, aad, tag };

TEST_P(OpenSslAead, FlippedBitFailsWithZeroedOutput) {
    SCOPED_TRACE(seed_trace());
    Random rng(stream_name());
    for (std::size_t len : {0u, 1u, 16u, 17u, 1000u, 65543u}) {
        for (Tamper what : {Tamper::ciphertext, Tamper::aad, Tamper::tag}) {
            if (what == Tamper::ciphertext && len == 0) continue;
            for (bool in_place : {false, true}) {
                SCOPED_TRACE("message of " + std::to_string(len) + " bytes, tamper " +
                             std::to_string(static_cast<int>(what)) + (in_place ? ", in place" : ""));
                Message m = random_message(rng);
                if (m.aad.empty()) m.aad = rng.bytes(1 + rng.between(0, 40));
                if (is_gcm() && in_place) m.tag_len = random_gcm_tag_len(rng);
                const AeadKey key(impl(), m.key);
                const Bytes pt = rng.bytes(len);
                Buffer ct(len, rng.between(0, 63)), tag(m.tag_len, rng.between(0, 63));
                our_seal(key, m, pt.data(), ct.data(), len, tag.data());

                const auto flip = [&](std::uint8_t* p, std::size_t n) {
                    p[rng.between(0, n - 1)] ^= static_cast<std::uint8_t>(1u << rng.between(0, 7));
                };
                if (what == Tamper::ciphertext) flip(ct.data(), len);
                if (what == Tamper::aad) flip(m.aad.data(), m.aad.size());
                if (what == Tamper::tag) flip(tag.data(), m.tag_len);

                Bytes oracle_out(len);
                EXPECT_FALSE(openssl_open(m, ct.data(), len, tag.data(), oracle_out.data()))
                    << "the oracle accepted a tampered message";
                Buffer separate(len, rng.between(0, 63));
                std::fill_n(separate.data(), len, std::uint8_t{0xa5});
                std::uint8_t* out = in_place ? ct.data() : separate.data();
                EXPECT_FALSE(our_open(key, m, ct.data(), out, len, tag.data()));
                EXPECT_TRUE(all_zero(out, len)) << "plaintext released after a failed open";
                EXPECT_TRUE(ct.guards_intact() && tag.guards_intact() && separate.guards_intact());
            }
        }
    }
}

// Many chunks of mixed lengths in one seal and one open call, as the pipeline uses it; then
// the same batch with a third of its chunks tampered: exactly those fail, zeroed, the others
// still open.
TEST_P(OpenSslAead, MixedBatchInOneCall) {
    SCOPED_TRACE(seed_trace());
    Random rng(stream_name());
    constexpr std::size_t kChunks = 257;
    const Bytes key_bytes = rng.bytes(GetParam().key_len);  // one key for the batch, as in a file
    const AeadKey key(impl(), key_bytes);
    std::vector<Message> msgs;
    std::vector<std::size_t> lens, offsets;
    std::size_t total = 0;
    for (std::size_t i = 0; i < kChunks; ++i) {
        // GCM chunks get any IV length now and then; ChaCha only 12 bytes.
        const std::size_t nonce_len = is_gcm() && i % 5 == 4 ? rng.between(1, 64) : kChunkNonceSize;
        msgs.push_back(random_message(rng, nonce_len));
        msgs.back().key = key_bytes;
        const std::size_t kind = rng.between(0, 9);
        lens.push_back(kind == 0 ? 0 : kind < 4 ? rng.between(1, 64)
                                   : kind < 8   ? 16 * rng.between(1, 64) + rng.between(0, 1)
                                                : rng.between(1000, 20000));
        offsets.push_back(total + rng.between(0, 63));  // chunks at odd places, with gaps
        total = offsets.back() + lens.back();
    }
    const std::size_t tag_len = kMaxTagSize;

    const Bytes pt = rng.bytes(total);
    Buffer ct(total, 3), out(total, 9);
    Bytes tags(kChunks * tag_len);
    std::vector<AeadChunk> chunks;
    for (std::size_t i = 0; i < kChunks; ++i)
        chunks.push_back(chunk_of(msgs[i], pt.data() + offsets[i], ct.data() + offsets[i], lens[i],
                                  tags.data() + i * tag_len));
    key.seal(chunks, tag_len);

    for (std::size_t i = 0; i < kChunks; ++i) {
        SCOPED_TRACE("chunk " + std::to_string(i) + " of " + std::to_string(lens[i]) + " bytes");
        Bytes theirs(lens[i]), their_tag(tag_len);
        openssl_seal(msgs[i], pt.data() + offsets[i], lens[i], theirs.data(), their_tag.data());
        EXPECT_TRUE(same_bytes(theirs.data(), ct.data() + offsets[i], lens[i]));
        EXPECT_TRUE(same_bytes(their_tag.data(), tags.data() + i * tag_len, tag_len));
    }

    const auto open_batch = [&](std::vector<std::uint8_t>& ok_flags) {
        std::vector<AeadChunk> opens;
        for (std::size_t i = 0; i < kChunks; ++i)
            opens.push_back(chunk_of(msgs[i], ct.data() + offsets[i], out.data() + offsets[i],
                                     lens[i], tags.data() + i * tag_len));
        std::unique_ptr<bool[]> ok(new bool[kChunks]);
        const std::size_t failures = key.open(opens, ok.get(), tag_len);
        ok_flags.assign(ok.get(), ok.get() + kChunks);
        return failures;
    };

    std::vector<std::uint8_t> ok;
    EXPECT_EQ(open_batch(ok), 0u);
    EXPECT_TRUE(std::all_of(ok.begin(), ok.end(), [](std::uint8_t f) { return f != 0; }));
    for (std::size_t i = 0; i < kChunks; ++i)
        EXPECT_TRUE(same_bytes(pt.data() + offsets[i], out.data() + offsets[i], lens[i]))
            << "chunk " << i;

    std::vector<bool> tampered(kChunks, false);
    std::size_t tampered_count = 0;
    for (std::size_t i = 0; i < kChunks; i += 3) {
        tampered[i] = true;
        ++tampered_count;
        if (lens[i] != 0 && i % 2 == 0) ct.data()[offsets[i] + rng.between(0, lens[i] - 1)] ^= 0x10;
        else tags[i * tag_len + rng.between(0, tag_len - 1)] ^= 0x01;
    }
    EXPECT_EQ(open_batch(ok), tampered_count);
    for (std::size_t i = 0; i < kChunks; ++i) {
        SCOPED_TRACE("chunk " + std::to_string(i));
        EXPECT_EQ(ok[i] != 0, !tampered[i]);
        if (tampered[i])
            EXPECT_TRUE(all_zero(out.data() + offsets[i], lens[i])) << "plaintext released";
        else
            EXPECT_TRUE(same_bytes(pt.data() + offsets[i], out.data() + offsets[i], lens[i]));
    }
    EXPECT_TRUE(ct.guards_intact() && out.guards_intact());
}

std::string aead_param_name(const ::testing::TestParamInfo<AeadParam>& p) {
    return test_name_part(std::string(p.param.backend->name) + "_" + std::string(p.param.cipher));
}

INSTANTIATE_TEST_SUITE_P(Differential, OpenSslAead, ::testing::ValuesIn(aead_params()),
                         aead_param_name);
INSTANTIATE_TEST_SUITE_P(Differential, OpenSslGcm, ::testing::ValuesIn(gcm_params()),
                         aead_param_name);

// ---- Raw AES-ECB against EVP aes-*-ecb without padding.

struct AesParam {
    const Backend* backend;
    std::size_t key_len;
};

void PrintTo(const AesParam& p, std::ostream* os) {
    *os << p.backend->name << " AES-" << p.key_len * 8;
}

std::vector<AesParam> aes_params() {
    std::vector<AesParam> params;
    for (const Backend* b : backends_under_test())
        if (b->aes != nullptr)
            for (std::size_t key_len : {16u, 24u, 32u}) params.push_back({b, key_len});
    return params;
}

void openssl_ecb(const Bytes& key, bool encrypt, const std::uint8_t* in, std::uint8_t* out,
                 std::size_t blocks) {
    if (blocks == 0) return;
    const EVP_CIPHER* cipher = key.size() == 16   ? EVP_aes_128_ecb()
                               : key.size() == 24 ? EVP_aes_192_ecb()
                                                  : EVP_aes_256_ecb();
    EvpCtx ctx(EVP_CIPHER_CTX_new());
    if (!ctx) throw std::runtime_error("EVP_CIPHER_CTX_new");
    check(EVP_CipherInit_ex(ctx.get(), cipher, nullptr, key.data(), nullptr, encrypt), "ECB init");
    check(EVP_CIPHER_CTX_set_padding(ctx.get(), 0), "ECB padding");
    int n = 0;
    check(EVP_CipherUpdate(ctx.get(), out, &n, in, static_cast<int>(blocks * kAesBlockSize)), "ECB");
    int final_n = 0;
    check(EVP_CipherFinal_ex(ctx.get(), out + n, &final_n), "ECB final");
}

class OpenSslAes : public ::testing::TestWithParam<AesParam> {};

TEST_P(OpenSslAes, EcbBlockCounts) {
    SCOPED_TRACE(seed_trace());
    const AesParam& param = GetParam();
    Random rng("ecb/" + std::string(param.backend->name) + "/" + std::to_string(param.key_len));
    std::vector<std::size_t> counts;
    for (std::size_t n = 0; n <= 40; ++n) counts.push_back(n);
    counts.push_back(4096);

    for (std::size_t blocks : counts) {
        SCOPED_TRACE(std::to_string(blocks) + " blocks");
        const std::size_t len = blocks * kAesBlockSize;
        const Bytes key_bytes = rng.bytes(param.key_len);
        const BlockCipherKey key(*param.backend->aes, key_bytes);
        Buffer pt(len, rng.between(0, 63)), ct(len, rng.between(0, 63)), back(len, rng.between(0, 63));
        rng.fill(pt.data(), len);

        key.encrypt(pt.data(), ct.data(), blocks);
        Bytes expected(len);
        openssl_ecb(key_bytes, true, pt.data(), expected.data(), blocks);
        EXPECT_TRUE(same_bytes(expected.data(), ct.data(), len)) << "encrypt";

        key.decrypt(ct.data(), back.data(), blocks);
        EXPECT_TRUE(same_bytes(pt.data(), back.data(), len)) << "decrypt";

        // In place, both ways.
        key.encrypt(back.data(), back.data(), blocks);
        EXPECT_TRUE(same_bytes(expected.data(), back.data(), len)) << "encrypt in place";
        openssl_ecb(key_bytes, false, expected.data(), expected.data(), blocks);
        key.decrypt(back.data(), back.data(), blocks);
        EXPECT_TRUE(same_bytes(expected.data(), back.data(), len)) << "decrypt in place";
        EXPECT_TRUE(pt.guards_intact() && ct.guards_intact() && back.guards_intact());
    }
}

INSTANTIATE_TEST_SUITE_P(Differential, OpenSslAes, ::testing::ValuesIn(aes_params()),
                         [](const ::testing::TestParamInfo<AesParam>& p) {
                             return test_name_part(std::string(p.param.backend->name) + "_aes_" +
                                                   std::to_string(p.param.key_len * 8) + "_ecb");
                         });

}  // namespace
}  // namespace warp::test
