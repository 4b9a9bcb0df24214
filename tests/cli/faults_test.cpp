// Faults through the real binary, for encrypt and decrypt: an output directory it may not write,
// /dev/full as the output file, an input whose reads fail midway (fault_inject.c), SIGINT,
// SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGALRM, SIGUSR1, SIGUSR2 and SIGKILL while data flows, a file size limit (`ulimit -f`), and runs racing for one directory
// or one output path. Each failure must give the exit code of README "Exit codes", one error
// line naming the problem (a hint line may follow), no temporary file, an existing target with
// the same bytes and modification time, and no plaintext anywhere: not on stdout, not in any
// file the run could have written.
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "tests/cli/cli_fixture.hpp"

namespace warp::clitest {
namespace {

// prefix, i, suffix. Appended in place: `"f" + std::to_string(i)` trips GCC 12's -Wrestrict
// false positive at -O2 (the package's Release build).
std::string numbered(const char* prefix, std::size_t i, const char* suffix) {
    std::string name = prefix;
    name += std::to_string(i);
    name += suffix;
    return name;
}

constexpr int kExitUsage = 2;
constexpr int kExitIo = 7;
constexpr int kExitInterrupted = 130;  // README: SIGINT, SIGTERM, SIGHUP, ...

constexpr std::size_t kMiB = std::size_t{1} << 20;
// Several batches of the chunk pipeline: enough that output is written before a fault hits
// (the pipeline reads a few 1 MiB batches ahead of what it writes).
constexpr std::size_t kPlaintextSize = 8 * kMiB;

// A file's bytes and modification time, to show a target was left alone.
struct FileState {
    std::string bytes;
    timespec mtime{};
};

FileState snapshot(const fs::path& file) {
    struct stat st {};
    if (::stat(file.c_str(), &st) != 0) ADD_FAILURE() << "cannot stat " << file;
    return {read_file(file), st.st_mtim};
}

void expect_untouched(const fs::path& file, const FileState& before) {
    const FileState now = snapshot(file);
    EXPECT_TRUE(now.bytes == before.bytes) << file << " changed";
    EXPECT_EQ(now.mtime.tv_sec, before.mtime.tv_sec) << file << " was rewritten";
    EXPECT_EQ(now.mtime.tv_nsec, before.mtime.tv_nsec) << file << " was rewritten";
}

// stderr is `warpcrypt: error: ...` naming the problem, then at most a hint line. Leading empty
// lines are allowed: the interrupt message starts on a fresh line after a progress bar.
void expect_one_error_line(const std::string& err, const std::vector<std::string>& needles) {
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start < err.size()) {
        const std::size_t end = err.find('\n', start);
        const std::string line = err.substr(start, end == std::string::npos ? end : end - start);
        if (!line.empty() || !lines.empty()) lines.push_back(line);
        if (end == std::string::npos) break;
        start = end + 1;
    }
    ASSERT_FALSE(lines.empty()) << "no error message";
    EXPECT_TRUE(lines[0].starts_with("warpcrypt: error: ")) << err;
    for (const auto& needle : needles)
        EXPECT_NE(lines[0].find(needle), std::string::npos) << "'" << needle << "' not in: " << err;
    EXPECT_LE(lines.size(), 2u) << err;
    if (lines.size() == 2) {
        EXPECT_TRUE(lines[1].starts_with("warpcrypt: hint: ")) << err;
    }
}

class Faults : public CliTest {
protected:
    void SetUp() override {
        CliTest::SetUp();
        key_ = make_key("f.key");
        out_ = path("out");
        fs::create_directory(out_);
        plaintext_ = pattern(kPlaintextSize);
    }

    // An existing file in the output directory, dated in the past so that any rewrite shows.
    FileState make_target(const fs::path& file) const {
        write_file(file, "an older file that must survive");
        const timespec times[2] = {{1'000'000'000, 0}, {1'000'000'000, 0}};
        EXPECT_EQ(::utimensat(AT_FDCWD, file.c_str(), times, 0), 0);
        return snapshot(file);
    }

