// Key slots through the binary (formats/warp/SPEC.md section 4, README "Security"): the crafted
// files of the security review's partitioning-oracle attack no longer tell one passphrase guess
// from another; a file holds one passphrase slot at most; one attempt's Argon2id work is
// capped; Argon2id without memory is a resource error; slots of unknown types are skipped;
// files of the version 1 writer still open.
#include <chrono>
#include <string>

#include "tests/cli/cli_fixture.hpp"
#include "tests/support/sanitizers.hpp"

namespace warp::clitest {
namespace {

using warp::test::kAddressSanitizer;

const fs::path testdata = fs::path(WARPCRYPT_SOURCE_DIR) / "formats" / "warp" / "testdata";

Outcome decrypt_with_passphrase(const fs::path& file, const std::string& passphrase,
                                std::vector<std::string> extra = {}) {
    Command command;
    command.args = args({{"decrypt", file.string(), "-o", "-"}, extra});
    command.env = {{"WARPCRYPT_PASSPHRASE", passphrase}};
    return run(command);
}

TEST_F(CliTest, ACollidingPassphraseGuessLooksLikeAnyWrongPassphrase) {
    // One version 1 slot that opens under guess-00, guess-01 and guess-02, each to another
    // file key; the MAC is guess-00's (tests/formats/format_partitioning_test.cpp made it).
    const fs::path file = testdata / "v1" / "partition-1-slot.warp";
    auto outcome = decrypt_with_passphrase(file, "guess-00");
    ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
    EXPECT_EQ(outcome.out, "the crafted file's plaintext\n");
    const auto wrong = decrypt_with_passphrase(file, "not a guess");
    EXPECT_EQ(wrong.exit_code, 3) << describe(wrong);
    for (const char* colliding : {"guess-01", "guess-02"}) {
        SCOPED_TRACE(colliding);
        outcome = decrypt_with_passphrase(file, colliding);
        EXPECT_EQ(outcome.exit_code, wrong.exit_code) << describe(outcome);
        EXPECT_EQ(outcome.err, wrong.err);
        EXPECT_TRUE(outcome.out.empty());
    }
}

TEST_F(CliTest, SixteenPassphraseSlotsAreRefusedWhateverThePassphrase) {
    // 16 colliding slots: 48 guesses in one attempt under the version 1 reader.
    const fs::path file = testdata / "v1" / "partition-16-slots.warp";
    const auto first = decrypt_with_passphrase(file, "guess-00");
    EXPECT_EQ(first.exit_code, 4) << describe(first);
    EXPECT_NE(first.err.find("16 passphrase slots, and a file may hold at most one"),
              std::string::npos)
        << first.err;
    for (const char* pass : {"guess-05", "guess-47", "not a guess"}) {
        SCOPED_TRACE(pass);
        const auto outcome = decrypt_with_passphrase(file, pass);
        EXPECT_EQ(outcome.exit_code, first.exit_code);
        EXPECT_EQ(outcome.err, first.err);
    }
}

TEST_F(CliTest, EncryptWritesAtMostOnePassphraseSlot) {
    const auto one = make_secret_file("one", "first\n");
    const auto two = make_secret_file("two", "second\n");
    Command command;
    command.args = args({{"encrypt", "--passphrase-file", one.string(), "--passphrase-fd", "3"},
                         fast_kdf});
    command.fd_bytes = {{3, "second\n"}};
    command.stdin_bytes = "data";
    const auto outcome = run(command);
    EXPECT_EQ(outcome.exit_code, 2) << describe(outcome);
    EXPECT_NE(outcome.err.find("at most one passphrase slot"), std::string::npos) << outcome.err;
    EXPECT_TRUE(outcome.out.empty());
}

class KdfCost : public CliTest {
protected:
    // A file sealed under passphrase "pw" with this Argon2id cost (MiB, passes).
    fs::path sealed_with_cost(const char* memory_mib, const char* passes,
                              const std::string& plaintext) const {
        Command seal;
        seal.args = {"encrypt", "--kdf-memory", memory_mib, "--kdf-passes", passes};
        seal.env = {{"WARPCRYPT_PASSPHRASE", "pw"}};
        seal.stdin_bytes = plaintext;
        const auto sealed = run(seal);
        EXPECT_EQ(sealed.exit_code, 0) << describe(sealed);
        return make_file("sealed.warp", sealed.out);
    }
};

TEST_F(KdfCost, WorkOverTheCapIsRefusedBeforeItRuns) {
    // 16 passes x 128 MiB = 2048 MiB-passes: under the default cap of 3072, over 1000.
    const auto file = sealed_with_cost("128", "16", "work");
    const auto started = std::chrono::steady_clock::now();
    auto outcome = decrypt_with_passphrase(file, "pw", {"--kdf-max-work", "1000"});
    EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(2))
        << "Argon2id ran before the refusal";
    EXPECT_EQ(outcome.exit_code, 2) << describe(outcome);
    EXPECT_NE(outcome.err.find("16 passes x 128 MiB = 2048 MiB-passes, over the --kdf-max-work "
                               "limit of 1000 MiB-passes"),
              std::string::npos)
        << outcome.err;
    EXPECT_NE(outcome.err.find("raise the limit"), std::string::npos) << outcome.err;
    outcome = decrypt_with_passphrase(file, "pw");
    EXPECT_EQ(outcome.exit_code, 0) << describe(outcome);
    EXPECT_EQ(outcome.out, "work");
}

TEST_F(KdfCost, ArgonWithoutItsMemoryIsAResourceError) {
    if (kAddressSanitizer) GTEST_SKIP() << "AddressSanitizer reserves terabytes of address space";
    const auto file = sealed_with_cost("512", "1", "memory");
    Command open;
    open.args = {"decrypt", file.string(), "-o", "-"};
    open.env = {{"WARPCRYPT_PASSPHRASE", "pw"}};
    open.limits.address_space = std::uint64_t{256} << 20;  // `ulimit -v 262144`
    const auto outcome = run(open);
    EXPECT_EQ(outcome.exit_code, 7) << describe(outcome);
    EXPECT_NE(outcome.err.find("not enough memory for the passphrase KDF: Argon2id needs 512 MiB"),
              std::string::npos)
        << outcome.err;
    EXPECT_EQ(outcome.err.find("--kdf-max-memory"), std::string::npos)
        << "a resource error, not a cap to raise: " << outcome.err;
}

TEST_F(CliTest, SlotsOfUnknownTypesAreSkipped) {
    const fs::path key = testdata / "worked_example.key";
    auto outcome = run({"decrypt", (testdata / "unknown-slot-types.warp").string(), "-k",
                        key.string(), "-o", "-"});
    ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
    EXPECT_EQ(outcome.out, "Hello, world\n");
    outcome = run({"info", (testdata / "unknown-slot-types.warp").string()});
    ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
    EXPECT_NE(outcome.out.find("slot 1: type 64, unknown to this warpcrypt (skipped)"),
              std::string::npos)
        << outcome.out;
    EXPECT_NE(outcome.out.find("slot 3: key-file"), std::string::npos) << outcome.out;

    outcome = run({"decrypt", (testdata / "only-unknown-slot-types.warp").string(), "-k",
                   key.string(), "-o", "-"});
    EXPECT_EQ(outcome.exit_code, 6) << describe(outcome);
    EXPECT_NE(outcome.err.find("none of the file's 2 key slots is of a type this warpcrypt can "
                               "open (types: 64 and 127)"),
              std::string::npos)
        << outcome.err;
}

TEST_F(CliTest, FilesOfTheVersion1WriterStillOpen) {
    const fs::path v1 = testdata / "v1";
    // legacy.key is committed 0644 (git keeps no other mode): a private copy, to keep the
    // output free of the warning.
    const auto key = make_file("legacy.key", read_file(v1 / "legacy.key"));
    fs::permissions(key, fs::perms(0600));
    for (const char* name : {"keyfile-and-passphrase.warp", "chacha-keyfile.warp"}) {
        SCOPED_TRACE(name);
        const auto outcome = run({"decrypt", (v1 / name).string(), "-k", key.string(), "-o", "-"});
        ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
        EXPECT_EQ(outcome.out.size(), 17600u);
        EXPECT_TRUE(outcome.out.starts_with("warpcrypt format v1 legacy file, line 00000\n"));
        EXPECT_TRUE(outcome.err.empty()) << outcome.err;
    }
    auto outcome = run({"decrypt", (v1 / "keyfile-and-passphrase.warp").string(),
                        "--passphrase-file", (v1 / "legacy.passphrase").string(), "-o", "-"});
    ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
    EXPECT_EQ(outcome.out.size(), 17600u);
    outcome = run({"info", (v1 / "keyfile-and-passphrase.warp").string()});
    EXPECT_NE(outcome.out.find("format version: 1"), std::string::npos) << outcome.out;
    outcome = run({"decrypt", (v1 / "two-passphrases.warp").string(), "--passphrase-file",
                   (v1 / "legacy.passphrase").string(), "-o", "-"});
    EXPECT_EQ(outcome.exit_code, 4) << describe(outcome);
    EXPECT_NE(outcome.err.find("2 passphrase slots, and a file may hold at most one"),
              std::string::npos)
        << outcome.err;
}

}  // namespace
}  // namespace warp::clitest
