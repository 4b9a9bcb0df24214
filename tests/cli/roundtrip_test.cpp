// Round trips through the binary: file to file (default names PATH.warp and back) and stdin to
// stdout, at the sizes around the 64 KiB chunk edges, for both suites.
#include <string>
#include <tuple>

#include "tests/cli/cli_fixture.hpp"

namespace warp::clitest {
namespace {

constexpr std::size_t default_chunk = 65536;

// SPEC section 6: n = ceil(L / C) data chunks, each with a tag, then the 40-byte trailer chunk.
std::size_t expected_ciphertext_size(std::size_t slots, std::size_t plaintext) {
    const std::size_t n = (plaintext + default_chunk - 1) / default_chunk;
    return layout::header_size(slots) + plaintext + n * layout::tag_size +
           layout::trailer_chunk_size;
}

class RoundTrip : public CliTest,
                  public ::testing::WithParamInterface<std::tuple<std::string, std::size_t>> {
protected:
    std::string cipher() const { return std::get<0>(GetParam()); }
    std::size_t size() const { return std::get<1>(GetParam()); }
};

TEST_P(RoundTrip, FileToFileWithDefaultNames) {
    const auto key = make_key("my.key");
    const auto plaintext = pattern(size(), size());
    const auto input = make_file("data.bin", plaintext);

    auto outcome = run({"encrypt", input.string(), "-k", key.string(), "--cipher", cipher()});
    ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
    EXPECT_TRUE(outcome.out.empty()) << "encrypt to a file wrote to stdout";
    const auto sealed = path("data.bin.warp");
    ASSERT_TRUE(fs::exists(sealed)) << "encrypt PATH should write PATH.warp";
    const auto ciphertext = read_file(sealed);
    EXPECT_EQ(ciphertext.size(), expected_ciphertext_size(1, size()));
    if (size() >= 64) {
        EXPECT_EQ(ciphertext.find(plaintext.substr(0, 64)), std::string::npos)
            << "plaintext visible in the ciphertext";
    }

    fs::rename(input, path("original.bin"));
    outcome = run({"decrypt", sealed.string(), "-k", key.string()});
    ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
    ASSERT_TRUE(fs::exists(input)) << "decrypt PATH.warp should write PATH";
    EXPECT_TRUE(read_file(input) == plaintext) << "decrypted file differs from the original";
    EXPECT_EQ(list_dir(dir_),
              (std::vector<std::string>{"data.bin", "data.bin.warp", "my.key", "original.bin"}))
        << "stray files left in the directory";
}

TEST_P(RoundTrip, StdinToStdout) {
    const auto key = make_key("my.key");
    const auto plaintext = pattern(size(), 7 * size());

    Command encrypt;
    encrypt.args = {"encrypt", "-k", key.string(), "--cipher", cipher()};
    encrypt.stdin_bytes = plaintext;
    const auto sealed = run(encrypt);
    ASSERT_EQ(sealed.exit_code, 0) << describe(sealed);
    EXPECT_EQ(sealed.out.size(), expected_ciphertext_size(1, size()));

    Command decrypt;
    decrypt.args = {"decrypt", "-", "-o", "-", "-k", key.string()};
    decrypt.stdin_bytes = sealed.out;
    const auto opened = run(decrypt);
    ASSERT_EQ(opened.exit_code, 0) << describe(opened);
    EXPECT_TRUE(opened.out == plaintext) << "decrypted " << opened.out.size() << " bytes of "
                                         << plaintext.size() << ", or different bytes";
}

INSTANTIATE_TEST_SUITE_P(
    SizesAndSuites, RoundTrip,
    ::testing::Combine(::testing::Values("aes-256-gcm", "chacha20-poly1305"),
                       ::testing::Values(0, 1, 65535, 65536, 65537, 300000)),
    [](const auto& param_info) {
        std::string name = std::get<0>(param_info.param) + "_" +
                           std::to_string(std::get<1>(param_info.param));
        for (auto& c : name) {
            if (c == '-') c = '_';
        }
        return name;
    });

TEST_F(CliTest, ExplicitOutputPathAndStdinToFile) {
    const auto key = make_key("k");
    const auto plaintext = pattern(100000);
    Command encrypt;
    encrypt.args = {"encrypt", "-k", key.string(), "-o", path("sealed").string()};
    encrypt.stdin_bytes = plaintext;
    auto outcome = run(encrypt);
    ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
    EXPECT_TRUE(outcome.out.empty());

    // A name without .warp needs -o.
    outcome = run({"decrypt", path("sealed").string(), "-k", key.string()});
    EXPECT_EQ(outcome.exit_code, 2) << "decrypt of a name without .warp and no -o: "
                                    << describe(outcome);

    outcome = run({"decrypt", path("sealed").string(), "-k", key.string(), "-o",
                   path("opened").string()});
    ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
    EXPECT_TRUE(read_file(path("opened")) == plaintext);
}

TEST_F(CliTest, DefaultCipherRoundTrips) {
    const auto key = make_key("k");
    const auto plaintext = pattern(70000);
    const auto input = make_file("in", plaintext);
    auto outcome = run({"encrypt", input.string(), "-k", key.string(), "-o",
                        path("in.warp").string()});
    ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
    outcome = run({"decrypt", path("in.warp").string(), "-k", key.string(), "-o", "-"});
    ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
    EXPECT_TRUE(outcome.out == plaintext);
}

}  // namespace
}  // namespace warp::clitest
