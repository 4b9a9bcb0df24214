// `warpcrypt rekey` through the real binary (SPEC 4.7): slots added and removed, the payload
// bytes after the header copied unchanged, the file replaced atomically or written to -o; the
// refusals leave the file as it was; an interrupted rekey (SIGINT, SIGTERM, `ulimit -f`)
// leaves the original intact and nothing beside it.
#include <signal.h>
#include <sys/stat.h>

#include <string>
#include <vector>

#include "tests/cli/age_tool.hpp"
#include "tests/cli/cli_fixture.hpp"

namespace warp::clitest {
namespace {

constexpr int kExitUsage = 2, kExitWrongKey = 3, kExitIo = 7, kExitInterrupted = 130;

// The size of the header at the front of a file: what its slots' length fields say.
std::size_t header_size_of(const std::string& file) {
    std::size_t at = layout::slots_offset;
    const std::size_t slots = static_cast<unsigned char>(file[layout::slot_count_offset]);
    for (std::size_t i = 0; i < slots; ++i) {
        const std::size_t length = (std::size_t{static_cast<unsigned char>(file[at + 1])} << 8) |
                                   static_cast<unsigned char>(file[at + 2]);
        at += 3 + length;
    }
    return at + layout::payload_nonce_size + layout::checksum_size + layout::mac_size;
}

std::string payload_of(const std::string& file) { return file.substr(header_size_of(file)); }

class Rekey : public CliTest {
protected:
    void SetUp() override {
        CliTest::SetUp();
        ASSERT_TRUE(age_available())
            << "age-keygen (Debian package age) is not on PATH: scripts/deps.sh installs it";
        key_ = make_key("k.key");
        identity_ = path("me.txt");
        ASSERT_EQ(run_tool("age-keygen -o " + identity_.string()).status, 0);
        recipient_ = run_tool("age-keygen -y " + identity_.string()).out;
        recipient_.pop_back();
        plaintext_ = pattern(1 << 20);
        file_ = make_file("data.warp", encrypt_with_key(key_, plaintext_));
    }

    Outcome rekey(const std::vector<std::string>& rest) const {
        return run(args({{"rekey", file_.string()}, rest}));
    }
    std::string decrypt_with(const std::vector<std::string>& keys, int expected_exit = 0) const {
        const Outcome outcome = run(args({{"decrypt", file_.string(), "-o", "-"}, keys}));
        EXPECT_EQ(outcome.exit_code, expected_exit) << describe(outcome);
        return outcome.out;
    }
    // Runs a rekey that must be refused: `exit_code`, `message`, and the file as it was.
    void expect_refused(const std::vector<std::string>& rest, int exit_code,
                        const std::string& message) const {
        const std::string before = read_file(file_);
        const std::vector<std::string> listing = list_dir(dir_);
        const Outcome outcome = rekey(rest);
        EXPECT_EQ(outcome.exit_code, exit_code) << describe(outcome);
        EXPECT_NE(outcome.err.find(message), std::string::npos) << outcome.err;
        EXPECT_TRUE(read_file(file_) == before) << "the file changed";
        EXPECT_EQ(list_dir(dir_), listing);
    }

