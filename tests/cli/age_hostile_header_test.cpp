// age files with headers made to cost their reader: thousands of stanzas in front of the
// victim's (the MAC was once recomputed over the whole header for every stanza tried, 49 s
// for a 1 MiB header where age takes under one), tens of thousands of distinct unknown types
// (a 761 KB one-line error), and a header of unknown types only, which must read as a warp
// file whose slots are all unknown does. As the author of the file would make them.
#include <string>
#include <vector>

#include "tests/cli/age_tool.hpp"
#include "tests/cli/cli_fixture.hpp"
#include "tests/cli/text_encodings.hpp"

namespace warp::clitest {
namespace {

constexpr int kExitWrongKey = 3, kExitCorrupted = 4, kExitUnsupported = 6;

// An X25519 stanza nobody's identity opens: a share and a body of (deterministic) noise.
std::string noise_stanza(std::size_t i) {
    return "-> X25519 " + base64_unpadded(pattern(32, i * 64)) + "\n" +
           base64_unpadded(pattern(32, i * 64 + 32)) + "\n";
}

class AgeHostileHeader : public CliTest {
protected:
    void SetUp() override {
        CliTest::SetUp();
        const Identity identity = make_identity("id.txt");
        identity_ = identity.file;
        recipient_ = identity.recipient;
        Command seal;
        seal.args = {"encrypt", "--format", "age", "-r", recipient_, "-o", "-"};
        seal.stdin_bytes = "the victim's data";
        const Outcome sealed = run(seal);
        ASSERT_EQ(sealed.exit_code, 0) << describe(sealed);
        const std::size_t version_end = sealed.out.find('\n') + 1;
        intro_ = sealed.out.substr(0, version_end);
        rest_ = sealed.out.substr(version_end);  // the victim's stanza, the MAC, the payload
    }

    // The victim's file with `stanzas` put in front of its own stanza.
    fs::path with_stanzas_before(const std::string& stanzas) const {
        return make_file("crafted.age", intro_ + stanzas + rest_);
    }
    Outcome decrypt(const fs::path& file) const {
        return run({"decrypt", "-i", identity_.string(), "-o", "-", file.string()});
    }