    fs::path sealed_file(std::string_view name, std::string_view plaintext) const {
        return make_file(name, encrypt_with_key(key_, plaintext));
    }

    // Fails if a piece of `plaintext` is on `stdout_bytes` or in any file of this test except
    // `allowed` (inputs that hold it by design).
    void expect_no_plaintext(const std::string& stdout_bytes, const std::string& plaintext,
                             const std::vector<fs::path>& allowed = {}) const {
        constexpr std::size_t kProbe = 64;
        const std::string probes[] = {plaintext.substr(0, kProbe),
                                      plaintext.substr(plaintext.size() / 2, kProbe),
                                      plaintext.substr(plaintext.size() - kProbe)};
        auto holds_plaintext = [&](const std::string& bytes) {
            for (const auto& probe : probes)
                if (bytes.find(probe) != std::string::npos) return true;
            return false;
        };
        EXPECT_FALSE(holds_plaintext(stdout_bytes)) << "plaintext on stdout";
        for (const auto& entry : fs::recursive_directory_iterator(dir_)) {
            if (!entry.is_regular_file()) continue;
            bool skip = false;
            for (const auto& file : allowed) skip = skip || fs::equivalent(entry.path(), file);
            if (!skip) {
                EXPECT_FALSE(holds_plaintext(read_file(entry.path())))
                    << "plaintext in " << entry.path();
            }
        }
    }

    std::vector<std::string> out_listing() const { return list_dir(out_); }

    // Runs `direction` on `input` (by name, then as stdin) with its reads failing at each of
    // `breaks`, into an existing target (--force): an I/O error every time, nothing else changes.
    void check_failing_input(const std::string& direction, const fs::path& input,
                             const fs::path& target, const std::vector<std::size_t>& breaks,
                             const fs::path& plaintext_file) const;

    fs::path key_;
    fs::path out_;
    std::string plaintext_;
};

// ---- An output directory the run may not write -------------------------------------------

TEST_F(Faults, UnwritableOutputDirectoryIsAnIoError) {
    const auto input = make_file("doc", plaintext_);
    const auto sealed = sealed_file("doc.warp", plaintext_);
    const auto old_sealed = make_target(out_ / "old.warp");
    const auto old_plain = make_target(out_ / "old");
    fs::permissions(out_, fs::perms::owner_read | fs::perms::owner_exec | fs::perms::group_read |
                              fs::perms::group_exec | fs::perms::others_read |
                              fs::perms::others_exec);
    const auto listing = out_listing();
    const std::string k = key_.string();

    struct Case {
        std::vector<std::string> args;
        std::string target;
    };
    const Case cases[] = {
        {{"encrypt", input.string(), "-k", k, "-o", (out_ / "new.warp").string()}, "new.warp"},
        {{"encrypt", input.string(), "-k", k, "-f", "-o", (out_ / "old.warp").string()},
         "old.warp"},
        {{"decrypt", sealed.string(), "-k", k, "-o", (out_ / "new").string()}, "new"},
        {{"decrypt", sealed.string(), "-k", k, "-f", "-o", (out_ / "old").string()}, "old"},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.args[0] + " -> " + c.target);
        Command command;
        command.args = c.args;
        // Root (CI containers) writes anywhere unless it gives up CAP_DAC_OVERRIDE.
        command.limits.obey_file_permissions = true;
        const auto outcome = run(command);
        EXPECT_EQ(outcome.exit_code, kExitIo) << describe(outcome);
        expect_one_error_line(outcome.err, {c.target, "Permission denied"});
        EXPECT_TRUE(outcome.out.empty());
        EXPECT_EQ(out_listing(), listing);
    }
    expect_untouched(out_ / "old.warp", old_sealed);
    expect_untouched(out_ / "old", old_plain);
    expect_no_plaintext("", plaintext_, {input});
}

// ---- /dev/full named as the output file (safety_test.cpp covers it as stdout) -------------

