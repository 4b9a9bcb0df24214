// age files through the real binary, against the reference tool (age 1.1.1,
// tests/cli/age_tool.hpp): age encrypts and warpcrypt decrypts, and the reverse, at the sizes
// around age's 64 KiB chunks and a few MiB, binary and armored, to several recipients, from
// files and stdin; the keys of both tools open both tools' files; bad age files get one line
// and their exit code (README, "age files").
#include <sys/stat.h>

#include <string>
#include <vector>

#include "tests/cli/age_tool.hpp"
#include "tests/cli/cli_fixture.hpp"

namespace warp::clitest {
namespace {

const std::vector<std::size_t> kSizes = {0, 1, 65535, 65536, 65537, 3 * 1024 * 1024 + 17};

class AgeFiles : public CliTest {
protected:
    void SetUp() override {
        CliTest::SetUp();
        ASSERT_TRUE(age_available())
            << "age (Debian package age) is not on PATH: scripts/deps.sh installs it";
        ASSERT_EQ(run_tool("age-keygen -o " + path("age.id").string()).status, 0);
        age_recipient_ = recipient_of(path("age.id"));
        ASSERT_EQ(run({"keygen", "--identity", "--x25519", "-o", path("warp.id").string()}).exit_code, 0);
        warp_recipient_ = recipient_of(path("warp.id"));
    }
    static std::string recipient_of(const fs::path& identity) {
        std::string r = run_tool("age-keygen -y " + identity.string()).out;
        if (!r.empty()) r.pop_back();
        return r;
    }
    std::string age_recipient_, warp_recipient_;
};

TEST_F(AgeFiles, AgeEncryptsWarpcryptDecrypts) {
    for (const std::size_t size : kSizes) {
        for (const bool armor : {false, true}) {
            SCOPED_TRACE(std::to_string(size) + (armor ? " armored" : " binary"));
            const fs::path plain = make_file("plain", pattern(size));
            const fs::path sealed = path("plain.age");
            ASSERT_EQ(run_tool(std::string("age ") + (armor ? "-a " : "") + "-r " +
                               age_recipient_ + " -r " + warp_recipient_ + " -o " +
                               sealed.string() + " " + plain.string())
                          .status,
                      0);
            for (const char* identity : {"age.id", "warp.id"}) {
                const Outcome opened = run({"decrypt", sealed.string(), "-i",
                                            path(identity).string(), "-o", "-"});
                ASSERT_EQ(opened.exit_code, 0) << describe(opened);
                EXPECT_TRUE(opened.out == pattern(size));
            }
            // From stdin, and verify.
            Command piped;
            piped.args = {"decrypt", "-i", path("age.id").string()};
            piped.stdin_file = sealed;
            const Outcome from_stdin = run(piped);
            ASSERT_EQ(from_stdin.exit_code, 0) << describe(from_stdin);
            EXPECT_TRUE(from_stdin.out == pattern(size));
            EXPECT_EQ(run({"verify", sealed.string(), "-i", path("warp.id").string()}).exit_code, 0);
            fs::remove(sealed);
        }
    }
}

TEST_F(AgeFiles, WarpcryptEncryptsAgeDecrypts) {
    for (const std::size_t size : kSizes) {
        for (const bool armor : {false, true}) {
            SCOPED_TRACE(std::to_string(size) + (armor ? " armored" : " binary"));
            const fs::path plain = make_file("plain", pattern(size));
            std::vector<std::string> command = {"encrypt", plain.string(), "--format", "age",
                                                "-r", age_recipient_, "-r", warp_recipient_};
            if (armor) command.push_back("-a");
            const Outcome sealed = run(command);
            ASSERT_EQ(sealed.exit_code, 0) << describe(sealed);
            const fs::path file = path("plain.age");
            if (armor) EXPECT_TRUE(read_file(file).starts_with("-----BEGIN AGE ENCRYPTED FILE-----\n"));
            else EXPECT_TRUE(read_file(file).starts_with("age-encryption.org/v1\n"));
            for (const char* identity : {"age.id", "warp.id"}) {
                const ToolRun opened =
                    run_tool("age -d -i " + path(identity).string() + " " + file.string());
                ASSERT_EQ(opened.status, 0) << identity;
                EXPECT_TRUE(opened.out == pattern(size));
            }
            fs::remove(file);
        }
    }
    // From stdin to stdout.
    Command piped;
    piped.args = {"encrypt", "--format", "age", "-r", age_recipient_};
    piped.stdin_bytes = pattern(100000);
    const Outcome sealed = run(piped);
    ASSERT_EQ(sealed.exit_code, 0) << describe(sealed);
    const fs::path file = make_file("piped.age", sealed.out);
    EXPECT_TRUE(run_tool("age -d -i " + path("age.id").string() + " " + file.string()).out ==
                pattern(100000));
}

TEST_F(AgeFiles, RangesOfAnAgeFileOpenOnlyTheirChunks) {
    const std::size_t size = 5 * 65536 + 1234;
    const fs::path plain = make_file("plain", pattern(size));
    ASSERT_EQ(run_tool("age -r " + age_recipient_ + " -o " + path("p.age").string() + " " +
                       plain.string())
                  .status,
              0);
    struct Range {
        std::size_t offset, length;
    };
    for (const Range r : {Range{0, 10}, Range{65530, 20}, Range{3 * 65536, 65536},
                          Range{4 * 65536 + 100, 66000}, Range{size - 100, 1000},
                          Range{size, 5}, Range{0, size}}) {
        SCOPED_TRACE(std::to_string(r.offset) + "+" + std::to_string(r.length));
        const Outcome outcome =
            run({"decrypt", path("p.age").string(), "-i", path("age.id").string(), "-o", "-",
                 "--offset", std::to_string(r.offset), "--length", std::to_string(r.length)});
        ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
        const std::size_t begin = std::min(r.offset, size);
        EXPECT_TRUE(outcome.out == pattern(size).substr(begin, std::min(r.length, size - begin)));
    }
    // The final chunk is authenticated first: a damaged one fails any range.
    std::string bytes = read_file(path("p.age"));
    bytes[bytes.size() - 3] ^= 1;
    const fs::path damaged = make_file("d.age", bytes);
    const Outcome outcome = run({"decrypt", damaged.string(), "-i", path("age.id").string(), "-o",
                                 "-", "--offset", "0", "--length", "10"});
    EXPECT_EQ(outcome.exit_code, 4) << describe(outcome);
    EXPECT_TRUE(outcome.out.empty());
    // An armored file has no chunks at offsets: refused as usage, nothing written.
    ASSERT_EQ(run_tool("age -a -r " + age_recipient_ + " -o " + path("a.age").string() + " " +
                       plain.string())
                  .status,
              0);
    const Outcome armored = run({"decrypt", path("a.age").string(), "-i",
                                 path("age.id").string(), "-o", path("a.out").string(),
                                 "--offset", "0", "--length", "10"});
    EXPECT_EQ(armored.exit_code, 2) << describe(armored);
    EXPECT_NE(armored.err.find("an armored age file cannot be decrypted in part"),
              std::string::npos)
        << armored.err;
    EXPECT_FALSE(fs::exists(path("a.out")));
}

// age reads passphrases from a terminal only: it gets one of its own (a pseudo-terminal).
TEST_F(AgeFiles, PassphraseFilesBothWays) {
    const fs::path plain = make_file("plain", pattern(100000));
    const fs::path pw = make_secret_file("pw", "horse battery staple\n");
    // age -p, opened by warpcrypt with --passphrase-file.
    const ToolRun sealed = run_tool_on_terminal(
        {"age", "-p", "-o", path("by-age.age").string(), plain.string()}, "horse battery staple");
    ASSERT_EQ(sealed.status, 0) << sealed.out;
    const Outcome opened = run({"decrypt", path("by-age.age").string(), "--passphrase-file",
                                pw.string(), "-o", "-"});
    ASSERT_EQ(opened.exit_code, 0) << describe(opened);
    EXPECT_TRUE(opened.out == pattern(100000));
    // warpcrypt --format age with a passphrase (age's default work factor), opened by age.
    ASSERT_EQ(run({"encrypt", plain.string(), "--format", "age", "--passphrase-file", pw.string(),
                   "-o", path("by-warp.age").string()})
                  .exit_code,
              0);
    const ToolRun decrypted = run_tool_on_terminal(
        {"age", "-d", "-o", path("out").string(), path("by-warp.age").string()},
        "horse battery staple");
    ASSERT_EQ(decrypted.status, 0) << decrypted.out;
    EXPECT_TRUE(read_file(path("out")) == pattern(100000));
}

TEST_F(AgeFiles, APassphraseFileRoundTrips) {
    // Here warpcrypt against itself, with a cheap work factor; the CCTV scrypt vectors
    // (tests/conformance) check the rest.
    const fs::path plain = make_file("plain", pattern(70000));
    const fs::path pw = make_secret_file("pw", "horse battery\n");
    const Outcome sealed = run({"encrypt", plain.string(), "--format", "age", "--passphrase-file",
                                pw.string(), "--kdf-memory", "8"});
    ASSERT_EQ(sealed.exit_code, 0) << describe(sealed);
    const Outcome info = run({"info", path("plain.age").string()});
    EXPECT_NE(info.out.find("stanza 1: scrypt (work factor 13"), std::string::npos) << info.out;
    const Outcome opened =
        run({"decrypt", path("plain.age").string(), "--passphrase-file", pw.string(), "-o", "-"});
    ASSERT_EQ(opened.exit_code, 0) << describe(opened);
    EXPECT_TRUE(opened.out == pattern(70000));
    const fs::path wrong = make_secret_file("wrong", "horse\n");
    EXPECT_EQ(run({"decrypt", path("plain.age").string(), "--passphrase-file", wrong.string(),
                   "-o", "-"})
                  .exit_code,
              3);
}

TEST_F(AgeFiles, BadAgeFilesGetOneLineAndTheirExitCode) {
    const fs::path plain = make_file("plain", pattern(1000));
    ASSERT_EQ(run({"encrypt", plain.string(), "--format", "age", "-r", age_recipient_}).exit_code, 0);
    const std::string good = read_file(path("plain.age"));
    struct Case {
        const char* what;
        std::string bytes;
        int exit_code;
        const char* message;
    };
    std::string crlf = good;
    crlf.replace(crlf.find('\n'), 1, "\r\n");
    std::string bad_mac = good;
    const std::size_t mac = bad_mac.find("--- ") + 4;
    bad_mac[mac] = bad_mac[mac] == 'A' ? 'B' : 'A';
    std::string bad_chunk = good;
    bad_chunk[bad_chunk.size() - 5] ^= 1;
    const std::vector<Case> cases = {
        {"CR LF in the header", crlf, 4, "ends with CR LF"},
        {"another MAC", bad_mac, 3, "wrong key or passphrase, or an altered header"},
        {"a damaged chunk", bad_chunk, 4, "chunk 0 of the age payload failed to authenticate"},
        {"cut in the header", good.substr(0, 30), 5, "truncated"},
        {"cut in the payload", good.substr(0, good.size() - 100), 4, "failed to authenticate"},
        {"another version", "age-encryption.org/v2\n-> X\n\n--- x\n", 6, "unsupported age version"},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.what);
        const fs::path file = make_file("bad.age", c.bytes);
        const Outcome outcome = run({"decrypt", file.string(), "-i", path("age.id").string(),
                                     "-o", path("out").string()});
        EXPECT_EQ(outcome.exit_code, c.exit_code) << describe(outcome);
        EXPECT_NE(outcome.err.find(c.message), std::string::npos) << outcome.err;
        EXPECT_FALSE(fs::exists(path("out")));
    }
    // The wrong identity, and an X25519 stanza's share under the post-quantum type, which
    // this build knows: a malformed stanza, a header failure.
    EXPECT_EQ(run({"decrypt", path("plain.age").string(), "-i", path("warp.id").string(), "-o",
                   "-"})
                  .exit_code,
              3);
    std::string hybrid = good;
    hybrid.replace(hybrid.find("-> X25519"), 9, "-> mlkem768x25519");
    const fs::path pq = make_file("pq.age", hybrid);
    const Outcome malformed = run({"decrypt", pq.string(), "-i", path("age.id").string(), "-o", "-"});
    EXPECT_EQ(malformed.exit_code, 4) << describe(malformed);
    EXPECT_NE(malformed.err.find("an mlkem768x25519 stanza's encapsulation is not canonical "
                                 "base64 of 1120 bytes"),
              std::string::npos)
        << malformed.err;
    EXPECT_TRUE(malformed.out.empty());
}

TEST_F(AgeFiles, WhatAnAgeFileCannotHoldIsRefusedFirst) {
    const fs::path plain = make_file("plain", "x");
    const fs::path key = make_key("k.key");
    struct Case {
        std::vector<std::string> args;
        const char* message;
    };
    const std::vector<Case> cases = {
        {{"-k", key.string()}, "age files have no key-file recipients"},
        {{"-r", age_recipient_, "--passphrase-file", plain.string()},
         "an age file with a passphrase holds nothing else"},
        {{"-r", age_recipient_, "--cipher", "aes-256-gcm"}, "ChaCha20-Poly1305 only"},
    };
    for (const Case& c : cases) {
        const Outcome outcome =
            run(args({{"encrypt", plain.string(), "--format", "age"}, c.args}));
        EXPECT_EQ(outcome.exit_code, 2) << describe(outcome);
        EXPECT_NE(outcome.err.find(c.message), std::string::npos) << outcome.err;
        EXPECT_FALSE(fs::exists(path("plain.age")));
    }
    const Outcome armor = run({"encrypt", plain.string(), "-a", "-r", age_recipient_});
    EXPECT_EQ(armor.exit_code, 2) << describe(armor);
    EXPECT_NE(armor.err.find("add --format age"), std::string::npos) << armor.err;
}

}  // namespace
}  // namespace warp::clitest
