// -o through names that are not plain files, with and without --force: /dev/stdout and its
// kin are the descriptors they name (root once replaced the /dev/stdout link with a 0644 file
// of plaintext); a symbolic link of the user's own is written through, never replaced; a
// link, device or FIFO is never turned into a regular file; and no hint suggests --force for
// one of them.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "tests/cli/cli_fixture.hpp"

namespace warp::clitest {
namespace {

constexpr int kExitUsage = 2;

class OutputLinks : public CliTest {
protected:
    void SetUp() override {
        CliTest::SetUp();
        key_ = make_key("k.key");
        plaintext_ = pattern(70000);
        sealed_ = make_file("x.warp", encrypt_with_key(key_, plaintext_));
    }
    std::vector<std::string> decrypt_to(const std::string& output, bool force) const {
        std::vector<std::string> command = {"decrypt", sealed_.string(), "-k", key_.string(),
                                            "-o", output};
        if (force) command.push_back("-f");
        return command;
    }
    // Runs with stdout going to the file `out` (as `> out` does).
    int run_into(const std::vector<std::string>& command, const fs::path& out) const {
        const int fd = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        EXPECT_GE(fd, 0);
        Child child(command, -1, fd, -1);
        ::close(fd);
        return child.wait();
    }

    fs::path key_, sealed_;
    std::string plaintext_;
};

TEST_F(OutputLinks, DescriptorNamesAreTheDescriptorsWithOrWithoutForce) {
    const bool dev_stdout_was_link = fs::is_symlink("/dev/stdout");
    for (const std::string name : {"/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"}) {
        for (const bool force : {false, true}) {
            SCOPED_TRACE(name + (force ? " -f" : ""));
            const fs::path out = path("out.txt");
            EXPECT_EQ(run_into(decrypt_to(name, force), out), 0);
            EXPECT_TRUE(read_file(out) == plaintext_) << "the plaintext did not reach stdout";
        }
    }
    // Had /dev/stdout been replaced (root may write in /dev), put the link back for everyone
    // else on this machine, and fail.
    if (dev_stdout_was_link && !fs::is_symlink("/dev/stdout")) {
        fs::remove("/dev/stdout");
        fs::create_symlink("/proc/self/fd/1", "/dev/stdout");
        ADD_FAILURE() << "/dev/stdout was replaced by a regular file";
    }
    const Outcome closed = run(decrypt_to("/dev/fd/9", true));
    EXPECT_EQ(closed.exit_code, kExitUsage) << describe(closed);
    EXPECT_NE(closed.err.find("not open for writing"), std::string::npos) << closed.err;
}

TEST_F(OutputLinks, AnOwnLinkIsWrittenThroughAndStaysALink) {
    const fs::path target = path("real.txt");
    write_file(target, "an older version");
    const fs::path link = path("current.txt");
    fs::create_symlink("real.txt", link);  // relative, as most links are

    const Outcome refused = run(decrypt_to(link.string(), false));
    EXPECT_EQ(refused.exit_code, kExitUsage) << describe(refused);
    EXPECT_NE(refused.err.find("(a link to " + target.string() + ") already exists"),
              std::string::npos)
        << refused.err;
    EXPECT_NE(refused.err.find("overwrite " + target.string() + " (the link stays as it is)"),
              std::string::npos)
        << refused.err;

    const Outcome forced = run(decrypt_to(link.string(), true));
    ASSERT_EQ(forced.exit_code, 0) << describe(forced);
    EXPECT_TRUE(fs::is_symlink(link)) << "the link was replaced";
    EXPECT_EQ(fs::read_symlink(link), "real.txt");
    EXPECT_TRUE(read_file(target) == plaintext_) << "the link's target was not written";

    // A dangling link of the user's own: its target is created, as `> link` does.
    const fs::path dangling = path("next.txt");
    fs::create_symlink(path("made.txt"), dangling);
    ASSERT_EQ(run(decrypt_to(dangling.string(), false)).exit_code, 0);
    EXPECT_TRUE(fs::is_symlink(dangling));
    EXPECT_TRUE(read_file(path("made.txt")) == plaintext_);
}

TEST_F(OutputLinks, ALinkLoopIsAUsageError) {
    fs::create_symlink(path("b"), path("a"));
    fs::create_symlink(path("a"), path("b"));
    const Outcome outcome = run(decrypt_to(path("a").string(), true));
    EXPECT_EQ(outcome.exit_code, kExitUsage) << describe(outcome);
    EXPECT_NE(outcome.err.find("too many symbolic links"), std::string::npos) << outcome.err;
}

TEST_F(OutputLinks, DevicesAndFifosAreWrittenInPlaceNeverReplaced) {
    const fs::path fifo = path("pipe");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    for (const std::string& name : {std::string("/dev/null"), fifo.string()}) {
        for (const bool force : {false, true}) {
            SCOPED_TRACE(name + (force ? " -f" : ""));
            const Outcome outcome = run(decrypt_to(name, force));
            struct stat st {};
            ASSERT_EQ(::lstat(name.c_str(), &st), 0);
            EXPECT_FALSE(S_ISREG(st.st_mode)) << name << " became a regular file";
            // The FIFO has no reader: refused, and the hint does not suggest --force.
            if (name == fifo.string()) {
                EXPECT_EQ(outcome.exit_code, kExitUsage) << describe(outcome);
                EXPECT_EQ(outcome.err.find("--force"), std::string::npos) << outcome.err;
            } else {
                EXPECT_EQ(outcome.exit_code, 0) << describe(outcome);
            }
        }
    }
}

}  // namespace
}  // namespace warp::clitest
