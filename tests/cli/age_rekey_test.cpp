// rekey of age files through the real binary, against the reference tool (age 1.1.1,
// tests/cli/age_tool.hpp), which cannot rekey: a recipient added by warpcrypt opens the file
// in age, a removed one no longer does, and everything after the header (the payload nonce
// and every chunk) is the same bytes; armored files stay armored. What age's rules refuse is
// refused before anything is written. verify -v, rekey -v and info speak of stanzas.
#include <string>
#include <vector>

#include "tests/cli/age_tool.hpp"
#include "tests/cli/cli_fixture.hpp"

namespace warp::clitest {
namespace {

constexpr int kExitUsage = 2;     // docs/usage.md, "Exit codes"
constexpr int kExitWrongKey = 3;

class AgeRekey : public CliTest {
protected:
    void SetUp() override {
        CliTest::SetUp();
        ASSERT_TRUE(age_available())
            << "age (Debian package age) is not on PATH: scripts/deps.sh installs it";
        ASSERT_EQ(run_tool("age-keygen -o " + path("old.id").string()).status, 0);
        ASSERT_EQ(run({"keygen", "--identity", "--x25519", "-o", path("new.id").string()}).exit_code, 0);
        old_recipient_ = recipient_of(path("old.id"));
        new_recipient_ = recipient_of(path("new.id"));
    }
    static std::string recipient_of(const fs::path& identity) {
        std::string r = run_tool("age-keygen -y " + identity.string()).out;
        if (!r.empty()) r.pop_back();
        return r;
    }
    // The header's size, as `info --json` reports it (binary files).
    std::size_t header_size(const fs::path& file) {
        const Outcome info = run({"info", "--json", file.string()});
        const std::string key = "\"header_size\": ";
        const std::size_t at = info.out.find(key);
        if (info.exit_code != 0 || at == std::string::npos) return 0;
        return std::stoul(info.out.substr(at + key.size()));
    }
    std::string age_decrypt(const char* identity, const fs::path& file, int* status) {
        const ToolRun opened = run_tool("age -d -i " + path(identity).string() + " " + file.string());
        *status = opened.status;
        return opened.out;
    }
    std::string old_recipient_, new_recipient_;
};

TEST_F(AgeRekey, AnAddedRecipientOpensInAgeAndARemovedOneDoesNot) {
    for (const std::size_t size : {std::size_t{0}, std::size_t{65536}, std::size_t{65537},
                                   std::size_t{3 * 1024 * 1024 + 17}}) {
        SCOPED_TRACE(size);
        const fs::path plain = make_file("plain", pattern(size));
        const fs::path file = path("plain.age");
        ASSERT_EQ(run_tool("age -r " + old_recipient_ + " -o " + file.string() + " " +
                           plain.string()).status, 0);
        const std::string before = read_file(file);
        const std::size_t old_header = header_size(file);
        ASSERT_GT(old_header, 0u);

        const Outcome added = run({"rekey", file.string(), "-i", path("old.id").string(),
                                   "--add-recipient", new_recipient_, "-v"});
        ASSERT_EQ(added.exit_code, 0) << describe(added);
        EXPECT_NE(added.err.find("opened with stanza 1"), std::string::npos) << added.err;
        EXPECT_NE(added.err.find("2 stanza(s) now"), std::string::npos) << added.err;
        int status = -1;
        EXPECT_TRUE(age_decrypt("new.id", file, &status) == pattern(size));
        EXPECT_EQ(status, 0);
        EXPECT_TRUE(age_decrypt("old.id", file, &status) == pattern(size));
        EXPECT_EQ(status, 0);
        const std::string with_two = read_file(file);
        const std::size_t two_header = header_size(file);
        EXPECT_TRUE(with_two.substr(two_header) == before.substr(old_header))
            << "the payload nonce and chunks changed";

        const Outcome removed =
            run({"rekey", file.string(), "-i", path("new.id").string(), "--remove-slot", "1"});
        ASSERT_EQ(removed.exit_code, 0) << describe(removed);
        age_decrypt("old.id", file, &status);
        EXPECT_NE(status, 0) << "the removed recipient still opens the file";
        EXPECT_TRUE(age_decrypt("new.id", file, &status) == pattern(size));
        EXPECT_EQ(status, 0);
        EXPECT_TRUE(read_file(file).substr(header_size(file)) == before.substr(old_header));
        fs::remove(file);
    }
}

TEST_F(AgeRekey, AnArmoredFileStaysArmoredAndOpensInAge) {
    const fs::path plain = make_file("plain", pattern(200000));
    const fs::path file = path("plain.age");
    ASSERT_EQ(run_tool("age -a -r " + old_recipient_ + " -o " + file.string() + " " +
                       plain.string()).status, 0);
    const Outcome added = run({"rekey", file.string(), "-i", path("old.id").string(),
                               "--add-recipient", new_recipient_});
    ASSERT_EQ(added.exit_code, 0) << describe(added);
    EXPECT_TRUE(read_file(file).starts_with("-----BEGIN AGE ENCRYPTED FILE-----\n"));
    int status = -1;
    EXPECT_TRUE(age_decrypt("new.id", file, &status) == pattern(200000));
    EXPECT_EQ(status, 0);
    const Outcome verified = run({"verify", file.string(), "-i", path("new.id").string(), "-v"});
    ASSERT_EQ(verified.exit_code, 0) << describe(verified);
    EXPECT_NE(verified.err.find("an age file, opened with stanza 2"), std::string::npos)
        << verified.err;
}

TEST_F(AgeRekey, WhatAgeRefusesIsRefusedBeforeAnythingIsWritten) {
    const fs::path plain = make_file("plain", pattern(1000));
    const fs::path file = path("plain.age");
    ASSERT_EQ(run_tool("age -r " + old_recipient_ + " -o " + file.string() + " " +
                       plain.string()).status, 0);
    const fs::path passphrase = make_file("pw", "correct horse\n");
    fs::permissions(passphrase, fs::perms::owner_read | fs::perms::owner_write);
    const std::string before = read_file(file);
    struct Case {
        std::vector<std::string> args;
        int exit_code;
        std::string message;
    };
    const std::vector<Case> cases = {
        {{"-i", path("old.id").string(), "--add-passphrase-file", passphrase.string()},
         kExitUsage, "scrypt stanza is alone in its header"},
        {{"-i", path("old.id").string(), "--remove-slot", "2"}, kExitUsage,
         "there is no stanza 2: the file has 1 stanza"},
        {{"-i", path("old.id").string(), "--remove-slot", "1"}, kExitUsage,
         "that would remove the last stanza"},
        {{"-i", path("old.id").string(), "--add-key", passphrase.string()}, kExitUsage, ""},
        {{"-i", path("new.id").string(), "--add-recipient", new_recipient_}, kExitWrongKey,
         "none of the age file's 1 stanza opened"},
    };
    for (const Case& c : cases) {
        std::vector<std::string> args = {"rekey", file.string()};
        args.insert(args.end(), c.args.begin(), c.args.end());
        const Outcome outcome = run(args);
        EXPECT_EQ(outcome.exit_code, c.exit_code) << describe(outcome);
        EXPECT_NE(outcome.err.find(c.message), std::string::npos) << outcome.err;
        EXPECT_TRUE(read_file(file) == before) << "the file changed";
    }
    // An scrypt file takes nothing beside its stanza.
    const fs::path locked = path("locked.age");
    ASSERT_EQ(run({"encrypt", plain.string(), "--format", "age", "--passphrase-file",
                   passphrase.string(), "--kdf-memory", "8", "-o", locked.string()})
                  .exit_code,
              0);
    const Outcome beside = run({"rekey", locked.string(), "--passphrase-file", passphrase.string(),
                                "--add-recipient", new_recipient_});
    EXPECT_EQ(beside.exit_code, kExitUsage) << describe(beside);
    EXPECT_NE(beside.err.find("scrypt stanza must stay alone"), std::string::npos) << beside.err;
}

TEST_F(AgeRekey, InfoListsTheStanzasARekeyLeft) {
    const fs::path plain = make_file("plain", pattern(10));
    const fs::path file = path("plain.age");
    ASSERT_EQ(run_tool("age -r " + old_recipient_ + " -o " + file.string() + " " +
                       plain.string()).status, 0);
    ASSERT_EQ(run({"rekey", file.string(), "-i", path("old.id").string(), "--add-recipient",
                   new_recipient_})
                  .exit_code,
              0);
    const Outcome info = run({"info", file.string()});
    ASSERT_EQ(info.exit_code, 0) << describe(info);
    EXPECT_NE(info.out.find("stanzas:        2\n  stanza 1: X25519, classic: not post-quantum\n  stanza 2: X25519, classic: not post-quantum\n"),
              std::string::npos)
        << info.out;
}

}  // namespace
}  // namespace warp::clitest