TEST_F(Faults, FullDeviceAsOutputFileIsAnIoError) {
    ASSERT_TRUE(fs::is_character_file("/dev/full")) << "/dev/full is missing from this system";
    const auto input = make_file("doc", plaintext_);
    const auto sealed = sealed_file("doc.warp", plaintext_);
    const auto listing = list_dir(dir_);
    for (const auto& args : std::vector<std::vector<std::string>>{
             {"encrypt", input.string(), "-k", key_.string(), "-o", "/dev/full"},
             {"decrypt", sealed.string(), "-k", key_.string(), "-o", "/dev/full"}}) {
        SCOPED_TRACE(args[0]);
        const auto outcome = run(args);
        EXPECT_EQ(outcome.exit_code, kExitIo) << describe(outcome);
        expect_one_error_line(outcome.err, {"/dev/full", "No space left on device"});
        EXPECT_EQ(list_dir(dir_), listing);
        expect_no_plaintext(outcome.out, plaintext_, {input});
    }
}

// ---- An input whose reads fail midway (LD_PRELOAD=fault_inject.so) -------------------------

#ifdef WARPCRYPT_FAULT_INJECT
void Faults::check_failing_input(const std::string& direction, const fs::path& input,
                                 const fs::path& target, const std::vector<std::size_t>& breaks,
                                 const fs::path& plaintext_file) const {
    const auto old = snapshot(target);
    const auto listing = out_listing();
    for (const bool as_stdin : {false, true}) {
        for (const std::size_t after : breaks) {
            SCOPED_TRACE(direction + (as_stdin ? " from stdin" : " from a file") +
                         ", reads fail after " + std::to_string(after) + " bytes");
            Command command;
            command.args = {direction, "-k", key_.string(), "-f", "-o", target.string()};
            if (as_stdin) {
                command.stdin_file = input;
            } else {
                command.args.insert(command.args.begin() + 1, input.string());
            }
            command.env = failing_reads(input, after);
            const auto outcome = run(command);
            EXPECT_EQ(outcome.exit_code, kExitIo) << describe(outcome);
            // "Input/output error" (EIO) also proves that the shim was loaded and did its work.
            expect_one_error_line(outcome.err, {as_stdin ? "stdin" : input.string(), "read error",
                                                "Input/output error"});
            EXPECT_EQ(out_listing(), listing);
            expect_untouched(target, old);
            expect_no_plaintext(outcome.out, plaintext_, {plaintext_file});
        }
    }
}
#endif

TEST_F(Faults, InputFailingMidReadIsAnIoError) {
#ifndef WARPCRYPT_FAULT_INJECT
    GTEST_SKIP() << "static build (WARPCRYPT_STATIC): LD_PRELOAD cannot reach a static binary";
#else
    const auto input = make_file("doc", plaintext_);
    const auto sealed = sealed_file("doc.warp", plaintext_);
    make_target(out_ / "doc.warp");
    make_target(out_ / "doc");
    // At the first read, inside the header (decrypt), and after megabytes of output.
    constexpr std::size_t kMidStream = 6 * kMiB;
    const std::vector<std::size_t> breaks = {0, 100, kMidStream};
    check_failing_input("encrypt", input, out_ / "doc.warp", breaks, input);
    check_failing_input("decrypt", sealed, out_ / "doc", breaks, input);

    // That the mid-stream fault comes after output was written (so above, a temporary file with
    // data was removed) shows on stdout, which is written in place: ciphertext, and for decrypt
    // the chunks that authenticated, a prefix of the plaintext (README: stdout gets each chunk
    // once it authenticated).
    for (const auto& [direction, source] :
         {std::pair{"encrypt", input}, std::pair{"decrypt", sealed}}) {
        Command command;
        command.args = {direction, source.string(), "-k", key_.string(), "-o", "-"};
        command.env = failing_reads(source, kMidStream);
        const auto outcome = run(command);
        EXPECT_EQ(outcome.exit_code, kExitIo) << describe(outcome);
        EXPECT_GE(outcome.out.size(), kMiB) << direction << ": the fault came before any output";
        if (std::string_view(direction) == "decrypt") {
            EXPECT_TRUE(plaintext_.starts_with(outcome.out))
                << "decrypt wrote bytes that are not the plaintext";
        }
    }

    // Range decryption reads with pread(2), 2 MiB of plaintext here: the same fault at the
    // header, and after the trailer and half the chunks asked for.
    const auto old = snapshot(out_ / "doc");
    const auto listing = out_listing();
    for (const std::size_t after : {std::size_t{0}, std::size_t{100}, kMiB}) {
        SCOPED_TRACE("decrypt --offset, reads fail after " + std::to_string(after) + " bytes");
        Command command;
        command.args = {"decrypt", sealed.string(), "-k", key_.string(), "-f", "-o",
                        (out_ / "doc").string(), "--offset", "1M", "--length", "2M"};
        command.env = failing_reads(sealed, after);
        const auto outcome = run(command);
        EXPECT_EQ(outcome.exit_code, kExitIo) << describe(outcome);
        expect_one_error_line(outcome.err, {sealed.string(), "read error", "Input/output error"});
        EXPECT_EQ(out_listing(), listing);
        expect_untouched(out_ / "doc", old);
        expect_no_plaintext(outcome.out, plaintext_, {input});
    }
#endif
}

