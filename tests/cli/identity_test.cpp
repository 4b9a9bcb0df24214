// X25519 identities in age's encoding through the real binary, against the reference tool
// (age 1.1.1, Debian package `age`: age-keygen and age must be on PATH; scripts/deps.sh
// installs them): `keygen --identity` writes what age-keygen writes, `keygen -y` prints what
// `age-keygen -y` prints for the same file, age encrypts to warpcrypt's recipients and opens
// with warpcrypt's identity files; malformed or exposed identity files are handled like key
// files.
#include <sys/stat.h>
#include <sys/types.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "tests/cli/age_tool.hpp"
#include "tests/cli/cli_fixture.hpp"

namespace warp::clitest {
namespace {

class IdentityTest : public CliTest {
protected:
    void SetUp() override {
        CliTest::SetUp();
        // The interop checks need the reference tool: its absence is a failure, not a skip.
        ASSERT_TRUE(age_available())
            << "age-keygen (Debian package age) is not on PATH: scripts/deps.sh installs it";
    }

    fs::path make_identity(std::string_view name) const {
        const fs::path file = path(name);
        const Outcome outcome = run({"keygen", "--identity", "--x25519", "-o", file.string()});
        EXPECT_EQ(outcome.exit_code, 0) << describe(outcome);
        return file;
    }

