// Quick checks of the scalar backend's AES, GHASH and AES-GCM: known answers typed in from
// FIPS 197 and the GCM specification (McGrew and Viega, "The Galois/Counter Mode of
// Operation", appendix B), plus the properties the bitsliced code could get wrong: block
// counts that do not fill a slice, in-place operation, counter wrap, GHASH aggregation and
// the failure behaviour of open. The vector files and the OpenSSL differential tests live in
// their own test files.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "engine/aead_key.hpp"
#include "engine/scalar/aes/aes_bitsliced.hpp"
#include "engine/scalar/aes/ghash.hpp"
#include "engine/scalar/aes/sbox_circuit.hpp"
#include "engine/scalar/scalar.hpp"
#include "tests/support/hex.hpp"

namespace warp {
namespace {

using test::Bytes;
using test::from_hex;
using test::to_hex;

Bytes random_bytes(std::size_t n, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    Bytes out(n);
    for (std::uint8_t& b : out) b = static_cast<std::uint8_t>(rng());
    return out;
}

// ---- S-box ------------------------------------------------------------------------------

// The textbook definition, slowly: multiplicative inverse in GF(2^8), then the affine map.
std::uint8_t gf_multiply(std::uint8_t a, std::uint8_t b) {
    std::uint8_t product = 0;
    for (int i = 0; i < 8; ++i) {
        if ((b >> i) & 1) product ^= a;
        a = static_cast<std::uint8_t>((a << 1) ^ ((a & 0x80) ? 0x1b : 0));
    }
    return product;
}

std::uint8_t reference_sbox(std::uint8_t x) {
    std::uint8_t inverse = 0;
    for (int y = 1; y < 256; ++y)
        if (gf_multiply(x, static_cast<std::uint8_t>(y)) == 1) inverse = static_cast<std::uint8_t>(y);
    std::uint8_t out = 0x63;
    for (int shift = 0; shift < 5; ++shift)
        out ^= static_cast<std::uint8_t>((inverse << shift) | (inverse >> ((8 - shift) % 8)));
    return out;
}

template <class Circuit>
std::uint8_t run_circuit(std::uint8_t x, Circuit circuit) {
    std::uint32_t planes[8];
    for (int b = 0; b < 8; ++b) planes[b] = (x >> b) & 1u;
    circuit(planes);
    std::uint8_t out = 0;
    for (int b = 0; b < 8; ++b) out = static_cast<std::uint8_t>(out | (planes[b] & 1u) << b);
    return out;
}

TEST(ScalarAes, SboxCircuitMatchesTheDefinitionForEveryByte) {
    for (int x = 0; x < 256; ++x) {
        const std::uint8_t in = static_cast<std::uint8_t>(x);
        const std::uint8_t s = reference_sbox(in);
        // The circuit leaves out the constant 0x63 (the round keys carry it).
        EXPECT_EQ(run_circuit(in, [](auto& q) { scalar::aes::sbox_without_constant(q); }),
                  s ^ 0x63)
            << "x = " << x;
        EXPECT_EQ(run_circuit(static_cast<std::uint8_t>(s ^ 0x63),
                              [](auto& q) { scalar::aes::inverse_sbox_of_shifted(q); }),
                  in)
            << "x = " << x;
    }
}

// ---- raw AES ----------------------------------------------------------------------------

struct BlockKat {
    std::string_view key, plaintext, ciphertext;
};

// FIPS 197, Appendix C.1, C.2 and C.3.
constexpr BlockKat kFips197[] = {
    {"000102030405060708090a0b0c0d0e0f", "00112233445566778899aabbccddeeff",
     "69c4e0d86a7b0430d8cdb78070b4c55a"},
    {"000102030405060708090a0b0c0d0e0f1011121314151617", "00112233445566778899aabbccddeeff",
     "dda97ca4864cdfe06eaf70a0ec0d7191"},
    {"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
     "00112233445566778899aabbccddeeff", "8ea2b7ca516745bfeafc49904b496089"},
};

TEST(ScalarAes, Fips197AppendixC) {
    for (const BlockKat& kat : kFips197) {
        const BlockCipherKey key(scalar::kAes, from_hex(kat.key));
        const Bytes plaintext = from_hex(kat.plaintext);
        Bytes out(16);
        key.encrypt(plaintext.data(), out.data(), 1);
        EXPECT_EQ(to_hex(out), kat.ciphertext) << "key " << kat.key;
        key.decrypt(out.data(), out.data(), 1);
        EXPECT_EQ(to_hex(out), kat.plaintext) << "key " << kat.key;
    }
}

// Every count from 0 to 33 covers empty input, partial slices (the bitsliced core takes
// eight blocks) and several full ones; each block must come out as if encrypted alone.
TEST(ScalarAes, ManyBlocksInOneCallEqualOneBlockPerCall) {
    for (std::size_t key_len : {16u, 24u, 32u}) {
        const BlockCipherKey key(scalar::kAes, random_bytes(key_len, key_len));
        for (std::size_t blocks = 0; blocks <= 33; ++blocks) {
            const Bytes plaintext = random_bytes(16 * blocks, 100 + blocks);
            Bytes together(plaintext.size()), one_by_one(plaintext.size());
            key.encrypt(plaintext.data(), together.data(), blocks);
            for (std::size_t i = 0; i < blocks; ++i)
                key.encrypt(plaintext.data() + 16 * i, one_by_one.data() + 16 * i, 1);
            EXPECT_EQ(together, one_by_one) << key_len << "-byte key, " << blocks << " blocks";

            Bytes decrypted(plaintext.size());
            key.decrypt(together.data(), decrypted.data(), blocks);
            EXPECT_EQ(decrypted, plaintext) << key_len << "-byte key, " << blocks << " blocks";
            for (std::size_t i = 0; i < blocks; ++i)
                key.decrypt(together.data() + 16 * i, one_by_one.data() + 16 * i, 1);
            EXPECT_EQ(one_by_one, plaintext) << key_len << "-byte key, " << blocks << " blocks";
        }
    }
}

TEST(ScalarAes, InPlace) {
    const BlockCipherKey key(scalar::kAes, random_bytes(32, 1));
    const Bytes plaintext = random_bytes(16 * 19, 2);
    Bytes expected(plaintext.size());
    key.encrypt(plaintext.data(), expected.data(), 19);
    Bytes buffer = plaintext;
    key.encrypt(buffer.data(), buffer.data(), 19);
    EXPECT_EQ(buffer, expected);
    key.decrypt(buffer.data(), buffer.data(), 19);
    EXPECT_EQ(buffer, plaintext);
}

// GCM's inc32 wraps inside the last 32 bits and never carries into the first 96.
TEST(ScalarAes, CounterModeWrapsTheLow32Bits) {
    scalar::aes::KeySchedule schedule;
    const Bytes key = random_bytes(16, 3);
    scalar::aes::expand_key(schedule, key.data(), key.size());
    Bytes counter = from_hex("00112233445566778899aabbfffffffd");
    const Bytes plaintext = random_bytes(16 * 5 + 7, 4);
    Bytes out(plaintext.size());
    scalar::aes::ctr32_xor(schedule, counter.data(), plaintext.data(), out.data(), out.size());

    Bytes counters;
    for (const char* low : {"fffffffd", "fffffffe", "ffffffff", "00000000", "00000001",
                            "00000002"}) {
        const Bytes block = from_hex(std::string("00112233445566778899aabb") + low);
        counters.insert(counters.end(), block.begin(), block.end());
    }
    Bytes keystream(counters.size());
    scalar::aes::encrypt_blocks(schedule, counters.data(), keystream.data(), 6);
    for (std::size_t i = 0; i < plaintext.size(); ++i)
        ASSERT_EQ(out[i], plaintext[i] ^ keystream[i]) << "byte " << i;
}

// ---- GHASH ------------------------------------------------------------------------------

// Four blocks per reduction with H^4..H^1 must equal Horner's rule one block at a time.
TEST(ScalarAesGhash, AggregatedEqualsOneBlockAtATime) {
    const Bytes h = random_bytes(16, 5);
    scalar::aes::GhashKey key;
    scalar::aes::ghash_init(key, h.data());
    const Bytes data = random_bytes(16 * 23 + 9, 6);
    for (std::size_t len = 0; len <= data.size(); len += 7) {
        scalar::aes::Block128 together, one_by_one;
        scalar::aes::ghash_update(key, together, data.data(), len);
        for (std::size_t offset = 0; offset < len; offset += 16)
            scalar::aes::ghash_update(key, one_by_one, data.data() + offset,
                                      std::min<std::size_t>(16, len - offset));
        EXPECT_EQ(together.hi, one_by_one.hi) << len;
        EXPECT_EQ(together.lo, one_by_one.lo) << len;
    }
}

// ---- AES-GCM ----------------------------------------------------------------------------

struct GcmKat {
    const char* name;
    std::string_view key, iv, aad, plaintext, ciphertext, tag;
};

constexpr std::string_view kKey3 = "feffe9928665731c6d6a8f9467308308";
constexpr std::string_view kKey15 =
    "feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308";
constexpr std::string_view kIv3 = "cafebabefacedbaddecaf888";
constexpr std::string_view kAad4 = "feedfacedeadbeeffeedfacedeadbeefabaddad2";
constexpr std::string_view kPlain3 =
    "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"
    "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255";
constexpr std::string_view kPlain4 =
    "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"
    "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39";

// The GCM specification's test cases 1-6 (AES-128) and 13-16 (AES-256).
const GcmKat kGcmSpec[] = {
    {"1", "00000000000000000000000000000000", "000000000000000000000000", "", "", "",
     "58e2fccefa7e3061367f1d57a4e7455a"},
    {"2", "00000000000000000000000000000000", "000000000000000000000000", "",
     "00000000000000000000000000000000", "0388dace60b6a392f328c2b971b2fe78",
     "ab6e47d42cec13bdf53a67b21257bddf"},
    {"3", kKey3, kIv3, "", kPlain3,
     "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e"
     "21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091473f5985",
     "4d5c2af327cd64a62cf35abd2ba6fab4"},
    {"4", kKey3, kIv3, kAad4, kPlain4,
     "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e"
     "21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091",
     "5bc94fbc3221a5db94fae95ae7121a47"},
    {"5 (64-bit IV)", kKey3, "cafebabefacedbad", kAad4, kPlain4,
     "61353b4c2806934a777ff51fa22a4755699b2a714fcdc6f83766e5f97b6c7423"
     "73806900e49f24b22b097544d4896b424989b5e1ebac0f07c23f4598",
     "3612d2e79e3b0785561be14aaca2fccb"},
    {"6 (480-bit IV)", kKey3,
     "9313225df88406e555909c5aff5269aa6a7a9538534f7da1e4c303d2a318a728"
     "c3c0c95156809539fcf0e2429a6b525416aedbf5a0de6a57a637b39b",
     kAad4, kPlain4,
     "8ce24998625615b603a033aca13fb894be9112a5c3a211a8ba262a3cca7e2ca7"
     "01e4a9a4fba43c90ccdcb281d48c7c6fd62875d2aca417034c34aee5",
     "619cc5aefffe0bfa462af43c1699d050"},
    {"13", "0000000000000000000000000000000000000000000000000000000000000000",
     "000000000000000000000000", "", "", "", "530f8afbc74536b9a963b4f1c4cb738b"},
    {"14", "0000000000000000000000000000000000000000000000000000000000000000",
     "000000000000000000000000", "", "00000000000000000000000000000000",
     "cea7403d4d606b6e074ec5d3baf39d18", "d0d1c8a799996bf0265b98b5d48ab919"},
    {"15", kKey15, kIv3, "", kPlain3,
     "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa"
     "8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662898015ad",
     "b094dac5d93471bdec1a502270e3cc6c"},
    {"16", kKey15, kIv3, kAad4, kPlain4,
     "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa"
     "8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662",
     "76fc6ece0f4e1768cddf8853bb2d551b"},
};

// Owns the bytes of one message and hands out AeadChunks over them.
struct Message {
    Bytes iv, aad, in, out, tag;

