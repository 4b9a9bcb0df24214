// What another user of the same machine can do to a warpcrypt run, through the real binary
// (README "Security"): plant a FIFO or a symbolic link where warpcrypt will write, hand over a
// key file, read the output while it is written (the two users: shared_machine.hpp). The
// checks that need no second user run as anyone.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "tests/cli/shared_machine.hpp"

namespace warp::clitest {
namespace {

// ---- Output that another user cannot hijack -------------------------------------------------

TEST_F(SharedMachine, DecryptNeverWritesIntoAFifoUnderTheNameItChose) {
    const std::string plaintext = pattern(100000);
    const fs::path sealed = victim_ciphertext("s.txt.warp", plaintext);
    const fs::path planted = shared_ / "s.txt";
    make_fifo(planted, two_users_ ? kAttacker : ::geteuid());
    FifoListener listener(planted);
    ASSERT_TRUE(listener.opened());
    const auto outcome = as_victim({"decrypt", sealed.string(), "-k", key_.string()});
    EXPECT_EQ(outcome.exit_code, kExitUsage) << describe(outcome);
    EXPECT_NE(outcome.err.find("FIFO"), std::string::npos) << outcome.err;
    EXPECT_NE(outcome.err.find("-o"), std::string::npos) << outcome.err;
    EXPECT_TRUE(listener.stop().empty()) << "plaintext went into the planted FIFO";
}

TEST_F(SharedMachine, EncryptNeverWritesIntoAFifoUnderTheNameItChose) {
    const fs::path input = shared_ / "doc";
    write_file(input, "some text");
    if (two_users_) {
        ASSERT_EQ(::chown(input.c_str(), kVictim, kVictim), 0);
    }
    make_fifo(shared_ / "doc.warp", two_users_ ? kAttacker : ::geteuid());
    FifoListener listener(shared_ / "doc.warp");
    const auto outcome = as_victim({"encrypt", input.string(), "-k", key_.string()});
    EXPECT_EQ(outcome.exit_code, kExitUsage) << describe(outcome);
    EXPECT_NE(outcome.err.find("FIFO"), std::string::npos) << outcome.err;
    EXPECT_TRUE(listener.stop().empty());
}

TEST_F(SharedMachine, AnotherUsersFifoIsRefusedEvenWhenNamed) {
    if (!two_users_) GTEST_SKIP() << "needs root, to act as two users";
    const std::string plaintext = pattern(100000);
    const fs::path sealed = victim_ciphertext("s.txt.warp", plaintext);
    const fs::path planted = shared_ / "out.txt";
    make_fifo(planted, kAttacker);
    FifoListener listener(planted);
    const auto outcome =
        as_victim({"decrypt", sealed.string(), "-k", key_.string(), "-o", planted.string()});
    EXPECT_EQ(outcome.exit_code, kExitUsage) << describe(outcome);
    EXPECT_NE(outcome.err.find("another user (uid 61002)"), std::string::npos) << outcome.err;
    EXPECT_TRUE(listener.stop().empty()) << "plaintext went into another user's FIFO";
}

TEST_F(SharedMachine, AnotherUsersSymbolicLinkIsNotFollowed) {
    if (!two_users_) GTEST_SKIP() << "needs root, to act as two users";
    const fs::path sealed = victim_ciphertext("s.txt.warp", pattern(1000));
    // The attacker's link points at a FIFO of the victim's own, which the victim would accept.
    const fs::path own_fifo = path("a-home/fifo");
    make_fifo(own_fifo, kVictim);
    FifoListener listener(own_fifo);
    const fs::path link = shared_ / "out.txt";
    fs::create_symlink(own_fifo, link);
    ASSERT_EQ(::lchown(link.c_str(), kAttacker, kAttacker), 0);
    const auto outcome =
        as_victim({"decrypt", sealed.string(), "-k", key_.string(), "-o", link.string()});
    EXPECT_EQ(outcome.exit_code, kExitUsage) << describe(outcome);
    EXPECT_NE(outcome.err.find("symbolic link"), std::string::npos) << outcome.err;
    EXPECT_TRUE(listener.stop().empty());
}

TEST_F(SharedMachine, OwnFifoNamedWithOutputWorksAndOneWithoutReaderIsAnErrorNotAHang) {
    const std::string plaintext = pattern(100000);
    const fs::path sealed = victim_ciphertext("s.txt.warp", plaintext);
    const fs::path fifo = shared_ / "mine";
    make_fifo(fifo, two_users_ ? kVictim : ::geteuid());

    // Nobody reads it: refused at once, not blocked forever on open.
    const auto started = std::chrono::steady_clock::now();
    auto outcome = as_victim({"decrypt", sealed.string(), "-k", key_.string(), "-o", fifo.string()});
    EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(20));
    EXPECT_EQ(outcome.exit_code, kExitUsage) << describe(outcome);
    EXPECT_NE(outcome.err.find("no process is reading"), std::string::npos) << outcome.err;

