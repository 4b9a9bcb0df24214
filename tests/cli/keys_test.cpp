// Every way to give a key: key files (several -k), WARPCRYPT_PASSPHRASE, --passphrase-file,
// --passphrase-fd, mixed slots, the KDF cost cap, and no key at all without a terminal.
#include <string>

#include "tests/cli/cli_fixture.hpp"

namespace warp::clitest {
namespace {

class Keys : public CliTest {
protected:
    const std::string plaintext_ = pattern(150000, 3);

    // Encrypts plaintext_ to `name` with the given key arguments (and environment).
    fs::path seal(std::string_view name, std::vector<std::string> key_args,
                  std::map<std::string, std::string> env = {}) {
        const auto input = make_file("plain", plaintext_);
        Command command;
        command.args = args({{"encrypt", input.string(), "-o", path(name).string()}, key_args});
        command.env = std::move(env);
        const auto outcome = run(command);
        EXPECT_EQ(outcome.exit_code, 0) << describe(outcome);
        return path(name);
    }

    // Decrypts `sealed` to stdout with the given key arguments.
    Outcome open(const fs::path& sealed, std::vector<std::string> key_args,
                 std::map<std::string, std::string> env = {}, std::map<int, std::string> fds = {}) {
        Command command;
        command.args = args({{"decrypt", sealed.string(), "-o", "-"}, key_args});
        command.env = std::move(env);
        command.fd_bytes = std::move(fds);
        return run(command);
    }
};

TEST_F(Keys, PassphraseFromEnvironment) {
    const auto sealed = seal("p.warp", fast_kdf, {{"WARPCRYPT_PASSPHRASE", "correct horse"}});
    auto outcome = open(sealed, {}, {{"WARPCRYPT_PASSPHRASE", "correct horse"}});
    ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
    EXPECT_TRUE(outcome.out == plaintext_);

    outcome = open(sealed, {}, {{"WARPCRYPT_PASSPHRASE", "correct horsE"}});
    EXPECT_EQ(outcome.exit_code, 3) << "wrong passphrase: " << describe(outcome);
    EXPECT_TRUE(outcome.out.empty()) << "plaintext released with a wrong passphrase";
}

TEST_F(Keys, PassphraseFileUsesFirstLineWithoutNewline) {
    const auto secret = make_secret_file("pass.txt", "first line secret\nsecond line\n");
    const auto sealed = seal("p.warp", args({{"--passphrase-file", secret.string()}, fast_kdf}));
    // The same passphrase given another way opens it: the newline and line 2 were not used.
    auto outcome = open(sealed, {}, {{"WARPCRYPT_PASSPHRASE", "first line secret"}});
    ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
    EXPECT_TRUE(outcome.out == plaintext_);

    outcome = open(sealed, {"--passphrase-file", secret.string()});
    ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
    EXPECT_TRUE(outcome.out == plaintext_);
}

TEST_F(Keys, PassphraseFromDescriptor) {
    Command encrypt;
    encrypt.args = args({{"encrypt", "--passphrase-fd", "3"}, fast_kdf});
    encrypt.stdin_bytes = plaintext_;
    encrypt.fd_bytes = {{3, "fd secret\n"}};
    const auto sealed = run(encrypt);
    ASSERT_EQ(sealed.exit_code, 0) << describe(sealed);
    const auto file = make_file("fd.warp", sealed.out);

    auto outcome = open(file, {"--passphrase-fd", "5"}, {}, {{5, "fd secret\nignored\n"}});
    ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
    EXPECT_TRUE(outcome.out == plaintext_);

    outcome = open(file, {}, {{"WARPCRYPT_PASSPHRASE", "fd secret"}});
    ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
}

TEST_F(Keys, SeveralKeyFilesAnyOneOpens) {
    const auto k1 = make_key("k1");
    const auto k2 = make_key("k2");
    const auto k3 = make_key("k3");
    const auto stranger = make_key("stranger");
    const auto sealed =
        seal("multi.warp", {"-k", k1.string(), "-k", k2.string(), "--key-file", k3.string()});
    EXPECT_EQ(parse_container(read_file(sealed)).slot_count, 3u);

    for (const auto& key : {k1, k2, k3}) {
        const auto outcome = open(sealed, {"-k", key.string()});
        ASSERT_EQ(outcome.exit_code, 0) << key << ": " << describe(outcome);
        EXPECT_TRUE(outcome.out == plaintext_) << key;
    }
    // Each -k on decrypt is tried: a stranger first does not stop the right key.
    auto outcome = open(sealed, {"-k", stranger.string(), "-k", k3.string()});
    ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
    EXPECT_TRUE(outcome.out == plaintext_);

    outcome = open(sealed, {"-k", stranger.string()});
    EXPECT_EQ(outcome.exit_code, 3) << describe(outcome);
    EXPECT_TRUE(outcome.out.empty());
}

TEST_F(Keys, KeyFileAndPassphraseSlotsInOneFile) {
    const auto key = make_key("k");
    const auto secret = make_secret_file("pass", "mixed\n");
    const auto sealed = seal("mixed.warp", args({{"-k", key.string(), "--passphrase-file",
                                                  secret.string()}, fast_kdf}));
    const auto file = read_file(sealed);
    ASSERT_EQ(parse_container(file).slot_count, 2u);

    auto outcome = open(sealed, {"-k", key.string()});
    ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
    outcome = open(sealed, {"--passphrase-file", secret.string()});
    ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
    EXPECT_TRUE(outcome.out == plaintext_);
}

TEST_F(Keys, KdfCostOverTheCapIsRefusedNamingTheFlag) {
    const auto sealed = seal("costly.warp", {"--kdf-memory", "16", "--kdf-passes", "1"},
                             {{"WARPCRYPT_PASSPHRASE", "pw"}});
    auto outcome = open(sealed, {"--kdf-max-memory", "8"}, {{"WARPCRYPT_PASSPHRASE", "pw"}});
    EXPECT_EQ(outcome.exit_code, 2) << describe(outcome);
    EXPECT_NE(outcome.err.find("--kdf-max-memory"), std::string::npos) << outcome.err;
    EXPECT_TRUE(outcome.out.empty());

    outcome = open(sealed, {"--kdf-max-memory", "16"}, {{"WARPCRYPT_PASSPHRASE", "pw"}});
    EXPECT_EQ(outcome.exit_code, 0) << describe(outcome);
}

TEST_F(Keys, KdfParametersOutOfRangeAreUsageErrors) {
    const std::map<std::string, std::string> env = {{"WARPCRYPT_PASSPHRASE", "pw"}};
    for (const auto& bad : std::vector<std::vector<std::string>>{
             {"--kdf-memory", "7"}, {"--kdf-memory", "4097"}, {"--kdf-passes", "0"},
             {"--kdf-passes", "17"}}) {
        Command command;
        command.args = args({{"encrypt"}, bad});
        command.stdin_bytes = "x";
        command.env = env;
        const auto outcome = run(command);
        EXPECT_EQ(outcome.exit_code, 2) << bad[0] << " " << bad[1] << ": " << describe(outcome);
        EXPECT_TRUE(outcome.out.empty());
    }
}

TEST_F(Keys, NoKeyAndNoTerminalIsAUsageError) {
    for (const std::string command_name : {"encrypt", "decrypt"}) {
        Command command;
        command.args = {command_name};
        command.stdin_bytes = "data";
        const auto outcome = run(command);
        EXPECT_EQ(outcome.exit_code, 2) << command_name << ": " << describe(outcome);
        EXPECT_TRUE(outcome.err.starts_with("warpcrypt: error: ")) << outcome.err;
    }
}

TEST_F(Keys, MalformedKeyFileIsAUsageError) {
    const auto bad = make_file("bad.key", "warpcrypt-key-v1:00112233\n");
    Command command;
    command.args = {"encrypt", "-k", bad.string()};
    command.stdin_bytes = "data";
    const auto outcome = run(command);
    EXPECT_EQ(outcome.exit_code, 2) << describe(outcome);
    EXPECT_NE(outcome.err.find("bad.key"), std::string::npos) << "error should name the file: "
                                                              << outcome.err;
}

TEST_F(Keys, HandWrittenKeyFileWithCommentIsAccepted) {
    // SPEC section 8: one line "warpcrypt-key-v1:" + 64 lower-case hex digits; '#' lines ignored.
    const auto key = make_file("hand.key",
                               "# written by hand\nwarpcrypt-key-v1:"
                               "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f\n");
    const auto sealed = seal("hand.warp", {"-k", key.string()});
    const auto outcome = open(sealed, {"-k", key.string()});
    ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
    EXPECT_TRUE(outcome.out == plaintext_);
}

}  // namespace
}  // namespace warp::clitest
