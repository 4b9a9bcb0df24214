// Runs the real `warpcrypt` binary as a child process (posix_spawn, no shell) and captures what
// it does: exit status, stdout, stderr. Every child gets its own session (setsid), so it has no
// controlling terminal: a test that forgets a key gets the "no terminal" usage error instead of a
// passphrase prompt on the developer's screen.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace warp::clitest {

// The binary under test (WARPCRYPT_BIN, set by CMake to $<TARGET_FILE:warpcrypt>).
std::filesystem::path warpcrypt_binary();

// What a child is made to live with, set between fork and exec: things no one can set on a
// running process without a race (a first write may come before a limit applied from outside).
struct ChildLimits {
    // RLIMIT_FSIZE in bytes, as `ulimit -f` sets it: a write past it fails with EFBIG, or kills
    // with SIGXFSZ a process that does not ignore that signal.
    std::optional<std::uint64_t> file_size;
    // RLIMIT_AS in bytes, as `ulimit -v` sets it: allocations past it fail.
    std::optional<std::uint64_t> address_space;
    // Makes file permissions bind the child even when the tests run as root (CI containers):
    // CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH leave its effective, permitted, inheritable,
    // ambient and bounding sets, so exec cannot give them back. Needs CAP_SETPCAP when they are
    // held; an unprivileged user has neither and needs nothing. The spawn fails if it cannot.
    bool obey_file_permissions = false;
    // Runs the child as this user and group, with no supplementary groups (setresgid, then
    // setresuid): another user on the same machine, for tests run as root.
    std::optional<std::pair<uid_t, gid_t>> user;
    // Another copy of the binary to run, for `user`: the build tree may sit where other users
    // cannot reach it (a private home directory).
    std::optional<std::filesystem::path> program;

    bool any() const {
        return file_size.has_value() || address_space.has_value() || obey_file_permissions ||
               user.has_value();
    }
};

// What one run of the binary is given.
struct Command {
    std::vector<std::string> args;                 // after argv[0]
    std::optional<std::string> stdin_bytes;        // fed through a pipe by a writer thread
    std::optional<std::filesystem::path> stdin_file;  // opened read-only as stdin
    // Added to the environment; the parent's WARPCRYPT_* variables are never inherited, so a
    // developer's own WARPCRYPT_PASSPHRASE cannot change a test's outcome. Nor can their
    // calibrated cost model: WARPCRYPT_COST_MODEL names no file unless set here.
    std::map<std::string, std::string> env;
    // Extra descriptors in the child: child fd number -> bytes readable from it (a pipe).
    std::map<int, std::string> fd_bytes;
    ChildLimits limits;
};

struct Outcome {
    int exit_code = -1;    // the exit status, or 128 + signal number if a signal killed it
    int term_signal = 0;   // the signal that killed it, 0 if it exited
    std::string out;       // everything written to stdout
    std::string err;       // everything written to stderr
};

// Runs the binary to completion. Without stdin_bytes or stdin_file, stdin is /dev/null.
Outcome run(const Command& command);

// Convenience: run with only arguments, or with them and `stdin_bytes` on stdin.
Outcome run(std::vector<std::string> args);
Outcome run(std::vector<std::string> args, std::string stdin_bytes);

// A running child whose descriptors the caller wires up itself (pipelines, ptys, signals).
class Child {
public:
    // fd -1 means /dev/null for that stream. extra_fds: child fd -> parent fd to dup there.
    Child(const std::vector<std::string>& args, int stdin_fd, int stdout_fd, int stderr_fd,
          const std::map<std::string, std::string>& env = {},
          const std::map<int, int>& extra_fds = {}, const ChildLimits& limits = {});
    Child(const Child&) = delete;
    Child& operator=(const Child&) = delete;
    ~Child();  // kills and reaps a child that was never waited for

    pid_t pid() const { return pid_; }
    void send_signal(int signal_number) const;
    // Waits for the child to end; returns exit status or 128 + signal, and records the signal.
    int wait();
    // Waits at most `seconds`; nullopt if the child is still running then.
    std::optional<int> wait_for(double seconds);
    int term_signal() const { return term_signal_; }

private:
    pid_t pid_ = -1;
    bool reaped_ = false;
    int term_signal_ = 0;
};

// A pipe whose ends close themselves.
struct Pipe {
    int read_end = -1;
    int write_end = -1;
    Pipe();
    Pipe(const Pipe&) = delete;
    Pipe& operator=(const Pipe&) = delete;
    ~Pipe();
    void close_read();
    void close_write();
};

// Reads a descriptor to its end.
std::string read_all(int fd);
// Writes all bytes; returns false if the reader went away (EPIPE) or another error occurred.
bool write_all(int fd, const char* data, std::size_t len);

}  // namespace warp::clitest