    std::string recipients_of(const fs::path& file) const {
        const Outcome outcome = run({"keygen", "-y", file.string()});
        EXPECT_EQ(outcome.exit_code, 0) << describe(outcome);
        return outcome.out;
    }
};

TEST_F(IdentityTest, KeygenIdentityWritesWhatAgeKeygenWrites) {
    const fs::path file = path("me.txt");
    const Outcome outcome = run({"keygen", "--identity", "--x25519", "-o", file.string()});
    ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
    struct stat st {};
    ASSERT_EQ(::stat(file.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u);
    const std::vector<std::string> lines = lines_of(read_file(file));
    ASSERT_EQ(lines.size(), 3u) << read_file(file);
    EXPECT_TRUE(lines[0].starts_with("# created: 20")) << lines[0];
    EXPECT_TRUE(lines[0].ends_with("Z")) << lines[0];
    ASSERT_TRUE(lines[1].starts_with("# public key: age1")) << lines[1];
    EXPECT_TRUE(lines[2].starts_with("AGE-SECRET-KEY-1"));
    EXPECT_EQ(lines[2].size(), 74u);
    const std::string recipient = lines[1].substr(std::string("# public key: ").size());
    // The recipient on stderr, as age-keygen prints it; the secret nowhere but the file.
    EXPECT_NE(outcome.err.find("public key: " + recipient), std::string::npos) << outcome.err;
    EXPECT_EQ(outcome.err.find("AGE-SECRET-KEY"), std::string::npos);
    EXPECT_TRUE(outcome.out.empty());
    // The reference tool reads it and finds the same recipient.
    EXPECT_EQ(run_tool("age-keygen -y " + file.string()).out, recipient + "\n");
    EXPECT_EQ(recipients_of(file), recipient + "\n");
}

TEST_F(IdentityTest, RecipientsOfAgeKeygensIdentitiesAreAgeKeygens) {
    const fs::path file = path("age.txt");
    ASSERT_EQ(run_tool("age-keygen -o " + file.string()).status, 0);
    const ToolRun expected = run_tool("age-keygen -y " + file.string());
    ASSERT_EQ(expected.status, 0);
    EXPECT_TRUE(expected.out.starts_with("age1"));
    EXPECT_EQ(recipients_of(file), expected.out);
}

// The keys work with age both ways: age encrypts to warpcrypt's recipient and opens with
// warpcrypt's identity file (recipients_test.cpp: warpcrypt's X25519 slots with age's keys).
TEST_F(IdentityTest, AgeUsesWarpcryptsKeys) {
    const fs::path identity = make_identity("me.txt");
    std::string recipient = recipients_of(identity);
    recipient.pop_back();  // the newline
    const fs::path plain = make_file("plain", pattern(5000));
    const fs::path sealed = path("plain.age");
    ASSERT_EQ(run_tool("age -r " + recipient + " -o " + sealed.string() + " " + plain.string())
                  .status,
              0);
    const ToolRun opened = run_tool("age -d -i " + identity.string() + " " + sealed.string());
    ASSERT_EQ(opened.status, 0);
    EXPECT_TRUE(opened.out == pattern(5000));
}

TEST_F(IdentityTest, AFileMayHoldSeveralIdentitiesAndComments) {
    const fs::path a = make_identity("a.txt"), b = path("b.txt");
    ASSERT_EQ(run_tool("age-keygen -o " + b.string()).status, 0);
    const fs::path both = make_file("both.txt", read_file(a) + "\n# and the other one\n" +
                                                    read_file(b));
    ::chmod(both.c_str(), 0600);
    EXPECT_EQ(recipients_of(both), recipients_of(a) + recipients_of(b));
    EXPECT_EQ(run_tool("age-keygen -y " + both.string()).out, recipients_of(both));
}

TEST_F(IdentityTest, AMalformedIdentityFileNamesTheFileAndTheLine) {
    const fs::path identity = make_identity("me.txt");
    std::string text = read_file(identity);
    const std::size_t secret = text.find("AGE-SECRET-KEY-1");
    text[secret + 30] = text[secret + 30] == 'Q' ? 'P' : 'Q';  // breaks the checksum
    const fs::path bad = make_file("bad.txt", text);
    ::chmod(bad.c_str(), 0600);
    const Outcome outcome = run({"keygen", "-y", bad.string()});
    EXPECT_EQ(outcome.exit_code, 2) << describe(outcome);
    EXPECT_NE(outcome.err.find(bad.string()), std::string::npos) << outcome.err;
    EXPECT_NE(outcome.err.find("line 3"), std::string::npos) << outcome.err;
    EXPECT_NE(outcome.err.find("wrong checksum"), std::string::npos) << outcome.err;
    EXPECT_EQ(outcome.err.find(text.substr(secret + 16, 20)), std::string::npos)
        << "the message quotes the key";
    EXPECT_TRUE(outcome.out.empty());
}

TEST_F(IdentityTest, AnIdentityFileOthersCanReadGetsTheKeyFileWarning) {
    const fs::path identity = make_identity("me.txt");
    ASSERT_EQ(::chmod(identity.c_str(), 0644), 0);
    const Outcome outcome = run({"keygen", "-y", identity.string()});
    EXPECT_EQ(outcome.exit_code, 0) << describe(outcome);
    EXPECT_NE(outcome.err.find("identity file " + identity.string() + " can be read by other"),
              std::string::npos)
        << outcome.err;
}

TEST_F(IdentityTest, AFifoIsNoIdentityFile) {
    const fs::path fifo = path("fifo");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const Outcome outcome = run({"keygen", "-y", fifo.string()});
    EXPECT_EQ(outcome.exit_code, 2) << describe(outcome);
    EXPECT_NE(outcome.err.find("not a regular file"), std::string::npos) << outcome.err;
}

TEST_F(IdentityTest, IdentityAndRecipientsOfExcludeEachOther) {
    const fs::path identity = make_identity("me.txt");
    const Outcome outcome = run({"keygen", "--identity", "-y", identity.string()});
    EXPECT_EQ(outcome.exit_code, 2) << describe(outcome);
    EXPECT_TRUE(outcome.out.empty());
}

TEST_F(IdentityTest, AnIdentityToStdoutIsTheWholeFile) {
    for (const bool classic : {false, true}) {
        SCOPED_TRACE(classic ? "--x25519" : "post-quantum");
        const Outcome outcome = run(classic ? std::vector<std::string>{"keygen", "--identity", "--x25519"}
                                            : std::vector<std::string>{"keygen", "--identity"});
        ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
        const std::vector<std::string> lines = lines_of(outcome.out);
        ASSERT_EQ(lines.size(), 3u);
        EXPECT_TRUE(lines[2].starts_with(classic ? "AGE-SECRET-KEY-1" : "AGE-SECRET-KEY-PQ-1"));
        EXPECT_TRUE(outcome.err.empty()) << outcome.err;
    }
}

}  // namespace
}  // namespace warp::clitest