    FifoListener listener(fifo);
    outcome = as_victim({"decrypt", sealed.string(), "-k", key_.string(), "-o", fifo.string()});
    EXPECT_EQ(outcome.exit_code, 0) << describe(outcome);
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    EXPECT_TRUE(listener.stop() == plaintext) << "the user's own FIFO did not get the plaintext";
}

TEST_F(SharedMachine, DevNullAndDevStdoutStillWork) {
    const std::string plaintext = pattern(5000);
    const fs::path sealed = victim_ciphertext("s.warp", plaintext);
    auto outcome = as_victim({"decrypt", sealed.string(), "-k", key_.string(), "-o", "/dev/null"});
    EXPECT_EQ(outcome.exit_code, 0) << describe(outcome);
    // /dev/stdout, root's link to this process's stdout: the test's own pipe, which only the
    // test's user may open (as the victim, the kernel would refuse a pipe root made).
    const fs::path own_key = make_key("own.key");
    const auto sealed_here = make_file("here.warp", encrypt_with_key(own_key, plaintext));
    outcome = run({"decrypt", sealed_here.string(), "-k", own_key.string(), "-o", "/dev/stdout"});
    EXPECT_EQ(outcome.exit_code, 0) << describe(outcome);
    EXPECT_TRUE(outcome.out == plaintext);
}

TEST_F(SharedMachine, KeygenWritesASecretOnlyToAFileItCreates) {
    const fs::path planted = shared_ / "x.key";
    make_fifo(planted, two_users_ ? kAttacker : ::geteuid());
    FifoListener listener(planted);
    for (const auto& extra : {std::vector<std::string>{}, std::vector<std::string>{"--force"}}) {
        auto command = args({{"keygen", "-o", planted.string()}, extra});
        const auto outcome = as_victim(command);
        EXPECT_EQ(outcome.exit_code, kExitUsage) << describe(outcome);
        EXPECT_NE(outcome.err.find("keygen creates itself"), std::string::npos) << outcome.err;
    }
    // Not even into a device the user owns: a key goes to a new file, or to stdout.
    const auto outcome = as_victim({"keygen", "-o", "/dev/null"});
    EXPECT_EQ(outcome.exit_code, kExitUsage) << describe(outcome);
    EXPECT_TRUE(listener.stop().empty()) << "the new secret key went into the planted FIFO";

    const fs::path fresh = shared_ / "fresh.key";
    EXPECT_EQ(as_victim({"keygen", "-o", fresh.string()}).exit_code, 0);
    struct stat st {};
    ASSERT_EQ(::stat(fresh.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 07777, 0600u);
    EXPECT_EQ(as_victim({"keygen"}).exit_code, 0) << "stdout must stay allowed";
}

TEST_F(SharedMachine, KeyFileMustBeARegularFileOfTheUsersOwn) {
    // The attacker's FIFO, fed with a key of the attacker's choosing, must not become the
    // victim's key; nor must a regular key file the attacker owns.
    const fs::path planted = shared_ / "x.key";
    make_fifo(planted, two_users_ ? kAttacker : ::geteuid());
    const auto outcome = as_victim({"encrypt", "-k", planted.string(), "-o", "-"}, "secret");
    EXPECT_EQ(outcome.exit_code, kExitUsage) << describe(outcome);
    EXPECT_NE(outcome.err.find("not a regular file"), std::string::npos) << outcome.err;
    EXPECT_TRUE(outcome.out.empty());
    if (!two_users_) return;
    const fs::path theirs = shared_ / "theirs.key";
    ASSERT_EQ(as(attacker_, {"keygen", "-o", theirs.string()}).exit_code, 0);
    fs::permissions(theirs, fs::perms(0644));
    const auto refused = as_victim({"encrypt", "-k", theirs.string(), "-o", "-"}, "secret");
    EXPECT_EQ(refused.exit_code, kExitUsage) << describe(refused);
    EXPECT_NE(refused.err.find("belongs to another user (uid 61002)"), std::string::npos)
        << refused.err;
    EXPECT_TRUE(refused.out.empty());
    // Root's files are trusted, like /dev/null: a key root wrote for the user still works.
    const fs::path roots = path("a-home/root.key");
    ASSERT_EQ(run({"keygen", "-o", roots.string()}).exit_code, 0);
    fs::permissions(roots, fs::perms(0644));
    EXPECT_EQ(as_victim({"encrypt", "-k", roots.string(), "-o", "-"}, "secret").exit_code, 0);
}

// ---- Temporary files that hold plaintext ---------------------------------------------------

class SharedMachineOutput : public SharedMachine,
                            public ::testing::WithParamInterface<TemporaryMethod> {};

TEST_P(SharedMachineOutput, PlaintextInProgressIsReadableByNoOtherUser) {
    if (!output_watchable(GetParam()))
        GTEST_SKIP() << "an unnamed file in progress is visible to root alone (/proc/PID/fd of a "
                        "non-dumpable process): this case runs where the tests run as root";
    const std::string plaintext = pattern(8 << 20);
    const fs::path sealed = victim_ciphertext("big.warp", plaintext);
    const std::string ciphertext = read_file(sealed);
    const fs::path target = shared_ / "big";
    Command decrypt = victim_;
    decrypt.env = temporary_method_env(GetParam());
    decrypt.args = {"decrypt", "-k", key_.string(), "-o", target.string()};
    Pipe in, err;
    Child child(decrypt.args, in.read_end, -1, err.write_end, decrypt.env, {}, decrypt.limits);
    in.close_read();
    err.close_write();
    // Half of the ciphertext, then a stall: the output is half written and stays so.
    ASSERT_TRUE(write_all(in.write_end, ciphertext.data(), ciphertext.size() / 2));
    const std::optional<fs::path> in_progress = wait_for_output(child.pid(), shared_, GetParam());
    ASSERT_TRUE(in_progress.has_value()) << "no output in progress: the test proves nothing";
    struct stat st {};
    ASSERT_EQ(::stat(in_progress->c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 07777, 0600u) << "the partial plaintext is readable by others";
    if (two_users_) {
        // The attacker opens it by its name in the folder, or through /proc.
        EXPECT_EQ(open_as(kAttacker, *in_progress), 0) << "another user opened the partial plaintext";
        for (const auto& name : list_dir(shared_)) {
            if (name == sealed.filename()) continue;  // ciphertext: anyone may read it
            EXPECT_NE(open_as(kAttacker, shared_ / name), 1) << "another user opened " << name;
        }
    }
    ASSERT_TRUE(write_all(in.write_end, ciphertext.data() + ciphertext.size() / 2,
                          ciphertext.size() - ciphertext.size() / 2));
    in.close_write();
    const auto errors = read_all(err.read_end);
    ASSERT_EQ(child.wait(), 0) << errors;
    ASSERT_EQ(::stat(target.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 07777, 0666u & ~current_umask()) << "the finished file's mode";
    EXPECT_TRUE(read_file(target) == plaintext);
}

TEST_P(SharedMachineOutput, ForceOverAPrivateFileKeepsItPrivate) {
    const std::string plaintext = pattern(5000);
    const fs::path sealed = victim_ciphertext("s.warp", plaintext);
    const fs::path target = shared_ / "s";
    ASSERT_EQ(as_victim({"decrypt", sealed.string(), "-k", key_.string(), "-o", target.string()})
                  .exit_code,
              0);
    ::chmod(target.c_str(), 0600);
    Command again = victim_;
    again.env = temporary_method_env(GetParam());
    again.args = {"decrypt", sealed.string(), "-k", key_.string(), "-f", "-o", target.string()};
    const auto outcome = run(again);
    ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
    struct stat st {};
    ASSERT_EQ(::stat(target.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 07777, 0600u);
    EXPECT_EQ(list_dir(shared_), (std::vector<std::string>{"s", "s.warp"}));
}

TEST_P(SharedMachineOutput, TheLongestNameTheFileSystemTakesWorks) {
    const std::string plaintext = pattern(3000);
    const fs::path sealed = victim_ciphertext("s.warp", plaintext);
    for (std::size_t length : {std::size_t{236}, std::size_t{237}, std::size_t{255}}) {
        SCOPED_TRACE(length);
        const fs::path target = shared_ / std::string(length, 'n');
        Command decrypt = victim_;
        decrypt.env = temporary_method_env(GetParam());
        decrypt.args = {"decrypt", sealed.string(), "-k", key_.string(), "-o", target.string()};
        const auto outcome = run(decrypt);
        ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
        EXPECT_TRUE(read_file(target) == plaintext);
        fs::remove(target);
    }
}

INSTANTIATE_TEST_SUITE_P(BothMethods, SharedMachineOutput,
                         ::testing::Values(TemporaryMethod::unnamed, TemporaryMethod::named),
                         temporary_method_test_name);

// ---- The smaller findings --------------------------------------------------------------------

TEST_F(SharedMachine, NoTerminalGetsCiphertextWhateverItsName) {
    const int master = ::posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    ASSERT_GE(master, 0) << "no pseudo-terminal";
    ASSERT_EQ(::grantpt(master), 0);
    ASSERT_EQ(::unlockpt(master), 0);
    const std::string terminal = ::ptsname(master);
    if (two_users_) {
        ASSERT_EQ(::chown(terminal.c_str(), kVictim, kVictim), 0);
    }
    const auto outcome = as_victim({"encrypt", "-k", key_.string(), "-o", terminal}, "secret");
    ::close(master);
    EXPECT_EQ(outcome.exit_code, kExitUsage) << describe(outcome);
    EXPECT_NE(outcome.err.find("terminal"), std::string::npos) << outcome.err;
}

TEST_F(SharedMachine, ControlCharactersInNamesAreEscapedInMessages) {
    const std::string evil = "evil\x1b[2J\x1b]0;owned\x07\nwarpcrypt: ok\r\xc2\x9b" "1m.warp";
    const auto outcome = as_victim({"decrypt", (shared_ / evil).string(), "-k", key_.string()});
    EXPECT_EQ(outcome.exit_code, 7) << describe(outcome);
    for (char c : outcome.err) {
        if (c == '\n') continue;
        EXPECT_FALSE(static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
            << "raw control character " << int(c) << " in: " << outcome.err;
    }
    EXPECT_EQ(outcome.err.find("\xc2\x9b"), std::string::npos) << "raw C1 CSI in the message";
    EXPECT_NE(outcome.err.find("evil\\x1b[2J"), std::string::npos) << outcome.err;
    // One error line and one hint at most: the newline in the name did not make another.
    EXPECT_LE(std::count(outcome.err.begin(), outcome.err.end(), '\n'), 2) << outcome.err;
}

TEST_F(SharedMachine, InfoJsonOfANameThatIsNotUtf8) {
    const fs::path sealed = victim_ciphertext("plain.warp", "x");
    const fs::path odd = shared_ / "caf\xe9-\xff.warp";  // Latin-1, not UTF-8
    fs::copy_file(sealed, odd);
    const auto outcome = as_victim({"info", "--json", odd.string()});
    EXPECT_EQ(outcome.exit_code, 0) << describe(outcome);
    const auto json = nlohmann::json::parse(outcome.out);  // valid JSON, valid UTF-8
    const auto name = json.at("file").get<std::string>();
    EXPECT_NE(name.find("caf\xef\xbf\xbd"), std::string::npos) << outcome.out;  // U+FFFD
    EXPECT_NE(name.find(".warp"), std::string::npos) << outcome.out;
}

}  // namespace
}  // namespace warp::clitest