    Message(const GcmKat& kat, bool sealing, std::size_t tag_len = 16)
        : iv(from_hex(kat.iv)),
          aad(from_hex(kat.aad)),
          in(from_hex(sealing ? kat.plaintext : kat.ciphertext)),
          out(in.size(), 0xAA),
          tag(sealing ? Bytes(tag_len) : from_hex(kat.tag.substr(0, 2 * tag_len))) {}

    AeadChunk chunk() {
        return {iv.data(), iv.size(), aad.data(), aad.size(),
                in.data(), out.data(), in.size(),  tag.data()};
    }
};

TEST(ScalarAesGcm, SpecificationTestCases) {
    for (const GcmKat& kat : kGcmSpec) {
        const AeadKey key(scalar::kAesGcm, from_hex(kat.key));
        Message sealed(kat, true);
        const AeadChunk seal_chunk = sealed.chunk();
        key.seal({&seal_chunk, 1});
        EXPECT_EQ(to_hex(sealed.out), kat.ciphertext) << "test case " << kat.name;
        EXPECT_EQ(to_hex(sealed.tag), kat.tag) << "test case " << kat.name;

        Message opened(kat, false);
        const AeadChunk open_chunk = opened.chunk();
        bool ok = false;
        EXPECT_EQ(key.open({&open_chunk, 1}, &ok), 0u) << "test case " << kat.name;
        EXPECT_TRUE(ok) << "test case " << kat.name;
        EXPECT_EQ(to_hex(opened.out), kat.plaintext) << "test case " << kat.name;
    }
}

// SP 800-38D 5.2.1.2: a tag of t bytes is the first t bytes of the full tag.
TEST(ScalarAesGcm, TruncatedTags) {
    const GcmKat& kat = kGcmSpec[3];
    const AeadKey key(scalar::kAesGcm, from_hex(kat.key));
    for (std::size_t tag_len : {4u, 8u, 12u, 13u, 14u, 15u}) {
        Message sealed(kat, true, tag_len);
        const AeadChunk seal_chunk = sealed.chunk();
        key.seal({&seal_chunk, 1}, tag_len);
        EXPECT_EQ(to_hex(sealed.tag), kat.tag.substr(0, 2 * tag_len)) << tag_len;

        Message opened(kat, false, tag_len);
        const AeadChunk open_chunk = opened.chunk();
        bool ok = false;
        EXPECT_EQ(key.open({&open_chunk, 1}, &ok, tag_len), 0u) << tag_len;
        EXPECT_TRUE(ok) << tag_len;
        EXPECT_EQ(to_hex(opened.out), kat.plaintext) << tag_len;
    }
}

// Whatever was tampered with, open must fail, zero the output and leave the other chunks
// of the batch alone.
TEST(ScalarAesGcm, TamperingFailsAndZeroesTheOutput) {
    const GcmKat& kat = kGcmSpec[9];
    const AeadKey key(scalar::kAesGcm, from_hex(kat.key));
    enum class Tamper { tag, ciphertext, aad, iv };
    for (Tamper what : {Tamper::tag, Tamper::ciphertext, Tamper::aad, Tamper::iv}) {
        std::vector<Message> messages(3, Message(kat, false));
        Message& bad = messages[1];
        switch (what) {
            case Tamper::tag: bad.tag[15] ^= 0x01; break;
            case Tamper::ciphertext: bad.in[30] ^= 0x80; break;
            case Tamper::aad: bad.aad[0] ^= 0x10; break;
            case Tamper::iv: bad.iv[11] ^= 0x02; break;
        }
        std::vector<AeadChunk> chunks;
        for (Message& m : messages) chunks.push_back(m.chunk());
        bool ok[3] = {false, true, false};
        EXPECT_EQ(key.open(chunks, ok), 1u);
        EXPECT_TRUE(ok[0]);
        EXPECT_FALSE(ok[1]);
        EXPECT_TRUE(ok[2]);
        EXPECT_EQ(bad.out, Bytes(bad.out.size(), 0)) << "failed chunk's output not zeroed";
        EXPECT_EQ(to_hex(messages[0].out), kat.plaintext);
        EXPECT_EQ(to_hex(messages[2].out), kat.plaintext);
    }
}

TEST(ScalarAesGcm, FailedOpenInPlaceZeroesTheBuffer) {
    const GcmKat& kat = kGcmSpec[2];
    const AeadKey key(scalar::kAesGcm, from_hex(kat.key));
    Message m(kat, false);
    m.tag[0] ^= 0x40;
    AeadChunk chunk = m.chunk();
    chunk.out = m.in.data();
    bool ok = true;
    EXPECT_EQ(key.open({&chunk, 1}, &ok), 1u);
    EXPECT_FALSE(ok);
    EXPECT_EQ(m.in, Bytes(m.in.size(), 0));
}

TEST(ScalarAesGcm, InPlaceSealAndOpen) {
    for (const GcmKat& kat : kGcmSpec) {
        const AeadKey key(scalar::kAesGcm, from_hex(kat.key));
        Message m(kat, true);
        AeadChunk chunk = m.chunk();
        chunk.out = m.in.data();
        key.seal({&chunk, 1});
        EXPECT_EQ(to_hex(m.in), kat.ciphertext) << "test case " << kat.name;
        EXPECT_EQ(to_hex(m.tag), kat.tag) << "test case " << kat.name;
        bool ok = false;
        EXPECT_EQ(key.open({&chunk, 1}, &ok), 0u) << "test case " << kat.name;
        EXPECT_EQ(to_hex(m.in), kat.plaintext) << "test case " << kat.name;
    }
}

// Every length around the slice (128 bytes) and GHASH group (64 bytes) boundaries, with
// IVs of several lengths, must survive a round trip; sealing a batch must equal sealing its
// chunks one by one.
TEST(ScalarAesGcm, RoundTripsAndBatchesOfManySizes) {
    for (std::size_t key_len : {16u, 24u, 32u}) {
        const AeadKey key(scalar::kAesGcm, random_bytes(key_len, 7));
        std::vector<Bytes> plaintexts, ciphertexts, tags, ivs, aads;
        for (std::size_t len = 0; len <= 300; len += 13) {
            plaintexts.push_back(random_bytes(len, len));
            ciphertexts.push_back(Bytes(len));
            tags.push_back(Bytes(16));
            ivs.push_back(random_bytes(1 + len % 20, len + 1));
            aads.push_back(random_bytes(len % 70, len + 2));
        }
        std::vector<AeadChunk> chunks;
        for (std::size_t i = 0; i < plaintexts.size(); ++i)
            chunks.push_back({ivs[i].data(), ivs[i].size(), aads[i].data(), aads[i].size(),
                              plaintexts[i].data(), ciphertexts[i].data(), plaintexts[i].size(),
                              tags[i].data()});
        key.seal(chunks);
        for (std::size_t i = 0; i < chunks.size(); ++i) {
            Bytes ciphertext(plaintexts[i].size()), tag(16);
            AeadChunk single = chunks[i];
            single.out = ciphertext.data();
            single.tag = tag.data();
            key.seal({&single, 1});
            EXPECT_EQ(ciphertext, ciphertexts[i]);
            EXPECT_EQ(tag, tags[i]);
        }

        std::vector<Bytes> decrypted;
        for (const Bytes& c : ciphertexts) decrypted.push_back(Bytes(c.size()));
        for (std::size_t i = 0; i < chunks.size(); ++i) {
            chunks[i].in = ciphertexts[i].data();
            chunks[i].out = decrypted[i].data();
        }
        bool flags[64] = {};
        ASSERT_LE(chunks.size(), std::size(flags));
        EXPECT_EQ(key.open(chunks, flags), 0u);
        for (std::size_t i = 0; i < chunks.size(); ++i) {
            EXPECT_TRUE(flags[i]) << i;
            EXPECT_EQ(decrypted[i], plaintexts[i]) << i;
        }
    }
}

}  // namespace
}  // namespace warp
