// Unit checks of the scalar ChaCha20, Poly1305 and ChaCha20-Poly1305: the RFC 8439 examples
// typed in, Poly1305 carry edge cases, and the AEAD contract of engine/aead.hpp (tamper, in
// place, every short length, batches). libsodium serves as a second opinion where the RFC has
// no example. The vector-file and OpenSSL differential tests live elsewhere.
#include <gtest/gtest.h>
#include <sodium.h>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "engine/aead_key.hpp"
#include "engine/scalar/chacha/chacha20.hpp"
#include "engine/scalar/chacha/poly1305.hpp"
#include "engine/scalar/scalar.hpp"
#include "tests/support/hex.hpp"
#include "tests/support/poly1305_reference.hpp"

namespace warp {
namespace {

using test::Bytes;
using test::from_hex;
using test::libsodium_poly1305_hex;
using test::to_hex;

// Deterministic filler so failures reproduce.
Bytes pattern(std::size_t len, std::uint8_t seed) {
    Bytes b(len);
    for (std::size_t i = 0; i < len; ++i) b[i] = static_cast<std::uint8_t>(seed + i * 151 + (i >> 5));
    return b;
}

Bytes ascii(std::string_view s) { return Bytes(s.begin(), s.end()); }

// ---- ChaCha20 -------------------------------------------------------------------------

const Bytes kKey00To1f =
    from_hex("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f");

TEST(ScalarChaCha20, Rfc8439Section232BlockFunction) {
    const Bytes nonce = from_hex("000000090000004a00000000");
    std::uint8_t block[64];
    scalar::chacha20_block(kKey00To1f.data(), 1, nonce.data(), block);
    EXPECT_EQ(to_hex(block),
              "10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e"
              "d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e");
}

const char* const kSunscreen =
    "Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the "
    "future, sunscreen would be it.";

TEST(ScalarChaCha20, Rfc8439Section242Encryption) {
    const Bytes nonce = from_hex("000000000000004a00000000");
    const Bytes plaintext = ascii(kSunscreen);
    const std::string expected =
        "6e2e359a2568f98041ba0728dd0d6981e97e7aec1d4360c20a27afccfd9fae0b"
        "f91b65c5524733ab8f593dabcd62b3571639d624e65152ab8f530c359f0861d8"
        "07ca0dbf500d6a6156a38e088a22b65e52bc514d16ccf806818ce91ab7793736"
        "5af90bbf74a35be6b40b8eedf2785e42874d";
    Bytes out(plaintext.size());
    scalar::chacha20_xor(kKey00To1f.data(), 1, nonce.data(), plaintext.data(), out.data(),
                         out.size());
    EXPECT_EQ(to_hex(out), expected);

    Bytes in_place = plaintext;
    scalar::chacha20_xor(kKey00To1f.data(), 1, nonce.data(), in_place.data(), in_place.data(),
                         in_place.size());
    EXPECT_EQ(in_place, out);
}

// chacha20_xor over zeros must be the concatenated blocks, whichever internal path (one block
// or four at a time, with a tail) each length takes, and split calls must agree with one call.
TEST(ScalarChaCha20, XorOfZerosIsTheBlockSequenceAtEveryLength) {
    const Bytes key = pattern(32, 9);
    const Bytes nonce = pattern(12, 77);
    constexpr std::uint32_t first = 5;
    Bytes blocks(20 * 64);
    for (std::uint32_t b = 0; b < 20; ++b)
        scalar::chacha20_block(key.data(), first + b, nonce.data(), blocks.data() + 64 * b);

    for (std::size_t len = 0; len <= blocks.size(); len += (len < 600 ? 1 : 37)) {
        const Bytes zeros(len);
        Bytes out(len);
        scalar::chacha20_xor(key.data(), first, nonce.data(), zeros.data(), out.data(), len);
        ASSERT_TRUE(std::equal(out.begin(), out.end(), blocks.begin())) << "len " << len;
    }
}

TEST(ScalarChaCha20, SplitAtBlockBoundariesMatchesOneCall) {
    const Bytes key = pattern(32, 1);
    const Bytes nonce = pattern(12, 2);
    const Bytes msg = pattern(1000, 3);
    Bytes whole(msg.size()), pieces(msg.size());
    scalar::chacha20_xor(key.data(), 1, nonce.data(), msg.data(), whole.data(), msg.size());
    std::size_t done = 0;
    std::uint32_t counter = 1;
    for (std::size_t blocks : {1u, 4u, 3u, 5u, 2u}) {
        const std::size_t n = std::min(blocks * 64, msg.size() - done);
        scalar::chacha20_xor(key.data(), counter, nonce.data(), msg.data() + done,
                             pieces.data() + done, n);
        done += n;
        counter += static_cast<std::uint32_t>(blocks);
    }
    scalar::chacha20_xor(key.data(), counter, nonce.data(), msg.data() + done,
                         pieces.data() + done, msg.size() - done);
    EXPECT_EQ(whole, pieces);
}

// The counter is 32 bits (RFC 8439); both paths must wrap it the same way.
TEST(ScalarChaCha20, CounterWrapsTheSameWayOnEveryPath) {
    const Bytes key = pattern(32, 4);
    const Bytes nonce = pattern(12, 5);
    Bytes expected(6 * 64);
    for (std::uint32_t b = 0; b < 6; ++b)
        scalar::chacha20_block(key.data(), 0xfffffffdu + b, nonce.data(), expected.data() + 64 * b);
    const Bytes zeros(expected.size());
    Bytes out(expected.size());
    scalar::chacha20_xor(key.data(), 0xfffffffdu, nonce.data(), zeros.data(), out.data(),
                         out.size());
    EXPECT_EQ(out, expected);
}

// ---- Poly1305 -------------------------------------------------------------------------

std::string poly1305_hex(const Bytes& key, const Bytes& msg) {
    std::uint8_t tag[16];
    scalar::poly1305_mac(key.data(), msg.data(), msg.size(), tag);
    return to_hex(tag);
}

// libsodium works uninitialised, but picks its fastest code only after sodium_init().
void ensure_sodium_initialised() { ASSERT_GE(sodium_init(), 0); }

TEST(ScalarPoly1305, Rfc8439Section252) {
    const Bytes key = from_hex("85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b");
    EXPECT_EQ(poly1305_hex(key, ascii("Cryptographic Forum Research Group")),
              "a8061dc1305136c6c22b8baf0c0127a9");
}

// RFC 8439 A.3, test vectors 5 to 11: values chosen to hit carries between limbs and the final
// reduction modulo p = 2^130 - 5 (h just above, at, and just below p; h + s wrapping 2^128).
TEST(ScalarPoly1305, Rfc8439AppendixA3CarryCases) {
    struct Case {
        const char* name;
        const char* key;
        const char* msg;
        const char* tag;
    };
    const Case cases[] = {
        {"vector 5 h = p + 3", "02000000000000000000000000000000" "00000000000000000000000000000000",
         "ffffffffffffffffffffffffffffffff", "03000000000000000000000000000000"},
        {"vector 6 h + s wraps mod 2^128", "02000000000000000000000000000000" "ffffffffffffffffffffffffffffffff",
         "02000000000000000000000000000000", "03000000000000000000000000000000"},
        {"vector 7", "01000000000000000000000000000000" "00000000000000000000000000000000",
         "ffffffffffffffffffffffffffffffff" "f0ffffffffffffffffffffffffffffff"
         "11000000000000000000000000000000",
         "05000000000000000000000000000000"},
        {"vector 8 h = 0 mod p", "01000000000000000000000000000000" "00000000000000000000000000000000",
         "ffffffffffffffffffffffffffffffff" "fbfefefefefefefefefefefefefefefe"
         "01010101010101010101010101010101",
         "00000000000000000000000000000000"},
        {"vector 9 h = p - 1", "02000000000000000000000000000000" "00000000000000000000000000000000",
         "fdffffffffffffffffffffffffffffff", "faffffffffffffffffffffffffffffff"},
        {"vector 10", "01000000000000000400000000000000" "00000000000000000000000000000000",
         "e33594d7505e43b90000000000000000" "3394d7505e4379cd0100000000000000"
         "00000000000000000000000000000000" "01000000000000000000000000000000",
         "14000000000000005500000000000000"},
        {"vector 11", "01000000000000000400000000000000" "00000000000000000000000000000000",
         "e33594d7505e43b90000000000000000" "3394d7505e4379cd0100000000000000"
         "00000000000000000000000000000000",
         "13000000000000000000000000000000"},
    };
    for (const Case& c : cases)
        EXPECT_EQ(poly1305_hex(from_hex(c.key), from_hex(c.msg)), c.tag) << c.name;
}

// Extremes of r (zero, the largest clamped value), of s (zero, all ones) and of the message
// (all 0xff blocks, which maximise every limb, and all zero), at lengths around block edges.
TEST(ScalarPoly1305, ExtremeKeysAndMessagesMatchLibsodium) {
    const Bytes r_values[] = {Bytes(16, 0x00), Bytes(16, 0xff), from_hex("01000000000000000000000000000000"),
                              from_hex("fffffffffffffffffffffffffffffff0")};
    const Bytes s_values[] = {Bytes(16, 0x00), Bytes(16, 0xff)};
    for (const Bytes& r : r_values)
        for (const Bytes& s : s_values)
            for (std::uint8_t fill : {std::uint8_t{0xff}, std::uint8_t{0x00}})
                for (std::size_t len : {0u, 1u, 15u, 16u, 17u, 31u, 32u, 33u, 64u, 160u, 1024u, 4099u}) {
                    Bytes key = r;
                    key.insert(key.end(), s.begin(), s.end());
                    const Bytes msg(len, fill);
                    EXPECT_EQ(poly1305_hex(key, msg), libsodium_poly1305_hex(key, msg))
                        << "r " << to_hex(r) << " s " << to_hex(s) << " fill " << int{fill}
                        << " len " << len;
                }
}

TEST(ScalarPoly1305, RandomKeysAndMessagesMatchLibsodium) {
    for (std::size_t len = 0; len <= 300; ++len) {
        const Bytes key = pattern(32, static_cast<std::uint8_t>(len));
        const Bytes msg = pattern(len, static_cast<std::uint8_t>(len * 7 + 1));
        ASSERT_EQ(poly1305_hex(key, msg), libsodium_poly1305_hex(key, msg)) << "len " << len;
    }
}

TEST(ScalarPoly1305, AnySplitIntoUpdatesGivesTheOneShotTag) {
    const Bytes key = pattern(32, 42);
    const Bytes msg = pattern(200, 17);
    const std::string one_shot = poly1305_hex(key, msg);
    for (std::size_t first = 0; first <= msg.size(); ++first)
        for (std::size_t second : {0u, 1u, 5u, 16u, 33u}) {
            const std::size_t second_len = std::min(second, msg.size() - first);
            scalar::Poly1305State st;
            scalar::poly1305_init(st, key.data());
            scalar::poly1305_update(st, msg.data(), first);
            scalar::poly1305_update(st, msg.data() + first, second_len);
            scalar::poly1305_update(st, nullptr, 0);
            scalar::poly1305_update(st, msg.data() + first + second_len,
                                    msg.size() - first - second_len);
            std::uint8_t tag[16];
            scalar::poly1305_finish(st, tag);
            ASSERT_EQ(to_hex(tag), one_shot) << "split at " << first << " + " << second_len;
        }
}

// ---- ChaCha20-Poly1305 ----------------------------------------------------------------

struct Sealed {
    Bytes ciphertext;
    Bytes tag;
};

Sealed seal(const AeadKey& key, const Bytes& nonce, const Bytes& aad, const Bytes& plaintext) {
    Sealed s{Bytes(plaintext.size()), Bytes(16)};
    const AeadChunk chunk{nonce.data(), nonce.size(), aad.data(), aad.size(), plaintext.data(),
                          s.ciphertext.data(), plaintext.size(), s.tag.data()};
    key.seal({&chunk, 1});
    return s;
}

// Returns whether the chunk authenticated; `out` receives the plaintext or zeros.
bool open(const AeadKey& key, const Bytes& nonce, const Bytes& aad, const Bytes& ciphertext,
          Bytes tag, Bytes& out) {
    out.assign(ciphertext.size(), 0xaa);  // not zero, so zeroing on failure is visible
    const AeadChunk chunk{nonce.data(), nonce.size(), aad.data(), aad.size(), ciphertext.data(),
                          out.data(), ciphertext.size(), tag.data()};
    bool ok = false;
    const std::size_t failures = key.open({&chunk, 1}, &ok);
    EXPECT_EQ(failures, ok ? 0u : 1u);
    return ok;
}

TEST(ScalarChaCha20Poly1305, StateIsTheKeyOnly) {
    EXPECT_EQ(scalar::kChaCha20Poly1305.aead, Aead::chacha20_poly1305);
    EXPECT_EQ(scalar::kChaCha20Poly1305.state_size, 32u);
}

TEST(ScalarChaCha20Poly1305, Rfc8439Section282) {
    const AeadKey key(scalar::kChaCha20Poly1305,
                      from_hex("808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"));
    const Bytes nonce = from_hex("070000004041424344454647");
    const Bytes aad = from_hex("50515253c0c1c2c3c4c5c6c7");
    const Sealed s = seal(key, nonce, aad, ascii(kSunscreen));
    EXPECT_EQ(to_hex(s.ciphertext),
              "d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d6"
              "3dbea45e8ca9671282fafb69da92728b1a71de0a9e060b2905d6a5b67ecd3b36"
              "92ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc"
              "3ff4def08e4b7a9de576d26586cec64b6116");
    EXPECT_EQ(to_hex(s.tag), "1ae10b594f09e26a7e902ecbd0600691");

    Bytes plaintext;
    EXPECT_TRUE(open(key, nonce, aad, s.ciphertext, s.tag, plaintext));
    EXPECT_EQ(plaintext, ascii(kSunscreen));
}

TEST(ScalarChaCha20Poly1305, TamperedTagCiphertextOrAadFailsWithZeroedOutput) {
    const AeadKey key(scalar::kChaCha20Poly1305, pattern(32, 11));
    const Bytes nonce = pattern(12, 12);
    const Bytes aad = pattern(21, 13);
    const Sealed s = seal(key, nonce, aad, pattern(100, 14));
    const Bytes zeros(100, 0);
    Bytes out;

    for (std::size_t bit = 0; bit < 128; bit += 9) {
        Bytes tag = s.tag;
        tag[bit / 8] ^= static_cast<std::uint8_t>(1u << (bit % 8));
        EXPECT_FALSE(open(key, nonce, aad, s.ciphertext, tag, out)) << "tag bit " << bit;
        EXPECT_EQ(out, zeros);
    }
    Bytes ciphertext = s.ciphertext;
    ciphertext[57] ^= 0x40;
    EXPECT_FALSE(open(key, nonce, aad, ciphertext, s.tag, out));
    EXPECT_EQ(out, zeros);
    Bytes other_aad = aad;
    other_aad[0] ^= 1;
    EXPECT_FALSE(open(key, nonce, other_aad, s.ciphertext, s.tag, out));
    EXPECT_EQ(out, zeros);
    EXPECT_FALSE(open(key, pattern(12, 99), aad, s.ciphertext, s.tag, out));
    EXPECT_EQ(out, zeros);
    EXPECT_TRUE(open(key, nonce, aad, s.ciphertext, s.tag, out));
}

TEST(ScalarChaCha20Poly1305, InPlaceSealAndOpen) {
    const AeadKey key(scalar::kChaCha20Poly1305, pattern(32, 21));
    const Bytes nonce = pattern(12, 22);
    const Bytes aad = pattern(5, 23);
    const Bytes plaintext = pattern(777, 24);
    const Sealed reference = seal(key, nonce, aad, plaintext);

    Bytes buffer = plaintext;
    Bytes tag(16);
    const AeadChunk chunk{nonce.data(), 12, aad.data(), aad.size(), buffer.data(), buffer.data(),
                          buffer.size(), tag.data()};
    key.seal({&chunk, 1});
    EXPECT_EQ(buffer, reference.ciphertext);
    EXPECT_EQ(tag, reference.tag);

    bool ok = false;
    EXPECT_EQ(key.open({&chunk, 1}, &ok), 0u);
    EXPECT_TRUE(ok);
    EXPECT_EQ(buffer, plaintext);

    // A failed in-place open leaves zeros, not ciphertext or plaintext.
    key.seal({&chunk, 1});
    tag[3] ^= 1;
    EXPECT_EQ(key.open({&chunk, 1}, &ok), 1u);
    EXPECT_FALSE(ok);
    EXPECT_EQ(buffer, Bytes(buffer.size(), 0));
}

TEST(ScalarChaCha20Poly1305, EveryLengthUpTo300RoundTripsAndMatchesLibsodium) {
    const Bytes key_bytes = pattern(32, 31);
    const AeadKey key(scalar::kChaCha20Poly1305, key_bytes);
    for (std::size_t len = 0; len <= 300; ++len) {
        const Bytes nonce = pattern(12, static_cast<std::uint8_t>(len));
        const Bytes aad = pattern(len % 37, 32);
        const Bytes plaintext = pattern(len, 33);
        const Sealed s = seal(key, nonce, aad, plaintext);

        ensure_sodium_initialised();
        Bytes expected(len + 16);
        unsigned long long expected_len = 0;
        crypto_aead_chacha20poly1305_ietf_encrypt(expected.data(), &expected_len, plaintext.data(),
                                                  len, aad.data(), aad.size(), nullptr,
                                                  nonce.data(), key_bytes.data());
        Bytes ours = s.ciphertext;
        ours.insert(ours.end(), s.tag.begin(), s.tag.end());
        ASSERT_EQ(to_hex(ours), to_hex(expected)) << "len " << len;

        Bytes decrypted;
        ASSERT_TRUE(open(key, nonce, aad, s.ciphertext, s.tag, decrypted)) << "len " << len;
        ASSERT_EQ(decrypted, plaintext) << "len " << len;
    }
}

TEST(ScalarChaCha20Poly1305, BatchOfMixedLengthsIsChunkByChunk) {
    const AeadKey key(scalar::kChaCha20Poly1305, pattern(32, 41));
    const std::size_t lengths[] = {0, 1, 64, 255, 256, 257, 4096, 16384, 63, 1000};
    constexpr std::size_t n = std::size(lengths);
    std::vector<Bytes> nonces, aads, plaintexts, ciphertexts, tags;
    std::vector<AeadChunk> chunks;
    for (std::size_t i = 0; i < n; ++i) {
        nonces.push_back(pattern(12, static_cast<std::uint8_t>(100 + i)));
        aads.push_back(pattern(i * 3, static_cast<std::uint8_t>(i)));
        plaintexts.push_back(pattern(lengths[i], static_cast<std::uint8_t>(200 + i)));
        ciphertexts.emplace_back(lengths[i]);
        tags.emplace_back(16);
    }
    for (std::size_t i = 0; i < n; ++i)
        chunks.push_back({nonces[i].data(), 12, aads[i].data(), aads[i].size(),
                          plaintexts[i].data(), ciphertexts[i].data(), lengths[i],
                          tags[i].data()});
    key.seal(chunks);

    // Each chunk of the batch equals the same chunk sealed alone.
    for (std::size_t i = 0; i < n; ++i) {
        const Sealed alone = seal(key, nonces[i], aads[i], plaintexts[i]);
        EXPECT_EQ(ciphertexts[i], alone.ciphertext) << "chunk " << i;
        EXPECT_EQ(tags[i], alone.tag) << "chunk " << i;
    }

    // Open the batch with chunks 2 and 7 tampered: exactly those fail, and only they are zeroed.
    tags[2][0] ^= 1;
    ciphertexts[7][100] ^= 1;
    std::vector<Bytes> outputs;
    for (std::size_t i = 0; i < n; ++i) outputs.emplace_back(lengths[i], 0xaa);
    for (std::size_t i = 0; i < n; ++i) {
        chunks[i].in = ciphertexts[i].data();
        chunks[i].out = outputs[i].data();
    }
    bool ok[n] = {};
    EXPECT_EQ(key.open(chunks, ok), 2u);
    for (std::size_t i = 0; i < n; ++i) {
        const bool tampered = i == 2 || i == 7;
        EXPECT_EQ(ok[i], !tampered) << "chunk " << i;
        EXPECT_EQ(outputs[i], tampered ? Bytes(lengths[i], 0) : plaintexts[i]) << "chunk " << i;
    }
}

}  // namespace
}  // namespace warp