    fs::path identity_;
    std::string recipient_, intro_, rest_;
};

TEST_F(AgeHostileHeader, MoreThan1024StanzasAreRefusedBeforeAnyIsTried) {
    // The reproduction's shape: 1024 junk stanzas before the victim's, 1025 in all.
    std::string junk;
    for (std::size_t i = 0; i < 1024; ++i) junk += noise_stanza(i);
    const Outcome outcome = decrypt(with_stanzas_before(junk));
    EXPECT_EQ(outcome.exit_code, kExitCorrupted) << describe(outcome);
    EXPECT_NE(outcome.err.find("more than 1024 stanzas"), std::string::npos) << outcome.err;
    EXPECT_TRUE(outcome.out.empty());
}

TEST_F(AgeHostileHeader, AHeaderOver2MiBIsRefused) {
    // One stanza whose body alone is over 2 MiB.
    const std::string body = base64_unpadded(pattern(1600 * 1024));
    std::string stanza = "-> big\n";
    std::size_t at = 0;
    for (; at + 64 <= body.size(); at += 64) stanza += body.substr(at, 64) + "\n";
    stanza += body.substr(at) + "\n";
    const Outcome outcome = decrypt(with_stanzas_before(stanza));
    EXPECT_EQ(outcome.exit_code, kExitCorrupted) << describe(outcome);
    EXPECT_NE(outcome.err.find("longer than 2 MiB"), std::string::npos) << outcome.err;
}

TEST_F(AgeHostileHeader, AFileOf1024StanzasFromAgeOpensWithItsLastRecipient) {
    // The limit is age's own: a file age writes to 1024 recipients opens, whichever stanza
    // is the reader's. 1023 recipients of noise (canonical points), then the victim.
    ASSERT_TRUE(age_available());
    std::string recipients;
    for (std::size_t i = 0; i < 1023; ++i) {
        std::string point = pattern(32, i * 32 + 7);
        point[31] = static_cast<char>(point[31] & 0x3f);  // below 2^254: canonical
        recipients += bech32_lower("age", point) + "\n";
    }
    recipients += recipient_ + "\n";
    const fs::path list = make_file("recipients.txt", recipients);
    const fs::path plain = make_file("plain", "for a thousand and twenty-four readers");
    const fs::path sealed = path("many.age");
    ASSERT_EQ(run_tool("age -R " + list.string() + " -o " + sealed.string() + " " +
                       plain.string())
                  .status,
              0);
    const Outcome outcome = decrypt(sealed);
    EXPECT_EQ(outcome.exit_code, 0) << describe(outcome);
    EXPECT_EQ(outcome.out, "for a thousand and twenty-four readers");
}

TEST_F(AgeHostileHeader, DistinctUnknownTypesAreCountedNotListed) {
    // 1000 distinct types, one of which is part of another ("t1" in "t10"): named a few, the
    // rest counted, on one short line.
    std::string junk;
    for (std::size_t i = 0; i < 1000; ++i) junk += "-> t" + std::to_string(i) + "\n\n";
    const fs::path other = make_identity("other.txt").file;
    const Outcome outcome =
        run({"decrypt", "-i", other.string(), "-o", "-", with_stanzas_before(junk).string()});
    EXPECT_EQ(outcome.exit_code, kExitWrongKey) << describe(outcome);
    EXPECT_NE(outcome.err.find("none of the age file's 1001 stanzas opened (types: t0, t1, t2, "
                               "t3 and 997 more)"),
              std::string::npos)
        << outcome.err;
    EXPECT_LT(outcome.err.size(), 400u) << outcome.err;
}

TEST_F(AgeHostileHeader, OnlyUnknownTypesIsUnsupportedAsForAWarpFile) {
    // Exit 6 and the same words as a warp file with no slot of a known type
    // (slots_test.cpp, FilesWithUnknownSlotTypes...).
    const std::size_t mac_line = rest_.find("\n---") + 1;
    const fs::path file = make_file(
        "unknown.age", intro_ + "-> future-type arg\n\n-> other\n\n" + rest_.substr(mac_line));
    const Outcome outcome = decrypt(file);
    EXPECT_EQ(outcome.exit_code, kExitUnsupported) << describe(outcome);
    EXPECT_NE(outcome.err.find("unsupported stanzas: none of the file's 2 stanzas is of a type "
                               "this warpcrypt can open (types: future-type and other)"),
              std::string::npos)
        << outcome.err;
}

// An SSH key's tag is public (authorized_keys, a forge's USER.keys): the author of a file can
// put stanzas that carry a victim's tag in front of the victim's own, under a MAC that
// verifies. Each such stanza once cost the victim's identity an RSA decryption (1023 of them:
// 9-10 s with a 4096-bit key, against age's 0.02-0.05 s). A stanza that names an identity's tag
// and does not open ends that identity's attempt, as in age (agessh): one private-key operation
// per SSH identity per file. The files come from tests/cli/craft/craft_tagged_age.cpp.
class AgeHostileSshHeader : public CliTest {
protected:
    void SetUp() override {
        CliTest::SetUp();
        ASSERT_TRUE(age_available());
        for (const char* type : {"rsa", "ed25519"})
            ASSERT_EQ(run_tool(std::string("ssh-keygen -q -t ") + type + " -N '' -f " +
                               path(type).string())
                          .status,
                      0)
                << "ssh-keygen (Debian package openssh-client) is needed: scripts/deps.sh";
    }
    // An age file to the key `type` whose header has `junk` stanzas with its tag before its
    // own, and a MAC that verifies.
    fs::path crafted(const std::string& type, std::size_t junk) const {
        const fs::path file = path(type + "-" + std::to_string(junk) + ".age");
        const fs::path plain = make_file("plain", "the author's data");
        EXPECT_EQ(run_tool(std::string(WARPCRYPT_CRAFT_TAGGED_AGE) + " " +
                           path(type + ".pub").string() + " " + std::to_string(junk) + " " +
                           file.string() + " < " + plain.string())
                      .status,
                  0);
        return file;
    }
};

TEST_F(AgeHostileSshHeader, AStanzaWithTheIdentitysTagThatFailsEndsItsAttempt) {
    for (const std::string type : {"rsa", "ed25519"}) {
        SCOPED_TRACE(type);
        // The crafting itself is sound: without junk, both tools open the file.
        const fs::path plain_file = crafted(type, 0);
        const Outcome opened =
            run({"decrypt", "-i", path(type).string(), "-o", "-", plain_file.string()});
        EXPECT_EQ(opened.exit_code, 0) << describe(opened);
        EXPECT_EQ(opened.out, "the author's data");
        EXPECT_EQ(run_tool("age -d -i " + path(type).string() + " " + plain_file.string()).out,
                  "the author's data");
        // With junk first, the identity is spent on the first junk stanza and its own is not
        // tried: exit 3, nothing written. age 1.1.1 refuses the same file.
        const fs::path hostile = crafted(type, 5);
        const fs::path out = path("out");
        const Outcome refused =
            run({"decrypt", "-i", path(type).string(), "-o", out.string(), hostile.string()});
        EXPECT_EQ(refused.exit_code, kExitWrongKey) << describe(refused);
        EXPECT_FALSE(fs::exists(out));
        EXPECT_NE(run_tool("age -d -i " + path(type).string() + " " + hostile.string()).status, 0)
            << "age opened what warpcrypt refuses";
    }
}

TEST_F(AgeHostileSshHeader, ASpentIdentityLeavesTheOthersToTry) {
    // Only the identity the junk named is spent: another identity of the user's still opens
    // its own stanza, after the junk and the spent identity's real stanza.
    const Identity other = make_identity("other.txt");
    const fs::path both =
        make_file("both.pub", read_file(path("rsa.pub")) + other.recipient + "\n");
    const fs::path file = path("both.age");
    const fs::path plain = make_file("plain", "for two");
    ASSERT_EQ(run_tool(std::string(WARPCRYPT_CRAFT_TAGGED_AGE) + " " + both.string() + " 3 " +
                       file.string() + " < " + plain.string())
                  .status,
              0);
    const Outcome outcome = run({"decrypt", "-i", path("rsa").string(), "-i",
                                 other.file.string(), "-o", "-", file.string()});
    EXPECT_EQ(outcome.exit_code, 0) << describe(outcome);
    EXPECT_EQ(outcome.out, "for two");
}

}  // namespace
}  // namespace warp::clitest
