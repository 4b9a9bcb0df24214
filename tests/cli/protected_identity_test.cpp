// Passphrase-protected identity files through the real binary (cli/protected_identity.hpp):
// an identity file that is an age file encrypted with a passphrase, as `age -p` makes it and
// age 1.1.1 reads it, binary and armored. Opened with --identity-passphrase-file or on the
// terminal; a wrong passphrase is exit 3 and writes nothing; without a terminal or the option,
// a usage error that says what to give.
#include <string>
#include <vector>

#include "tests/cli/age_tool.hpp"
#include "tests/cli/cli_fixture.hpp"

namespace warp::clitest {
namespace {

constexpr const char* kPassphrase = "identity pass phrase";

class ProtectedIdentity : public CliTest {
protected:
    void SetUp() override {
        CliTest::SetUp();
        ASSERT_TRUE(age_available()) << "age (Debian package age) is not on PATH: scripts/deps.sh";
        identity_ = make_identity("me.txt");  // classic X25519: age 1.1.1 opens it too
        passphrase_file_ = make_secret_file("pw", std::string(kPassphrase) + "\n");
        plain_ = make_file("plain", pattern(70000));
        sealed_ = path("data.age");
        ASSERT_EQ(run({"encrypt", plain_.string(), "--format", "age", "-r", identity_.recipient,
                       "--no-pq-warning", "-o", sealed_.string()})
                      .exit_code,
                  0);
    }

    // The identity file encrypted by warpcrypt with the passphrase (cheap scrypt), 0600.
    fs::path protect(std::string_view name, bool armor) const {
        const fs::path out = path(name);
        std::vector<std::string> a = {"encrypt", identity_.file.string(), "--format", "age",
                                      "--passphrase-file", passphrase_file_.string(),
                                      "--kdf-memory", "8", "-o", out.string()};
        if (armor) a.push_back("--armor");
        const Outcome made = run(a);
        EXPECT_EQ(made.exit_code, 0) << describe(made);
        fs::permissions(out, fs::perms::owner_read | fs::perms::owner_write);
        return out;
    }

    Outcome open_with(const fs::path& identity, const fs::path& passphrase, const fs::path& out) const {
        return run({"decrypt", sealed_.string(), "-i", identity.string(),
                    "--identity-passphrase-file", passphrase.string(), "-o", out.string()});
    }

    Identity identity_;
    fs::path passphrase_file_, plain_, sealed_;
};

TEST_F(ProtectedIdentity, OpensBinaryAndArmoredWithItsPassphraseFile) {
    for (const bool armor : {false, true}) {
        SCOPED_TRACE(armor ? "armored" : "binary");
        const fs::path protected_id = protect(armor ? "me.age.asc" : "me.age", armor);
        const fs::path out = path(armor ? "out-a" : "out-b");
        const Outcome opened = open_with(protected_id, passphrase_file_, out);
        ASSERT_EQ(opened.exit_code, 0) << describe(opened);
        EXPECT_TRUE(read_file(out) == pattern(70000));
    }
}

TEST_F(ProtectedIdentity, AWrongPassphraseIsExit3AndWritesNothing) {
    const fs::path protected_id = protect("me.age", false);
    const fs::path wrong = make_secret_file("wrong", "not it\n");
    const Outcome outcome = open_with(protected_id, wrong, path("out"));
    EXPECT_EQ(outcome.exit_code, 3) << describe(outcome);
    EXPECT_NE(outcome.err.find("me.age: wrong passphrase for this passphrase-protected identity "
                               "file"),
              std::string::npos)
        << outcome.err;
    EXPECT_FALSE(fs::exists(path("out")));
}

TEST_F(ProtectedIdentity, WithoutATerminalOrThePassphraseFileItSaysWhatToGive) {
    const fs::path protected_id = protect("me.age", false);
    const Outcome outcome = run({"decrypt", sealed_.string(), "-i", protected_id.string(), "-o",
                                 path("out").string()});
    EXPECT_EQ(outcome.exit_code, 2) << describe(outcome);
    EXPECT_NE(outcome.err.find("--identity-passphrase-file"), std::string::npos) << outcome.err;
    EXPECT_FALSE(fs::exists(path("out")));
}

TEST_F(ProtectedIdentity, TheTerminalIsAskedWhenNoPassphraseFileIsGiven) {
    const fs::path protected_id = protect("me.age", false);
    const ToolRun opened = run_tool_on_terminal(
        {warpcrypt_binary().string(), "decrypt", sealed_.string(), "-i", protected_id.string(),
         "-o", path("out").string()},
        kPassphrase);
    ASSERT_EQ(opened.status, 0) << opened.out;
    EXPECT_NE(opened.out.find("Passphrase for identity file"), std::string::npos) << opened.out;
    EXPECT_TRUE(read_file(path("out")) == pattern(70000));
}

TEST_F(ProtectedIdentity, AgesProtectedIdentitiesOpenHereAndOursInAge) {
    // age -p protects the identity file; warpcrypt opens the data with it.
    const ToolRun made = run_tool_on_terminal(
        {"age", "-p", "-o", path("by-age.age").string(), identity_.file.string()}, kPassphrase);
    ASSERT_EQ(made.status, 0) << made.out;
    fs::permissions(path("by-age.age"), fs::perms::owner_read | fs::perms::owner_write);
    const Outcome opened = open_with(path("by-age.age"), passphrase_file_, path("out"));
    ASSERT_EQ(opened.exit_code, 0) << describe(opened);
    EXPECT_TRUE(read_file(path("out")) == pattern(70000));
    // warpcrypt protects it (age's default work factor, armored); age opens the data with it.
    const fs::path ours = path("by-warp.age");
    ASSERT_EQ(run({"encrypt", identity_.file.string(), "--format", "age", "-a",
                   "--passphrase-file", passphrase_file_.string(), "-o", ours.string()})
                  .exit_code,
              0);
    const ToolRun by_age = run_tool_on_terminal(
        {"age", "-d", "-i", ours.string(), "-o", path("age-out").string(), sealed_.string()},
        kPassphrase);
    ASSERT_EQ(by_age.status, 0) << by_age.out;
    EXPECT_TRUE(read_file(path("age-out")) == pattern(70000));
}

}  // namespace
}  // namespace warp::clitest