    fs::path key_, identity_, file_;
    std::string recipient_, plaintext_;
};

TEST_F(Rekey, AddARecipientThenRemoveTheKeyFileSlot) {
    const std::string original = read_file(file_);
    Outcome outcome = rekey({"-k", key_.string(), "--add-recipient", recipient_, "-v"});
    ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
    EXPECT_NE(outcome.err.find("copied unchanged"), std::string::npos) << outcome.err;
    EXPECT_TRUE(decrypt_with({"-k", key_.string()}) == plaintext_);
    EXPECT_TRUE(decrypt_with({"-i", identity_.string()}) == plaintext_);

    outcome = rekey({"-i", identity_.string(), "--remove-slot", "1"});
    ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
    EXPECT_TRUE(decrypt_with({"-i", identity_.string()}) == plaintext_);
    decrypt_with({"-k", key_.string()}, kExitWrongKey);

    const std::string rekeyed = read_file(file_);
    EXPECT_EQ(header_size_of(original), layout::header_size(1));
    EXPECT_EQ(header_size_of(rekeyed), layout::header_size(0) + 3 + 112);
    EXPECT_TRUE(payload_of(rekeyed) == payload_of(original)) << "the payload bytes changed";
    const Outcome info = run({"info", file_.string()});
    EXPECT_NE(info.out.find("key slots:      1\n  slot 1: x25519"), std::string::npos) << info.out;
    EXPECT_EQ(list_dir(dir_), (std::vector<std::string>{"data.warp", "k.key", "me.txt"}));
}

TEST_F(Rekey, ChangeThePassphraseInOneRun) {
    const fs::path old_pw = make_secret_file("old", "old passphrase\n");
    const fs::path new_pw = make_secret_file("new", "new passphrase\n");
    Outcome outcome = rekey(args({{"-k", key_.string(), "--add-passphrase-file", old_pw.string()},
                                  fast_kdf}));
    ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
    // A second passphrase slot is refused, and says how to replace the first.
    expect_refused(args({{"-k", key_.string(), "--add-passphrase-file", new_pw.string()},
                         fast_kdf}),
                   kExitUsage, "the file has a passphrase slot already (key slot 2)");
    outcome = rekey(args({{"--passphrase-file", old_pw.string(), "--add-passphrase-file",
                           new_pw.string(), "--remove-slot", "2"},
                          fast_kdf}));
    ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
    EXPECT_TRUE(decrypt_with({"--passphrase-file", new_pw.string()}) == plaintext_);
    decrypt_with({"--passphrase-file", old_pw.string()}, kExitWrongKey);
    EXPECT_TRUE(decrypt_with({"-k", key_.string()}) == plaintext_);
}

TEST_F(Rekey, ToAnotherFileLeavesTheOriginal) {
    const std::string original = read_file(file_);
    const fs::path copy = path("copy.warp");
    const Outcome outcome = rekey({"-k", key_.string(), "--add-key", make_key("second.key").string(),
                                   "-o", copy.string()});
    ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
    EXPECT_TRUE(read_file(file_) == original);
    EXPECT_TRUE(payload_of(read_file(copy)) == payload_of(original));
    const Outcome opened = run({"decrypt", copy.string(), "-k", path("second.key").string(),
                                "-o", "-"});
    EXPECT_TRUE(opened.out == plaintext_) << describe(opened);
    // An existing -o target is not replaced without --force.
    const Outcome again = rekey({"-k", key_.string(), "--add-recipient", recipient_, "-o",
                                 copy.string()});
    EXPECT_EQ(again.exit_code, kExitUsage) << describe(again);
}

TEST_F(Rekey, RefusalsLeaveTheFileAsItWas) {
    expect_refused({"-k", key_.string()}, kExitUsage, "nothing to change");
    expect_refused({"-k", key_.string(), "--remove-slot", "1"}, kExitUsage,
                   "that would remove the last key slot");
    expect_refused({"-k", key_.string(), "--remove-slot", "2", "--add-recipient", recipient_},
                   kExitUsage, "there is no key slot 2: the file has 1 key slot");
    expect_refused({"-i", identity_.string(), "--add-recipient", recipient_}, kExitWrongKey,
                   "wrong key or passphrase");
    expect_refused({"-k", key_.string(), "--add-recipient", "age1bad"}, kExitUsage,
                   "--add-recipient 'age1bad'");
    // A header whose MAC fails (a byte of it flipped; the checksum does not cover the MAC) is
    // refused before anything is written.
    std::string tampered = read_file(file_);
    tampered[header_size_of(tampered) - 1] ^= 0x01;
    write_file(file_, tampered);
    expect_refused({"-k", key_.string(), "--add-recipient", recipient_}, kExitWrongKey,
                   "or an altered header");
}

TEST_F(Rekey, ASymbolicLinkIsNotReplacedByAFile) {
    const fs::path link = path("link.warp");
    fs::create_symlink(file_, link);
    const std::string before = read_file(file_);
    const Outcome outcome =
        run({"rekey", link.string(), "-k", key_.string(), "--add-recipient", recipient_});
    EXPECT_EQ(outcome.exit_code, kExitUsage) << describe(outcome);
    EXPECT_NE(outcome.err.find("is a symbolic link"), std::string::npos) << outcome.err;
    EXPECT_TRUE(fs::is_symlink(link));
    EXPECT_TRUE(read_file(file_) == before);
}

TEST_F(Rekey, AVersion1FileIsRefused) {
    const fs::path v1 = fs::path(WARPCRYPT_SOURCE_DIR) / "formats/warp/testdata/v1";
    file_ = make_file("old.warp", read_file(v1 / "worked_example.warp"));
    const fs::path key = make_file("v1.key", read_file(v1 / "worked_example.key"));
    ::chmod(key.c_str(), 0600);
    expect_refused({"-k", key.string(), "--add-recipient", recipient_}, 6,
                   "rekey writes version 2 headers");
}

TEST_F(Rekey, AFileSizeLimitLeavesTheOriginalIntact) {
    const std::string before = read_file(file_);
    Command command;
    command.args = {"rekey", file_.string(), "-k", key_.string(), "--add-recipient", recipient_};
    command.limits.file_size = 64 * 1024;  // ulimit -f: the copy fails part way
    const Outcome outcome = run(command);
    EXPECT_EQ(outcome.exit_code, kExitIo) << describe(outcome);
    EXPECT_TRUE(read_file(file_) == before);
    EXPECT_EQ(list_dir(dir_), (std::vector<std::string>{"data.warp", "k.key", "me.txt"}));
}

// SIGINT and SIGTERM while the payload is being copied: the read of the file stalls half way
// (the fault shim), the signal arrives, and the original is what it was.
class RekeyInterrupted : public Rekey,
                         public ::testing::WithParamInterface<std::tuple<TemporaryMethod, int>> {};

TEST_P(RekeyInterrupted, LeavesTheOriginalIntact) {
#ifndef WARPCRYPT_FAULT_INJECT
    GTEST_SKIP() << "static build (WARPCRYPT_STATIC): LD_PRELOAD cannot reach a static binary";
#else
    const auto [method, signal_number] = GetParam();
    // Large enough that whole blocks of the copy reach the output before the read stalls
    // (the output buffers less than a block).
    write_file(file_, encrypt_with_key(key_, pattern(4 << 20)));
    const std::string before = read_file(file_);
    std::map<std::string, std::string> env = failing_reads(file_, before.size() * 3 / 4, true);
    env.merge(temporary_method_env(method));
    Pipe errors;
    Child child({"rekey", file_.string(), "-k", key_.string(), "--add-recipient", recipient_}, -1,
                -1, errors.write_end, env);
    errors.close_write();
    const bool seen = wait_for_output(child.pid(), dir_, method).has_value();
    child.send_signal(signal_number);
    const std::optional<int> status = child.wait_for(20);
    const std::string err = read_all(errors.read_end);
    EXPECT_TRUE(seen || !output_watchable(method)) << "no output while working: " << err;
    ASSERT_TRUE(status.has_value()) << "still running 20 s after the signal";
    EXPECT_EQ(*status, kExitInterrupted) << err;
    EXPECT_TRUE(read_file(file_) == before) << "the original changed";
    EXPECT_EQ(list_dir(dir_), (std::vector<std::string>{"data.warp", "k.key", "me.txt"}));
#endif
}

INSTANTIATE_TEST_SUITE_P(
    BothMethods, RekeyInterrupted,
    ::testing::Combine(::testing::Values(TemporaryMethod::unnamed, TemporaryMethod::named),
                       ::testing::Values(SIGINT, SIGTERM)),
    [](const ::testing::TestParamInfo<std::tuple<TemporaryMethod, int>>& case_info) {
        return std::string(temporary_method_name(std::get<0>(case_info.param))) +
               (std::get<1>(case_info.param) == SIGINT ? "Sigint" : "Sigterm");
    });

}  // namespace
}  // namespace warp::clitest
