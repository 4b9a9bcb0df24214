// SPEC 1 and 8: HMAC-SHA256 (RFC 4231), HKDF-SHA256 (RFC 5869 appendix A), Argon2id through
// libsodium, and key files.
#include <gtest/gtest.h>

#include "formats/common/kdf.hpp"
#include "tests/support/hex.hpp"
#include "tests/formats/format_fixtures.hpp"

namespace warp::formats::warp_format::test {
namespace {

using warp::test::from_hex;
using warp::test::to_hex;

TEST(FormatKdf, HmacSha256Rfc4231) {
    // Test case 2: key "Jefe".
    const std::string key = "Jefe";
    const std::string data = "what do ya want for nothing?";
    const Mac mac = hmac_sha256({reinterpret_cast<const std::uint8_t*>(key.data()), key.size()},
                                {{reinterpret_cast<const std::uint8_t*>(data.data()), 10},
                                 {reinterpret_cast<const std::uint8_t*>(data.data()) + 10,
                                  data.size() - 10}});
    EXPECT_EQ(to_hex(mac), "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
    // Test case 6: a key longer than the block.
    const Bytes long_key(131, 0xaa);
    const std::string text = "Test Using Larger Than Block-Size Key - Hash Key First";
    EXPECT_EQ(to_hex(hmac_sha256(long_key, {{reinterpret_cast<const std::uint8_t*>(text.data()),
                                             text.size()}})),
              "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
}

TEST(FormatKdf, HmacSha256OfAnEmptyKeyAndEmptyParts) {
    // HPKE's LabeledExtract takes empty salts, whose span has no data pointer: the key is
    // zero-padded (RFC 2104), the same as 32 zero bytes, and an empty part adds nothing.
    // (fuzz-age found libsodium given a null pointer there under UBSan.)
    const std::string abc = "abc";
    const std::span<const std::uint8_t> text(reinterpret_cast<const std::uint8_t*>(abc.data()),
                                             abc.size());
    const Bytes zeros(32, 0);
    EXPECT_EQ(to_hex(hmac_sha256({}, {text, {}})), to_hex(hmac_sha256(zeros, {text})));
    EXPECT_EQ(to_hex(hmac_sha256({}, {})),
              "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad");
}

struct HkdfCase {
    const char* ikm;
    const char* salt;
    const char* info;
    std::size_t length;
    const char* okm;
};

TEST(FormatKdf, HkdfSha256Rfc5869) {
    const HkdfCase cases[] = {
        {"0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b", "000102030405060708090a0b0c",
         "f0f1f2f3f4f5f6f7f8f9", 42,
         "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"},
        {"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f202122232425262728292a"
         "2b2c2d2e2f303132333435363738393a3b3c3d3e3f404142434445464748494a4b4c4d4e4f",
         "606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f808182838485868788898a"
         "8b8c8d8e8f909192939495969798999a9b9c9d9e9fa0a1a2a3a4a5a6a7a8a9aaabacadaeaf",
         "b0b1b2b3b4b5b6b7b8b9babbbcbdbebfc0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9da"
         "dbdcdddedfe0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff",
         82,
         "b11e398dc80327a1c8e7f78c596a49344f012eda2d4efad8a050cc4c19afa97c59045a99cac7827271cb41c6"
         "5e590e09da3275600c2f09b8367793a9aca3db71cc30c58179ec3e87c14c01d5c1f3434f1d87"},
        // Empty salt and info.
        {"0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b", "", "", 42,
         "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8"},
    };
    for (const HkdfCase& c : cases) {
        Bytes out(c.length);
        hkdf_sha256(from_hex(c.ikm), from_hex(c.salt), from_hex(c.info), out);
        EXPECT_EQ(to_hex(out), c.okm);
    }
}

TEST(FormatKdf, Argon2idIsDeterministicAndSaltSensitive) {
    const std::string pw = "password";
    const std::span<const std::uint8_t> pw_bytes(reinterpret_cast<const std::uint8_t*>(pw.data()),
                                                 pw.size());
    std::array<std::uint8_t, kSlotSaltSize> salt{};
    Key a{}, b{}, c{};
    argon2id(pw_bytes, salt, 1, 8 * 1024, a);
    argon2id(pw_bytes, salt, 1, 8 * 1024, b);
    salt[0] = 1;
    argon2id(pw_bytes, salt, 1, 8 * 1024, c);
    EXPECT_EQ(a, b);
    EXPECT_NE(a, c);
}

TEST(FormatKeyFile, EncodesAndDecodes) {
    const SecretBytes secret = generate_key_secret();
    ASSERT_EQ(secret.size(), 32u);
    const std::string text = encode_key_file(secret);
    EXPECT_EQ(text.size(), 17u + 64 + 1);
    EXPECT_TRUE(text.starts_with("warpcrypt-key-v1:"));
    const SecretBytes back = decode_key_file(text);
    EXPECT_TRUE(std::equal(back.span().begin(), back.span().end(), secret.span().begin()));
    EXPECT_NE(to_hex(generate_key_secret().span()), to_hex(secret.span()));
}

TEST(FormatKeyFile, CommentsBlankLinesAndCrlfAreAccepted) {
    const std::string hex(64, 'a');
    const SecretBytes s =
        decode_key_file("# created by warpcrypt keygen\r\n\r\nwarpcrypt-key-v1:" + hex + "\r\n");
    EXPECT_EQ(to_hex(s.span()), hex);
    EXPECT_EQ(to_hex(decode_key_file("warpcrypt-key-v1:" + std::string(64, 'B')).span()),
              std::string(64, 'b'));
}

TEST(FormatKeyFile, MalformedIsAUsageError) {
    const std::string hex(64, '0');
    expect_error([] { decode_key_file(""); }, ErrorCause::usage, "malformed key file");
    expect_error([] { decode_key_file("# only a comment\n"); }, ErrorCause::usage, "no");
    expect_error([&] { decode_key_file("age-key-v1:" + hex); }, ErrorCause::usage, "line 1");
    expect_error([&] { decode_key_file("warpcrypt-key-v1:" + hex.substr(2)); }, ErrorCause::usage,
                 "62 hex digits");
    expect_error([&] { decode_key_file("warpcrypt-key-v1:" + hex.substr(1) + "g"); },
                 ErrorCause::usage, "not a hex digit");
    expect_error(
        [&] { decode_key_file("warpcrypt-key-v1:" + hex + "\nwarpcrypt-key-v1:" + hex + "\n"); },
        ErrorCause::usage, "line 2 is a second key");
}

}  // namespace
}  // namespace warp::formats::warp_format::test
