// SPEC 9, the worked example: formats/testdata/worked_example.warp opens with
// worked_example.key, and encrypting again with the same randomness gives the same bytes.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "tests/support/hex.hpp"
#include "tests/unit/format_fixtures.hpp"

namespace warp::format::test {
namespace {

std::filesystem::path testdata(const char* name) {
    // This file lives in tests/unit/; the example lives with the format it illustrates.
    return std::filesystem::path(__FILE__).parent_path() / "../../formats/testdata" / name;
}

std::string read_text(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + path.string());
    return {std::istreambuf_iterator<char>(in), {}};
}

// The randomness of the example: a counter from 0x40 (file key 40..5f, salt 60..6f, payload
// nonce 70..8f, in the order encrypt draws them).
RandomFn counter_from(std::uint8_t start) {
    return [next = start](std::uint8_t* out, std::size_t len) mutable {
        for (std::size_t i = 0; i < len; ++i) out[i] = next++;
    };
}

TEST(FormatWorkedExample, KeyFileIsTheSpecsText) {
    const std::string text = read_text(testdata("worked_example.key"));
    EXPECT_EQ(text, "warpcrypt-key-v1:"
                    "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f\n");
    EXPECT_EQ(encode_key_file(decode_key_file(text)), text);
}

TEST(FormatWorkedExample, Decrypts) {
    const std::string file_text = read_text(testdata("worked_example.warp"));
    const Bytes file(file_text.begin(), file_text.end());
    ASSERT_EQ(file.size(), 226u);
    const Secret key{SlotType::key_file,
                     decode_key_file(read_text(testdata("worked_example.key"))), {}};
    const Bytes plain = decrypt_bytes(file, {key});
    EXPECT_EQ(std::string(plain.begin(), plain.end()), "Hello, world\n");
}

TEST(FormatWorkedExample, ReEncryptsToTheSameBytes) {
    const std::string file_text = read_text(testdata("worked_example.warp"));
    const Bytes expected(file_text.begin(), file_text.end());
    EncryptOptions options;
    options.suite = Suite::aes_256_gcm;
    options.chunk_log2 = 12;
    options.recipients.push_back(
        Secret{SlotType::key_file, decode_key_file(read_text(testdata("worked_example.key"))), {}});
    options.random = counter_from(0x40);
    const std::string hello = "Hello, world\n";
    const Bytes got = encrypt_bytes(Bytes(hello.begin(), hello.end()), options);
    EXPECT_EQ(warp::test::to_hex(got), warp::test::to_hex(expected));
}

}  // namespace
}  // namespace warp::format::test
