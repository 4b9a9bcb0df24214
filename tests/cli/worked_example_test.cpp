// formats/warp/SPEC.md section 9's worked example through the binary: the bytes in formats/warp/testdata/
// open with the example's key file to the documented plaintext, and `info` reads its header.
#include <nlohmann/json.hpp>
#include <string>

#include "tests/cli/cli_fixture.hpp"

namespace warp::clitest {
namespace {

const fs::path testdata = fs::path(WARPCRYPT_SOURCE_DIR) / "formats" / "warp" / "testdata";
const fs::path example = testdata / "worked_example.warp";
const fs::path example_key = testdata / "worked_example.key";
// SPEC section 9: AES-256-GCM, chunk size 2^12, one key-file slot, this plaintext.
constexpr std::string_view documented_plaintext = "Hello, world\n";

TEST_F(CliTest, WorkedExampleDecryptsToTheDocumentedPlaintext) {
    auto outcome = run({"decrypt", example.string(), "-k", example_key.string(), "-o", "-"});
    ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
    EXPECT_EQ(outcome.out, documented_plaintext);

    Command from_stdin;
    from_stdin.args = {"decrypt", "-k", example_key.string()};
    from_stdin.stdin_file = example;
    outcome = run(from_stdin);
    ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
    EXPECT_EQ(outcome.out, documented_plaintext);

    outcome = run({"verify", example.string(), "-k", example_key.string()});
    EXPECT_EQ(outcome.exit_code, 0) << describe(outcome);
    EXPECT_NE(outcome.err.find("authentic (13 bytes of plaintext)"), std::string::npos)
        << outcome.err;

    outcome = run({"decrypt", example.string(), "-k", example_key.string(), "-o", "-",
                   "--offset", "7", "--length", "5"});
    ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
    EXPECT_EQ(outcome.out, "world");
}

TEST_F(CliTest, WorkedExampleInfo) {
    const auto bytes = read_file(example);
    const auto c = parse_container(bytes);
    EXPECT_EQ(c.slot_count, 1u);
    EXPECT_EQ(c.chunk_size, 4096u);
    EXPECT_EQ(bytes.size(), c.header_size + documented_plaintext.size() + layout::tag_size +
                                layout::trailer_chunk_size);

    const auto outcome = run({"info", example.string(), "--json"});
    ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
    const auto doc = nlohmann::json::parse(outcome.out, nullptr, false);
    ASSERT_FALSE(doc.is_discarded()) << outcome.out;
    const auto text = doc.dump();
    EXPECT_NE(text.find("aes-256-gcm"), std::string::npos) << text;
}

}  // namespace
}  // namespace warp::clitest
