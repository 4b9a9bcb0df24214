// A header written that no reader opens (security review 3, item 5): 1023 ssh-rsa recipients
// of 16384 bits and one X25519 made a 2.86 MB age header, which every reader (age's and this
// one, over 2 MiB) refuses, so whoever controls a recipients file could make a victim's backup
// unreadable. encrypt and rekey now refuse such a header before writing a byte, with the
// reader's own limits; a header up to them is written and opens.
#include <string>
#include <vector>

#include "tests/cli/cli_fixture.hpp"
#include "tests/cli/ssh_wire.hpp"

namespace warp::clitest {
namespace {

constexpr int kExitUsage = 2;
constexpr std::size_t k16384Bits = 2048;  // bytes

class HeaderLimits : public CliTest {
protected:
    void SetUp() override {
        CliTest::SetUp();
        identity_ = make_identity("me.txt");
    }
    // `count` ssh-rsa recipients of 16384 bits (moduli nobody holds: encrypting to them works,
    // opening does not), then the user's own X25519 recipient.
    fs::path recipients(std::size_t count) const {
        std::string lines;
        for (std::size_t i = 0; i < count; ++i)
            lines += rsa_public_line(65537, k16384Bits, 1000 + i) + "\n";
        const Identity classic = make_identity("classic.txt");
        classic_ = classic.file;
        return make_file("recipients-" + std::to_string(count), lines + classic.recipient + "\n");
    }
    Outcome encrypt_to(const fs::path& list, const std::string& output) const {
        return run({"encrypt", "--format", "age", "--no-pq-warning", "-R", list.string(), "-o",
                    output},
                   "the backup");
    }

    Identity identity_;
    mutable fs::path classic_;
};

TEST_F(HeaderLimits, EncryptRefusesAHeaderNoReaderOpens) {
    const fs::path list = recipients(1023);
    const fs::path out = path("backup.age");
    const Outcome refused = encrypt_to(list, out.string());
    EXPECT_EQ(refused.exit_code, kExitUsage) << describe(refused);
    EXPECT_NE(refused.err.find("over the 2 MiB that readers accept"), std::string::npos)
        << refused.err;
    EXPECT_FALSE(fs::exists(out));
    // To stdout: not a byte.
    const Outcome to_stdout = encrypt_to(list, "-");
    EXPECT_EQ(to_stdout.exit_code, kExitUsage) << describe(to_stdout);
    EXPECT_TRUE(to_stdout.out.empty()) << to_stdout.out.size() << " bytes written";
}

TEST_F(HeaderLimits, AHeaderUpToTheLimitIsWrittenAndOpens) {
    // 600 such stanzas: about 1.7 MB of header, under 2 MiB.
    const fs::path list = recipients(600);
    const fs::path out = path("backup.age");
    const Outcome made = encrypt_to(list, out.string());
    ASSERT_EQ(made.exit_code, 0) << describe(made);
    EXPECT_GT(fs::file_size(out), std::uintmax_t{1600000});
    const Outcome opened = run({"decrypt", "-i", classic_.string(), "-o", "-", out.string()});
    EXPECT_EQ(opened.exit_code, 0) << describe(opened);
    EXPECT_EQ(opened.out, "the backup");
}

TEST_F(HeaderLimits, RekeyRefusesToGrowAHeaderPastTheLimit) {
    const fs::path list = recipients(1000);
    const fs::path file = path("small.age");
    ASSERT_EQ(run({"encrypt", "--format", "age", "-r", identity_.recipient, "-o", file.string()},
                  "the backup")
                  .exit_code,
              0);
    const std::string before = read_file(file);
    // The file's post-quantum recipient beside classic ones would be refused for mixing: the
    // rekey replaces it, as a user moving a backup to many new keys would.
    const Outcome refused = run({"rekey", file.string(), "-i", identity_.file.string(),
                                 "--remove-slot", "1", "--add-recipients-file", list.string(),
                                 "--no-pq-warning"});
    EXPECT_EQ(refused.exit_code, kExitUsage) << describe(refused);
    EXPECT_NE(refused.err.find("over the 2 MiB that readers accept"), std::string::npos)
        << refused.err;
    EXPECT_TRUE(read_file(file) == before) << "the file changed";
}

}  // namespace
}  // namespace warp::clitest
