// Secrets hygiene through the binary (cli/keys.hpp, cli/core_dumps.hpp): the warning for a key
// file other users can read or write, keygen's file mode whatever the umask, and a process that
// holds a secret while it waits for input: no core dump possible, not dumpable, and the
// passphrase gone from its environment.
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/cli/cli_fixture.hpp"

namespace warp::clitest {
namespace {

mode_t mode_of(const fs::path& file) {
    struct stat st {};
    EXPECT_EQ(::stat(file.c_str(), &st), 0) << file;
    return st.st_mode & 07777;
}

std::string warning_for(const fs::path& key, const std::string& access, const char* mode) {
    return "warpcrypt: warning: key file " + key.string() + " can be " + access +
           " by other users (mode " + mode + "); run `chmod 600 " + key.string() + "`\n";
}

TEST_F(CliTest, KeyFileOthersCanReadOrWriteGetsAWarning) {
    const auto key = make_key("k");
    ASSERT_EQ(mode_of(key), 0600u);
    Command seal;
    seal.args = {"encrypt", "-k", key.string()};
    seal.stdin_bytes = "plaintext";
    auto outcome = run(seal);
    ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
    EXPECT_EQ(outcome.err, "") << "a 0600 key file is private: nothing to warn about";
    const std::string sealed = outcome.out;

    struct Exposure {
        mode_t mode;
        const char* text;
        const char* access;  // nullptr: no warning
    };
    for (const Exposure& e : {Exposure{0644, "0644", "read"}, Exposure{0640, "0640", "read"},
                              Exposure{0604, "0604", "read"}, Exposure{0620, "0620", "written"},
                              Exposure{0602, "0602", "written"},
                              Exposure{0666, "0666", "read and written"},
                              Exposure{0400, "0400", nullptr}, Exposure{0711, "0711", nullptr}}) {
        ASSERT_EQ(::chmod(key.c_str(), e.mode), 0);
        const std::string expected = e.access ? warning_for(key, e.access, e.text) : "";
        outcome = run(seal);
        EXPECT_EQ(outcome.exit_code, 0) << e.text << ": " << describe(outcome);
        EXPECT_EQ(outcome.err, expected) << "encrypt, mode " << e.text;
        // Decrypting reads the key file the same way; --quiet does not silence the warning.
        Command open;
        open.args = {"decrypt", "-k", key.string(), "--quiet"};
        open.stdin_bytes = sealed;
        outcome = run(open);
        EXPECT_EQ(outcome.exit_code, 0) << e.text << ": " << describe(outcome);
        EXPECT_EQ(outcome.out, "plaintext");
        EXPECT_EQ(outcome.err, expected) << "decrypt --quiet, mode " << e.text;
    }
}

TEST_F(CliTest, KeygenMakesAPrivateFileWhateverTheUmask) {
    // The child inherits the umask; no other thread of this program creates files meanwhile.
    const mode_t saved = ::umask(0);
    const auto outcome = run({"keygen", "-o", path("k").string()});
    make_file("old", "an older key, readable by all");
    ASSERT_EQ(::chmod(path("old").c_str(), 0666), 0);
    const auto replaced = run({"keygen", "-o", path("old").string(), "--force"});
    ::umask(saved);

    ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
    EXPECT_EQ(mode_of(path("k")), 0600u);
    ASSERT_EQ(replaced.exit_code, 0) << describe(replaced);
    EXPECT_EQ(mode_of(path("old")), 0600u) << "--force must not keep the old file's mode";
    EXPECT_NE(read_file(path("old")), "an older key, readable by all");
    EXPECT_EQ(list_dir(dir_), (std::vector<std::string>{"k", "old"})) << "a temporary file left";
}

TEST_F(CliTest, KeygenToStdoutWarnsWhenStdoutIsAFileOthersCanRead) {
    // `umask 022; warpcrypt keygen > key`: the shell creates `key` 0644.
    for (const auto& kind : {std::vector<std::string>{}, std::vector<std::string>{"--identity"}}) {
        for (const mode_t mode : {mode_t{0644}, mode_t{0600}}) {
            SCOPED_TRACE(std::to_string(kind.size()) + " " + std::to_string(mode));
            const fs::path key = path("key");
            fs::remove(key);
            const int fd = ::open(key.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
            ASSERT_GE(fd, 0);
            ASSERT_EQ(::fchmod(fd, mode), 0);
            Pipe err;
            Child child(args({{"keygen"}, kind}), -1, fd, err.write_end);
            ::close(fd);
            err.close_write();
            const std::string errors = read_all(err.read_end);
            ASSERT_EQ(child.wait(), 0) << errors;
            EXPECT_FALSE(read_file(key).empty());
            const bool warned =
                errors.find("warning: the new secret key goes to stdout, a file other users "
                            "can read (mode 0644)") != std::string::npos;
            EXPECT_EQ(warned, mode == 0644) << errors;
        }
    }
}

TEST_F(CliTest, AnIdentityFileThatIsNotARegularFileIsNamedWithItsArticle) {
    const fs::path fifo = path("id.fifo");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const Outcome outcome = run({"decrypt", "-i", fifo.string(), "-o", "-"});
    EXPECT_EQ(outcome.exit_code, 2) << describe(outcome);
    EXPECT_NE(outcome.err.find("refusing it as an identity file"), std::string::npos)
        << outcome.err;
}

// --- a child that waits for input while it holds a secret ---------------------------------

// What /proc says of process `pid`.
std::string proc_text(pid_t pid, const char* file) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/" + file, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// "S" while it sleeps (blocked in read(2) on the pipe, here), from /proc/PID/stat.
char run_state(pid_t pid) {
    const std::string stat = proc_text(pid, "stat");
    const auto close = stat.rfind(')');
    return close == std::string::npos || close + 2 >= stat.size() ? '?' : stat[close + 2];
}

// The soft and hard "Max core file size" of /proc/PID/limits, e.g. "0 0" or "0 unlimited".
std::string core_limits(pid_t pid) {
    std::istringstream limits(proc_text(pid, "limits"));
    for (std::string line; std::getline(limits, line);) {
        if (!line.starts_with("Max core file size")) continue;
        std::istringstream fields(line.substr(std::string_view("Max core file size").size()));
        std::string soft, hard;
        fields >> soft >> hard;
        return soft + " " + hard;
    }
    return "(no such line)";
}

// /proc/PID/* belongs to the process's user while it is dumpable, and to root once it is not
// (proc(5), PR_SET_DUMPABLE), so the owner tells, provided the process does not run as root.
uid_t proc_owner(pid_t pid) {
    struct stat st {};
    const std::string status = "/proc/" + std::to_string(pid) + "/status";
    return ::stat(status.c_str(), &st) == 0 ? st.st_uid : static_cast<uid_t>(-1);
}

constexpr uid_t kNobody = 65534;

// A child of this test's own making (process.hpp's Child cannot change its user): stdin,
// stdout and stderr are pipes; the environment is exactly `env`. When the test runs as root,
// the child runs as nobody, for proc_owner() to mean something.
class WaitingChild {
public:
    WaitingChild(const fs::path& program, std::vector<std::string> args,
                 std::vector<std::string> env) {
        args.insert(args.begin(), program.string());
        std::vector<char*> argv, envp;
        for (auto& a : args) argv.push_back(a.data());
        argv.push_back(nullptr);
        for (auto& e : env) envp.push_back(e.data());
        envp.push_back(nullptr);
        const bool drop_root = ::geteuid() == 0;
        pid_ = ::fork();
        if (pid_ == 0) {  // async-signal-safe calls only, up to execve
            ::dup2(in_.read_end, 0);
            ::dup2(out_.write_end, 1);
            ::dup2(err_.write_end, 2);
            if (drop_root && (::setgroups(0, nullptr) != 0 ||
                              ::setresgid(kNobody, kNobody, kNobody) != 0 ||
                              ::setresuid(kNobody, kNobody, kNobody) != 0))
                ::_exit(126);
            ::execve(argv[0], argv.data(), envp.data());
            ::_exit(127);
        }
        in_.close_read();
        out_.close_write();
        err_.close_write();
    }
    WaitingChild(const WaitingChild&) = delete;
    WaitingChild& operator=(const WaitingChild&) = delete;
    ~WaitingChild() {
        if (pid_ > 0 && !reaped_) {
            ::kill(pid_, SIGKILL);
            ::waitpid(pid_, nullptr, 0);
        }
    }

    pid_t pid() const { return pid_; }

    // Waits until the child sleeps with its core limit at 0 (it has set it and is waiting), or
    // `seconds` have passed; returns whether it got there.
    bool wait_until_waiting(double seconds) const {
        const auto deadline =
            std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
        while (std::chrono::steady_clock::now() < deadline) {
            if (run_state(pid_) == 'S' && core_limits(pid_) == "0 0") return true;
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        return false;
    }

    // Feeds stdin and closes it, then waits for the exit; stdout and stderr must fit in their
    // pipes (64 KiB each), which the callers' sizes do.
    Outcome finish(const std::string& input) {
        write_all(in_.write_end, input.data(), input.size());
        in_.close_write();
        int status = 0;
        ::waitpid(pid_, &status, 0);
        reaped_ = true;
        Outcome outcome;
        outcome.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        outcome.out = read_all(out_.read_end);
        outcome.err = read_all(err_.read_end);
        return outcome;
    }

private:
    Pipe in_, out_, err_;
    pid_t pid_ = -1;
    bool reaped_ = false;
};

class WaitingForInput : public CliTest {
protected:
    void SetUp() override {
        CliTest::SetUp();
        if (::geteuid() != 0) {
            binary_ = warpcrypt_binary();
            return;
        }
        // Run as nobody, the binary must be where nobody can reach it: a build tree may sit
        // under a private home directory.
        fs::permissions(dir_, fs::perms(0755));
        binary_ = path("warpcrypt");
        fs::copy_file(warpcrypt_binary(), binary_);
        fs::permissions(binary_, fs::perms(0755));
    }

    fs::path binary_;
};

TEST_F(WaitingForInput, NoCoreDumpAndNotDumpableAndNoPassphraseInTheEnvironment) {
    const std::string passphrase = "pass-7c1e0d2b-in-the-environment";
    const std::string plaintext = pattern(10000);
    Command seal;
    seal.args = args({{"encrypt"}, fast_kdf});
    seal.env = {{"WARPCRYPT_PASSPHRASE", passphrase}};
    seal.stdin_bytes = plaintext;
    const auto sealed = run(seal);
    ASSERT_EQ(sealed.exit_code, 0) << describe(sealed);

    // The control: a process that did nothing about it is dumpable, with the core limit it
    // inherited, so the checks below can tell.
    WaitingChild control("/bin/sleep", {"30"}, {});
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    const uid_t user = ::geteuid() == 0 ? kNobody : ::geteuid();
    ASSERT_EQ(proc_owner(control.pid()), user) << "this kernel does not show dumpability in /proc";

    // decrypt has the passphrase before it reads the header, so it waits on stdin holding it.
    WaitingChild child(binary_, {"decrypt", "-o", "-"},
                       {"WARPCRYPT_PASSPHRASE=" + passphrase,
                        "WARPCRYPT_COST_MODEL=/dev/null/warpcrypt-tests/cost-model.json"});
    ASSERT_TRUE(child.wait_until_waiting(20)) << "state " << run_state(child.pid())
                                              << ", core limits " << core_limits(child.pid());
    EXPECT_EQ(core_limits(child.pid()), "0 0");
    EXPECT_EQ(proc_owner(child.pid()), 0u) << "/proc/PID is still owned by its user: dumpable";
    // Root (with CAP_SYS_PTRACE) may read another process's environment block; anyone else is
    // refused, since the process is not dumpable. Readable, it must no longer hold the secret.
    const std::string environment = proc_text(child.pid(), "environ");
    if (!environment.empty()) {
        EXPECT_NE(environment.find("WARPCRYPT_COST_MODEL="), std::string::npos) << environment;
        EXPECT_EQ(environment.find(passphrase), std::string::npos)
            << "the passphrase is still in the environment block";
    }

    // It was really waiting for this input, with the passphrase at hand.
    const auto opened = child.finish(sealed.out);
    EXPECT_EQ(opened.exit_code, 0) << describe(opened);
    EXPECT_TRUE(opened.out == plaintext);
}

TEST_F(WaitingForInput, AnUnusedPassphraseIsWipedFromTheEnvironmentToo) {
    // encrypt -k uses a key file, not WARPCRYPT_PASSPHRASE: the variable must go all the same.
    const std::string passphrase = "pass-41f0a9c3-never-used";
    const fs::path key = make_key("unused.key");
    if (::geteuid() == 0) {
        ASSERT_EQ(::chown(key.c_str(), kNobody, kNobody), 0);
    }
    WaitingChild child(binary_, {"encrypt", "-k", key.string(), "-o", "-"},
                       {"WARPCRYPT_PASSPHRASE=" + passphrase,
                        "WARPCRYPT_COST_MODEL=/dev/null/warpcrypt-tests/cost-model.json"});
    ASSERT_TRUE(child.wait_until_waiting(20)) << "state " << run_state(child.pid());
    const std::string environment = proc_text(child.pid(), "environ");
    if (::geteuid() == 0) {
        EXPECT_NE(environment.find("WARPCRYPT_COST_MODEL="), std::string::npos) << environment;
    }
    EXPECT_EQ(environment.find(passphrase), std::string::npos)
        << "the unused passphrase is still in the environment block";
    EXPECT_EQ(child.finish("data").exit_code, 0);
}

}  // namespace
}  // namespace warp::clitest