// ---- Signals while data flows ------------------------------------------------------------

struct SignalCase {
    const char* direction;
    int signal_number;
    TemporaryMethod method;
};

class FaultsSignal : public Faults, public ::testing::WithParamInterface<SignalCase> {};

TEST_P(FaultsSignal, RemovesThePartialOutputAndKeepsTheTarget) {
    const SignalCase param = GetParam();
    const bool encrypting = std::string_view(param.direction) == "encrypt";
    // The input arrives through a pipe: half of it at once, the rest in a trickle that is still
    // flowing when the signal comes, so the run is busy, not finished.
    const std::string input = encrypting ? plaintext_ : encrypt_with_key(key_, plaintext_);
    const auto target = out_ / (encrypting ? "doc.warp" : "doc");
    const auto old = make_target(target);

    Pipe in;
    Pipe err_pipe;
    Child child({param.direction, "-k", key_.string(), "-f", "-o", target.string()}, in.read_end,
                -1, err_pipe.write_end, temporary_method_env(param.method));
    in.close_read();
    err_pipe.close_write();
    std::atomic<bool> stop{false};
    std::thread feeder([&] {
        const std::size_t half = input.size() / 2;
        if (!write_all(in.write_end, input.data(), half)) return;
        constexpr std::size_t kTrickle = 64 << 10;
        for (std::size_t at = half; at < input.size() && !stop; at += kTrickle) {
            if (!write_all(in.write_end, input.data() + at, std::min(kTrickle, input.size() - at)))
                return;
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        while (!stop) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    });
    std::string err;
    std::thread err_reader([&] { err = read_all(err_pipe.read_end); });

    // Signal once the new output holds data (for decrypt: plaintext).
    const std::optional<fs::path> in_progress = wait_for_output(child.pid(), out_, param.method);
    child.send_signal(param.signal_number);
    auto status = child.wait_for(10);
    stop = true;
    if (!status) {
        child.send_signal(SIGKILL);
        child.wait();
    }
    feeder.join();
    in.close_write();
    err_reader.join();

    if (output_watchable(param.method)) {
        ASSERT_TRUE(in_progress.has_value()) << "no output was written in 10 s: the test proves nothing";
    }
    ASSERT_TRUE(status.has_value()) << "still running 10 s after the signal";
    if (param.signal_number == SIGKILL) {
        // Nothing can clean up after SIGKILL: only an unnamed file leaves nothing behind.
        EXPECT_EQ(child.term_signal(), SIGKILL);
    } else {
        EXPECT_EQ(*status, kExitInterrupted) << err;
        expect_one_error_line(err, {"interrupted"});
    }
    EXPECT_EQ(out_listing(), std::vector<std::string>{target.filename().string()});
    expect_untouched(target, old);
    expect_no_plaintext("", plaintext_);
}

// Every signal that ends warpcrypt with the named temporary file, which the handler must
// remove; with the unnamed file, the kernel removes it, SIGKILL included.
std::vector<SignalCase> signal_cases() {
    std::vector<SignalCase> cases;
    for (const char* direction : {"encrypt", "decrypt"})
        for (int signal_number : {SIGINT, SIGTERM})
            cases.push_back({direction, signal_number, TemporaryMethod::unnamed});
    for (int signal_number : {SIGHUP, SIGKILL})
        cases.push_back({"decrypt", signal_number, TemporaryMethod::unnamed});
    for (const char* direction : {"encrypt", "decrypt"})
        for (int signal_number : {SIGINT, SIGTERM})
            cases.push_back({direction, signal_number, TemporaryMethod::named});
    for (int signal_number : {SIGHUP, SIGQUIT, SIGPIPE, SIGALRM, SIGUSR1, SIGUSR2})
        cases.push_back({"decrypt", signal_number, TemporaryMethod::named});
    return cases;
}

INSTANTIATE_TEST_SUITE_P(
    EverySignal, FaultsSignal, ::testing::ValuesIn(signal_cases()),
    [](const ::testing::TestParamInfo<SignalCase>& test_case) {
        std::string name = std::string(test_case.param.direction) + "_" +
                           sigabbrev_np(test_case.param.signal_number) + "_" +
                           temporary_method_name(test_case.param.method);
        return name;
    });

// ---- A full disk, simulated by a file size limit -----------------------------------------

TEST_F(Faults, FileSizeLimitIsAnIoErrorNotASignal) {
    const auto input = make_file("doc", plaintext_);
    const auto sealed = sealed_file("doc.warp", plaintext_);
    for (const auto& [direction, source, target] : {std::tuple{"encrypt", input, out_ / "doc.warp"},
                                                    std::tuple{"decrypt", sealed, out_ / "doc"}}) {
        SCOPED_TRACE(direction);
        const auto old = make_target(target);
        const auto listing = out_listing();
        Command command;
        command.args = {direction, source.string(), "-k", key_.string(), "-f",
                        "-o",      target.string()};
        command.limits.file_size = kMiB;  // `ulimit -f 1024`: a quarter of the output
        const auto outcome = run(command);
        EXPECT_EQ(outcome.term_signal, 0)
            << "killed by a signal (SIGXFSZ is 25): " << describe(outcome);
        EXPECT_EQ(outcome.exit_code, kExitIo) << describe(outcome);
        expect_one_error_line(outcome.err, {target.string(), "File too large"});
        EXPECT_NE(outcome.err.find("ulimit"), std::string::npos) << "no hint: " << outcome.err;
        EXPECT_EQ(out_listing(), listing);
        expect_untouched(target, old);
        expect_no_plaintext(outcome.out, plaintext_, {input});
    }
}

// ---- Runs racing each other ---------------------------------------------------------------

// Runs every command at once, each on its own thread; returns their outcomes in order.
std::vector<Outcome> run_together(const std::vector<Command>& commands) {
    std::vector<Outcome> outcomes(commands.size());
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < commands.size(); ++i)
        threads.emplace_back([&, i] { outcomes[i] = run(commands[i]); });
    for (auto& thread : threads) thread.join();
    return outcomes;
}

