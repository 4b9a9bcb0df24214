// SPEC 9, the worked example: formats/warp/testdata/worked_example.warp opens with
// worked_example.key, and encrypting again with the same randomness gives the same bytes.
// SPEC 10's version 1 example (formats/warp/testdata/v1/, written by the version 1 writer) still
// opens.
#include <gtest/gtest.h>

#include "tests/support/hex.hpp"
#include "tests/formats/format_fixtures.hpp"

namespace warp::formats::warp_format::test {
namespace {

TEST(FormatWorkedExample, KeyFileIsTheSpecsText) {
    const std::string text = read_text(testdata("worked_example.key"));
    EXPECT_EQ(text, "warpcrypt-key-v1:"
                    "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f\n");
    EXPECT_EQ(encode_key_file(decode_key_file(text)), text);
}

TEST(FormatWorkedExample, Decrypts) {
    const std::string file_text = read_text(testdata("worked_example.warp"));
    const Bytes file(file_text.begin(), file_text.end());
    ASSERT_EQ(file.size(), 252u);
    const Secret key{KeyType::key_file,
                     decode_key_file(read_text(testdata("worked_example.key"))), {}};
    const Bytes plain = decrypt_bytes(file, {key});
    EXPECT_EQ(std::string(plain.begin(), plain.end()), "Hello, world\n");
}

TEST(FormatWorkedExample, ReEncryptsToTheSameBytes) {
    const std::string file_text = read_text(testdata("worked_example.warp"));
    const Bytes expected(file_text.begin(), file_text.end());
    Options options;
    options.aead = aead_of(Suite::aes_256_gcm);
    options.chunk_log2 = 12;
    options.recipients.push_back(
        Secret{KeyType::key_file, decode_key_file(read_text(testdata("worked_example.key"))), {}});
    options.random = counter_from(0x40);
    const std::string hello = "Hello, world\n";
    const Bytes got = encrypt_bytes(Bytes(hello.begin(), hello.end()), options);
    EXPECT_EQ(warp::test::to_hex(got), warp::test::to_hex(expected));
}

TEST(FormatWorkedExample, TheVersion1ExampleStillDecrypts) {
    const Bytes file = read_bytes(testdata("v1/worked_example.warp"));
    ASSERT_EQ(file.size(), 226u);
    ASSERT_EQ(file[kVersionOffset], 1);
    const Secret key{KeyType::key_file,
                     decode_key_file(read_text(testdata("v1/worked_example.key"))), {}};
    const Bytes plain = decrypt_bytes(file, {key});
    EXPECT_EQ(std::string(plain.begin(), plain.end()), "Hello, world\n");
}

}  // namespace
}  // namespace warp::formats::warp_format::test
