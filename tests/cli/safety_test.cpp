// The safety rules of the CLI contract: no overwrite without -f, input and output never the
// same file, no ciphertext to a terminal, I/O errors (exit 7), and SIGINT/SIGTERM (exit 130,
// no partial output left, existing target untouched), with both ways of writing a new file.
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <thread>

#include "tests/cli/cli_fixture.hpp"

namespace warp::clitest {
namespace {

class Safety : public CliTest {
protected:
    void SetUp() override {
        CliTest::SetUp();
        key_ = make_key("s.key");
    }
    fs::path key_;
};

TEST_F(Safety, EncryptRefusesToOverwriteWithoutForce) {
    const auto input = make_file("doc", pattern(5000));
    const auto target = make_file("doc.warp", "precious");
    auto outcome = run({"encrypt", input.string(), "-k", key_.string()});
    EXPECT_EQ(outcome.exit_code, 2) << describe(outcome);
    EXPECT_NE(outcome.err.find("--force"), std::string::npos) << "no hint: " << outcome.err;
    EXPECT_NE(outcome.err.find("doc.warp"), std::string::npos) << outcome.err;
    EXPECT_TRUE(read_file(target) == "precious") << "target changed";
    EXPECT_EQ(list_dir(dir_), (std::vector<std::string>{"doc", "doc.warp", "s.key"}));

    outcome = run({"encrypt", input.string(), "-k", key_.string(), "--force"});
    ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
    EXPECT_NE(read_file(target), "precious");
    EXPECT_EQ(list_dir(dir_), (std::vector<std::string>{"doc", "doc.warp", "s.key"}));
}

TEST_F(Safety, DecryptRefusesToOverwriteWithoutForce) {
    const auto plaintext = pattern(5000);
    make_file("doc.warp", encrypt_with_key(key_, plaintext));
    const auto target = make_file("doc", "precious");
    auto outcome = run({"decrypt", path("doc.warp").string(), "-k", key_.string()});
    EXPECT_EQ(outcome.exit_code, 2) << describe(outcome);
    EXPECT_NE(outcome.err.find("--force"), std::string::npos) << "no hint: " << outcome.err;
    EXPECT_TRUE(read_file(target) == "precious") << "target changed";

    outcome = run({"decrypt", path("doc.warp").string(), "-k", key_.string(), "-f"});
    ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
    EXPECT_TRUE(read_file(target) == plaintext);
}

TEST_F(Safety, SameInputAndOutputIsRefused) {
    const auto original = pattern(3000);
    const auto input = make_file("same", original);
    auto outcome = run({"encrypt", input.string(), "-o", input.string(), "-f", "-k", key_.string()});
    EXPECT_EQ(outcome.exit_code, 2) << describe(outcome);
    EXPECT_TRUE(read_file(input) == original) << "input destroyed";

    // The same file under another name (a hard link) is the same st_dev/st_ino.
    fs::create_hard_link(input, path("alias"));
    outcome = run({"encrypt", input.string(), "-o", path("alias").string(), "-f", "-k",
                   key_.string()});
    EXPECT_EQ(outcome.exit_code, 2) << describe(outcome);
    EXPECT_TRUE(read_file(input) == original) << "input destroyed through a hard link";

    const auto sealed = make_file("s.warp", encrypt_with_key(key_, original));
    const auto sealed_bytes = read_file(sealed);
    outcome = run({"decrypt", sealed.string(), "-o", sealed.string(), "-f", "-k", key_.string()});
    EXPECT_EQ(outcome.exit_code, 2) << describe(outcome);
    EXPECT_TRUE(read_file(sealed) == sealed_bytes) << "input changed";
    EXPECT_EQ(list_dir(dir_), (std::vector<std::string>{"alias", "s.key", "s.warp", "same"}));
}

TEST_F(Safety, CiphertextToATerminalIsRefused) {
    const int master = ::posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (master < 0 || ::grantpt(master) != 0 || ::unlockpt(master) != 0) {
        GTEST_SKIP() << "no pseudo-terminal available";
    }
    const int terminal = ::open(::ptsname(master), O_RDWR | O_NOCTTY | O_CLOEXEC);
    ASSERT_GE(terminal, 0);
    ASSERT_TRUE(::isatty(terminal));
    Pipe input;
    Pipe errors;
    Child child({"encrypt", "-k", key_.string()}, input.read_end, terminal, errors.write_end);
    ::close(terminal);
    input.close_read();
    errors.close_write();
    write_all(input.write_end, "secret data", 11);
    input.close_write();
    const auto err = read_all(errors.read_end);
    const auto status = child.wait_for(30);
    ::close(master);
    ASSERT_TRUE(status.has_value()) << "encrypt to a terminal did not finish";
    EXPECT_EQ(*status, 2) << err;
    EXPECT_NE(err.find("redirect or use -o"), std::string::npos) << err;
}

TEST_F(Safety, FullDeviceAsStdoutIsAnIoError) {
    const int full = ::open("/dev/full", O_WRONLY | O_CLOEXEC);
    if (full < 0) GTEST_SKIP() << "/dev/full not available";
    const auto plaintext = pattern(200000);
    const auto sealed = make_file("x.warp", encrypt_with_key(key_, plaintext));
    const auto input = make_file("x", plaintext);
    for (const auto& command : std::vector<std::vector<std::string>>{
             {"encrypt", input.string(), "-o", "-", "-k", key_.string()},
             {"decrypt", sealed.string(), "-o", "-", "-k", key_.string()}}) {
        Pipe errors;
        Child child(command, -1, full, errors.write_end);
        errors.close_write();
        const auto err = read_all(errors.read_end);
        EXPECT_EQ(child.wait(), 7) << command[0] << ": " << err;
        EXPECT_TRUE(err.starts_with("warpcrypt: error: ")) << err;
    }
    ::close(full);
}

TEST_F(Safety, UnreadableInputIsAnIoError) {
    auto outcome = run({"encrypt", path("does-not-exist").string(), "-k", key_.string()});
    EXPECT_EQ(outcome.exit_code, 7) << describe(outcome);
    EXPECT_NE(outcome.err.find("does-not-exist"), std::string::npos) << outcome.err;
    EXPECT_EQ(list_dir(dir_), std::vector<std::string>{"s.key"});

    // A directory opens but cannot be read: the read error, even for root.
    fs::create_directory(path("a-directory"));
    outcome = run({"encrypt", path("a-directory").string(), "-k", key_.string(), "-o",
                   path("d.warp").string()});
    EXPECT_EQ(outcome.exit_code, 7) << describe(outcome);
    EXPECT_NE(outcome.err.find("a-directory"), std::string::npos) << outcome.err;
    EXPECT_FALSE(fs::exists(path("d.warp")));
    EXPECT_EQ(list_dir(dir_), (std::vector<std::string>{"a-directory", "s.key"}));

    // A file that opens but whose first read fails (EIO), for root too: a process's own
    // /proc/self/mem at offset 0, which is never mapped.
    outcome = run({"encrypt", "/proc/self/mem", "-k", key_.string(), "-o",
                   path("m.warp").string()});
    EXPECT_EQ(outcome.exit_code, 7) << describe(outcome);
    EXPECT_NE(outcome.err.find("/proc/self/mem"), std::string::npos) << outcome.err;
    EXPECT_FALSE(fs::exists(path("m.warp")));
    EXPECT_EQ(list_dir(dir_), (std::vector<std::string>{"a-directory", "s.key"}));

    if (::geteuid() != 0) {  // permissions stop reads only for other users than root
        const auto locked = make_file("locked", "data");
        fs::permissions(locked, fs::perms::none);
        outcome = run({"encrypt", locked.string(), "-k", key_.string()});
        EXPECT_EQ(outcome.exit_code, 7) << describe(outcome);
        EXPECT_NE(outcome.err.find("locked"), std::string::npos) << outcome.err;
        EXPECT_FALSE(fs::exists(path("locked.warp")));
    }
}

TEST_F(Safety, OutputInAMissingDirectoryIsAnIoError) {
    const auto input = make_file("in", "data");
    const auto outcome = run({"encrypt", input.string(), "-k", key_.string(), "-o",
                              path("no-such-dir/out.warp").string()});
    EXPECT_EQ(outcome.exit_code, 7) << describe(outcome);
    EXPECT_NE(outcome.err.find("no-such-dir"), std::string::npos) << outcome.err;
}

// Starts `command` with stdin from a pipe fed by `feed` (run on a thread until it returns),
// waits until its new output in `watch` holds data (output_in_progress: the named temporary
// file, or the unnamed one it holds open), then sends `signal_number`.
struct Interrupted {
    std::optional<int> status;
    std::string err;
    bool saw_output = false;  // output was being written to `watch` before the signal (or
                              // could not be watched: output_watchable)
};

Interrupted interrupt_while_writing(const std::vector<std::string>& command,
                                    TemporaryMethod method, const fs::path& watch,
                                    const std::function<void(int fd, const std::atomic<bool>&)>& feed,
                                    int signal_number) {
    Pipe input;
    Pipe errors;
    Child child(command, input.read_end, -1, errors.write_end, temporary_method_env(method));
    input.close_read();
    errors.close_write();
    std::atomic<bool> stop{false};
    std::thread feeder([&] {
        feed(input.write_end, stop);
    });
    std::string err;
    std::thread err_reader([&] { err = read_all(errors.read_end); });

    // Wait for output (up to 10 s), then let the work run a little longer.
    const bool seen = wait_for_output(child.pid(), watch, method).has_value();
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    Interrupted result;
    result.saw_output = !output_watchable(method) || seen;
    child.send_signal(signal_number);
    result.status = child.wait_for(20);
    stop = true;
    if (!result.status) {
        child.send_signal(SIGKILL);
        child.wait();
    }
    feeder.join();  // the child is gone: its writes fail with EPIPE, or it saw `stop`
    input.close_write();
    err_reader.join();
    result.err = err;
    return result;
}

// Feeds an endless pattern until the reader goes away or `stop` is set.
void feed_forever(int fd, const std::atomic<bool>& stop) {
    std::string block = pattern(1 << 20);
    while (!stop && write_all(fd, block.data(), block.size())) {
    }
}

// Each with both ways of writing a new file (output_file.hpp).
class SafetyInterrupted : public Safety,
                          public ::testing::WithParamInterface<TemporaryMethod> {};

TEST_P(SafetyInterrupted, SigintDuringEncryptionLeavesNothing) {
    fs::create_directory(path("out"));
    const auto result = interrupt_while_writing(
        {"encrypt", "-k", key_.string(), "--cipher", "aes-256-gcm", "-o",
         path("out/big.warp").string()},
        GetParam(), path("out"), feed_forever, SIGINT);
    ASSERT_TRUE(result.status.has_value()) << "still running 20 s after SIGINT";
    EXPECT_EQ(*result.status, 130) << result.err;
    EXPECT_TRUE(result.saw_output) << "no output while working: the test proves little";
    EXPECT_TRUE(list_dir(path("out")).empty())
        << "left behind: " << ::testing::PrintToString(list_dir(path("out")));
}

TEST_P(SafetyInterrupted, SigtermDuringEncryptionLeavesNothing) {
    fs::create_directory(path("out"));
    const auto result = interrupt_while_writing(
        {"encrypt", "-k", key_.string(), "-o", path("out/big.warp").string()},
        GetParam(), path("out"), feed_forever, SIGTERM);
    ASSERT_TRUE(result.status.has_value()) << "still running 20 s after SIGTERM";
    EXPECT_EQ(*result.status, 130) << result.err;
    EXPECT_TRUE(result.saw_output) << "no output while working: the test proves little";
    EXPECT_TRUE(list_dir(path("out")).empty())
        << "left behind: " << ::testing::PrintToString(list_dir(path("out")));
}

TEST_P(SafetyInterrupted, SigintWhileDecryptionWaitsForInputKeepsTheTarget) {
    // Half a ciphertext arrives, then the input stalls (a slow network pipe): Ctrl-C must still
    // end the program, leave no partial output and leave the existing target alone.
    Command encrypt;
    encrypt.args = {"encrypt", "-k", key_.string(), "--cipher", "chacha20-poly1305"};
    encrypt.stdin_bytes = pattern(8 << 20);
    const auto sealed = run(encrypt);
    ASSERT_EQ(sealed.exit_code, 0) << describe(sealed);
    fs::create_directory(path("out"));
    write_file(path("out/plain"), "precious");
    const auto half = sealed.out.substr(0, sealed.out.size() / 2);
    const auto result = interrupt_while_writing(
        {"decrypt", "-k", key_.string(), "-f", "-o", path("out/plain").string()},
        GetParam(), path("out"),
        [&](int fd, const std::atomic<bool>& stop) {
            write_all(fd, half.data(), half.size());
            while (!stop) std::this_thread::sleep_for(std::chrono::milliseconds(10));
        },
        SIGINT);
    ASSERT_TRUE(result.status.has_value()) << "still running 20 s after SIGINT";
    EXPECT_EQ(*result.status, 130) << result.err;
    EXPECT_TRUE(result.saw_output) << "no output while working: the test proves little";
    EXPECT_EQ(list_dir(path("out")), std::vector<std::string>{"plain"});
    EXPECT_TRUE(read_file(path("out/plain")) == "precious") << "target changed";
}

INSTANTIATE_TEST_SUITE_P(BothMethods, SafetyInterrupted,
                         ::testing::Values(TemporaryMethod::unnamed, TemporaryMethod::named),
                         temporary_method_test_name);

TEST_F(Safety, QuietPrintsNothingOnSuccess) {
    const auto input = make_file("q", pattern(1000));
    const auto outcome = run({"encrypt", input.string(), "-k", key_.string(), "--quiet"});
    EXPECT_EQ(outcome.exit_code, 0) << describe(outcome);
    EXPECT_TRUE(outcome.err.empty()) << outcome.err;
}

}  // namespace
}  // namespace warp::clitest