TEST_F(Faults, EightEncryptionsIntoOneDirectory) {
    constexpr std::size_t kRuns = 8;
    std::vector<std::string> plaintexts;
    std::vector<Command> commands;
    std::vector<std::string> expected_listing;
    for (std::size_t i = 0; i < kRuns; ++i) {
        plaintexts.push_back(pattern(kMiB + i * 4099, i * kPlaintextSize));
        const auto input = make_file(numbered("in", i, ""), plaintexts.back());
        const auto name = numbered("f", i, ".warp");
        expected_listing.push_back(name);
        Command command;
        command.args = {"encrypt",     input.string(), "-k",
                        key_.string(), "-o",           (out_ / name).string()};
        commands.push_back(command);
    }
    const auto outcomes = run_together(commands);
    for (std::size_t i = 0; i < kRuns; ++i)
        EXPECT_EQ(outcomes[i].exit_code, 0) << i << ": " << describe(outcomes[i]);
    EXPECT_EQ(out_listing(), expected_listing);
    for (std::size_t i = 0; i < kRuns; ++i) {
        const auto back =
            run({"decrypt", (out_ / expected_listing[i]).string(), "-k", key_.string(), "-o", "-"});
        EXPECT_EQ(back.exit_code, 0) << describe(back);
        EXPECT_TRUE(back.out == plaintexts[i])
            << expected_listing[i] << " does not decrypt to its input";
    }
}

