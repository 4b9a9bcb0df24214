// The user's KDF limits bind every KDF a run performs (security review 3, item 7): a
// passphrase-protected identity file once ran its scrypt whatever --kdf-max-memory said (a
// 1 GiB scrypt under a 16 MiB limit), and an SSH key's bcrypt was bounded only by its own
// round cap. Now --kdf-max-memory and --kdf-max-work (summed over the run: identity files, SSH
// keys and the file itself) are checked before each KDF runs, exit 2 naming the limit.
#include <string>
#include <vector>

#include "tests/cli/age_tool.hpp"
#include "tests/cli/cli_fixture.hpp"

namespace warp::clitest {
namespace {

constexpr int kExitUsage = 2;

class KdfLimits : public CliTest {
protected:
    void SetUp() override {
        CliTest::SetUp();
        identity_ = make_identity("me.txt");
        passphrase_ = make_secret_file("pw", "identity pass phrase\n");
        // The identity file sealed with a passphrase at 32 MiB of scrypt (work factor 15).
        protected_ = path("me.age");
        ASSERT_EQ(run({"encrypt", identity_.file.string(), "--format", "age",
                       "--passphrase-file", passphrase_.string(), "--kdf-memory", "32", "-o",
                       protected_.string()})
                      .exit_code,
                  0);
        fs::permissions(protected_, fs::perms::owner_read | fs::perms::owner_write);
    }
    Outcome open(const fs::path& file, std::vector<std::string> more) const {
        std::vector<std::string> a = {"decrypt", file.string(), "-o", "-"};
        a.insert(a.end(), more.begin(), more.end());
        return run(a);
    }
    void expect_refused(const Outcome& outcome, const std::string& says) const {
        EXPECT_EQ(outcome.exit_code, kExitUsage) << describe(outcome);
        EXPECT_NE(outcome.err.find(says), std::string::npos) << outcome.err;
        EXPECT_NE(outcome.err.find("raise the limit"), std::string::npos) << outcome.err;
        EXPECT_TRUE(outcome.out.empty());
    }

    Identity identity_;
    fs::path passphrase_, protected_;
};

TEST_F(KdfLimits, AProtectedIdentityFilesScryptObeysTheMemoryLimit) {
    const fs::path data = path("data.warp");
    ASSERT_EQ(run({"encrypt", "-r", identity_.recipient, "-o", data.string()}, "secret")
                  .exit_code,
              0);
    const std::vector<std::string> keys = {"-i", protected_.string(),
                                           "--identity-passphrase-file", passphrase_.string()};
    std::vector<std::string> low = keys;
    low.insert(low.end(), {"--kdf-max-memory", "16"});
    expect_refused(open(data, low), "me.age: stanza 1 needs 32 MiB for its passphrase KDF "
                                    "(scrypt), over the --kdf-max-memory limit of 16 MiB");
    std::vector<std::string> enough = keys;
    enough.insert(enough.end(), {"--kdf-max-memory", "32"});
    const Outcome opened = open(data, enough);
    EXPECT_EQ(opened.exit_code, 0) << describe(opened);
    EXPECT_EQ(opened.out, "secret");
}

TEST_F(KdfLimits, TheWorkLimitIsSummedOverTheIdentityFileAndTheFile) {
    // The file's passphrase slot (8 MiB x 1 pass), tried first with a passphrase that is not
    // its own, then the identity file's scrypt (32 MiB-passes), opened because the passphrase
    // did not open the file (a protected identity file is opened only when needed): 40
    // MiB-passes in all.
    const fs::path data = path("data.warp");
    const fs::path own = make_secret_file("own", "the file's own passphrase\n");
    const fs::path other = make_secret_file("other", "not the file's passphrase\n");
    ASSERT_EQ(run(args({{"encrypt", "--passphrase-file", own.string(), "-r", identity_.recipient,
                         "--no-pq-warning", "-o", data.string()},
                        fast_kdf}),
                  "secret")
                  .exit_code,
              0);
    const std::vector<std::string> keys = {"-i", protected_.string(), "--identity-passphrase-file",
                                           passphrase_.string(), "--passphrase-file",
                                           other.string()};
    std::vector<std::string> low = keys;
    low.insert(low.end(), {"--kdf-max-work", "39"});
    const Outcome refused = open(data, low);
    expect_refused(refused, "would bring this run's total to 40 MiB-passes");
    EXPECT_NE(refused.err.find("over the --kdf-max-work limit of 39 MiB-passes"), std::string::npos)
        << refused.err;
    std::vector<std::string> enough = keys;
    enough.insert(enough.end(), {"--kdf-max-work", "40"});
    const Outcome opened = open(data, enough);
    EXPECT_EQ(opened.exit_code, 0) << describe(opened);
    EXPECT_EQ(opened.out, "secret");
}

TEST_F(KdfLimits, AnSshKeysBcryptCountsItsRounds) {
    const fs::path key = path("id");
    ASSERT_EQ(run_tool("ssh-keygen -q -t ed25519 -a 64 -N 'key pass' -f " + key.string()).status, 0)
        << "ssh-keygen (Debian package openssh-client) is needed: scripts/deps.sh";
    const fs::path key_pass = make_secret_file("key-pass", "key pass\n");
    const fs::path data = path("data.age");
    ASSERT_EQ(run({"encrypt", "--format", "age", "--no-pq-warning", "-R", key.string() + ".pub",
                   "-o", data.string()},
                  "secret")
                  .exit_code,
              0);
    const std::vector<std::string> keys = {"-i", key.string(), "--identity-passphrase-file",
                                           key_pass.string()};
    std::vector<std::string> low = keys;
    low.insert(low.end(), {"--kdf-max-work", "63"});
    expect_refused(open(data, low), "id: the SSH key asks for bcrypt work of 64 rounds = 64 "
                                    "MiB-passes, over the --kdf-max-work limit of 63");
    std::vector<std::string> enough = keys;
    enough.insert(enough.end(), {"--kdf-max-work", "64"});
    const Outcome opened = open(data, enough);
    EXPECT_EQ(opened.exit_code, 0) << describe(opened);
    EXPECT_EQ(opened.out, "secret");
}

}  // namespace
}  // namespace warp::clitest