TEST_F(Faults, FourDecryptionsToOnePathWithForce) {
    // Four different plaintexts to one name: the survivor must be one of them, whole.
    constexpr std::size_t kRuns = 4;
    const auto target = out_ / "plain";
    make_target(target);
    std::vector<std::string> plaintexts;
    std::vector<Command> commands;
    for (std::size_t i = 0; i < kRuns; ++i) {
        plaintexts.push_back(pattern(3 * kMiB + i, i * kPlaintextSize));
        const auto sealed = sealed_file(numbered("c", i, ".warp"), plaintexts.back());
        Command command;
        command.args = {"decrypt", sealed.string(), "-k", key_.string(), "-f",
                        "-o",      target.string()};
        commands.push_back(command);
    }
    const auto outcomes = run_together(commands);
    for (const auto& outcome : outcomes) EXPECT_EQ(outcome.exit_code, 0) << describe(outcome);
    EXPECT_EQ(out_listing(), std::vector<std::string>{"plain"});
    const auto result = read_file(target);
    std::size_t matches = 0;
    for (const auto& plaintext : plaintexts) matches += result == plaintext ? 1 : 0;
    EXPECT_EQ(matches, 1u) << "the output is not one of the plaintexts (" << result.size()
                           << " bytes)";
}

TEST_F(Faults, FourEncryptionsToOnePathWithoutForce) {
    // Without --force, exactly one run may create the file; the others are refused (exit 2)
    // whether they lose the race at the start-up check or at the final rename.
    constexpr std::size_t kRuns = 4;
    const auto target = out_ / "doc.warp";
    std::vector<std::string> plaintexts;
    std::vector<Command> commands;
    for (std::size_t i = 0; i < kRuns; ++i) {
        plaintexts.push_back(pattern(kPlaintextSize + i, i * kPlaintextSize));
        const auto input = make_file(numbered("in", i, ""), plaintexts.back());
        Command command;
        command.args = {"encrypt", input.string(), "-k", key_.string(), "-o", target.string()};
        commands.push_back(command);
    }
    const auto outcomes = run_together(commands);
    std::optional<std::size_t> winner;
    for (std::size_t i = 0; i < kRuns; ++i) {
        const auto& outcome = outcomes[i];
        if (outcome.exit_code == 0) {
            EXPECT_FALSE(winner.has_value())
                << "runs " << *winner << " and " << i << " both wrote " << target;
            winner = i;
            continue;
        }
        EXPECT_EQ(outcome.exit_code, kExitUsage) << describe(outcome);
        expect_one_error_line(outcome.err, {target.string(), "already exists"});
        EXPECT_NE(outcome.err.find("--force"), std::string::npos) << "no hint: " << outcome.err;
    }
    ASSERT_TRUE(winner.has_value()) << "no run succeeded";
    EXPECT_EQ(out_listing(), std::vector<std::string>{"doc.warp"});
    const auto back = run({"decrypt", target.string(), "-k", key_.string(), "-o", "-"});
    EXPECT_EQ(back.exit_code, 0) << describe(back);
    EXPECT_TRUE(back.out == plaintexts[*winner]) << target << " is not the successful run's output";
}

}  // namespace
}  // namespace warp::clitest
