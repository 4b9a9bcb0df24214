// posix_spawn plumbing for the CLI tests (process.hpp). Every descriptor the tests create is
// close-on-exec, so a child inherits exactly the ones it is handed: a leaked pipe end would keep
// a reader waiting for an end of file that never comes.
#include "tests/cli/process.hpp"

#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace warp::clitest {
namespace {

[[noreturn]] void fail_errno(const std::string& what) {
    throw std::runtime_error(what + ": " + std::strerror(errno));
}

// A child that exits early must not kill the test program with SIGPIPE while a writer thread is
// still feeding it: writes then fail with EPIPE, which the writers expect.
void ignore_sigpipe_once() {
    static std::once_flag once;
    std::call_once(once, [] { ::signal(SIGPIPE, SIG_IGN); });
}

std::vector<std::string> child_environment(const std::map<std::string, std::string>& extra) {
    std::vector<std::string> env;
    for (char** entry = environ; *entry != nullptr; ++entry) {
        const std::string_view text(*entry);
        if (text.starts_with("WARPCRYPT_")) continue;
        const auto name = text.substr(0, text.find('='));
        if (extra.contains(std::string(name))) continue;
        env.emplace_back(text);
    }
    for (const auto& [name, value] : extra) env.push_back(name + "=" + value);
    // A developer's own calibration (~/.cache/warpcrypt/cost-model.json) must not change what
    // `auto` picks in a test: unless a test names its own file, children look for one where
    // none can exist (below a non-directory), so they use the built-in cost model.
    if (!extra.contains("WARPCRYPT_COST_MODEL"))
        env.emplace_back("WARPCRYPT_COST_MODEL=/dev/null/warpcrypt-tests/cost-model.json");
    return env;
}

std::vector<char*> as_argv(std::vector<std::string>& strings) {
    std::vector<char*> pointers;
    pointers.reserve(strings.size() + 1);
    for (auto& s : strings) pointers.push_back(s.data());
    pointers.push_back(nullptr);
    return pointers;
}

// A descriptor numbered well above the ones a child is given, so that dup2 into 0..9 in the
// file actions can never overwrite a source that is still to be duplicated.
int high_duplicate(int fd) {
    const int copy = ::fcntl(fd, F_DUPFD_CLOEXEC, 100);
    if (copy < 0) fail_errno("fcntl(F_DUPFD_CLOEXEC)");
    return copy;
}

// Numbered like high_duplicate's copies, for the same reason.
int open_dev_null(int flags) {
    const int fd = ::open("/dev/null", flags | O_CLOEXEC);
    if (fd < 0) fail_errno("open /dev/null");
    const int high = ::fcntl(fd, F_DUPFD_CLOEXEC, 100);
    const int err = errno;
    ::close(fd);
    if (high < 0) {
        errno = err;
        fail_errno("fcntl(F_DUPFD_CLOEXEC)");
    }
    return high;
}

// The descriptors a child is given: {source in the parent (numbered >= 100), number in the child}.
using FdPlan = std::vector<std::pair<int, int>>;

pid_t spawn_plain(char* const argv[], char* const envp[], const FdPlan& plan) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    for (const auto& [source, target] : plan)
        posix_spawn_file_actions_adddup2(&actions, source, target);

    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    // A new session: no controlling terminal. Default signal dispositions: SIGPIPE is ignored
    // here but must not be in the child, and neither SIGINT.
    sigset_t all_signals;
    sigfillset(&all_signals);
    sigset_t none;
    sigemptyset(&none);
    posix_spawnattr_setsigdefault(&attributes, &all_signals);
    posix_spawnattr_setsigmask(&attributes, &none);
    posix_spawnattr_setflags(&attributes, static_cast<short>(POSIX_SPAWN_SETSID |
                                                             POSIX_SPAWN_SETSIGDEF |
                                                             POSIX_SPAWN_SETSIGMASK));

    pid_t pid = -1;
    const int rc = ::posix_spawn(&pid, argv[0], &actions, &attributes, argv, envp);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    if (rc != 0) {
        errno = rc;
        fail_errno(std::string("posix_spawn ") + argv[0]);
    }
    return pid;
}

// ChildLimits::obey_file_permissions, in the child between fork and exec (async-signal-safe
// calls only). Root gets every capability of its bounding set back at exec, so the two leave
// the bounding set too; others get none at exec, and only need them gone from the sets now.
bool drop_permission_override() {
    constexpr unsigned kCaps[] = {CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH};
    static_assert(CAP_DAC_OVERRIDE < 32 && CAP_DAC_READ_SEARCH < 32, "both live in data[0]");
    __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
    __user_cap_data_struct data[2]{};
    if (::syscall(SYS_capget, &header, data) != 0) return false;
    const bool root = ::geteuid() == 0 || ::getuid() == 0;
    for (unsigned cap : kCaps) {
        const std::uint32_t bit = std::uint32_t{1} << cap;
        data[0].effective &= ~bit;
        data[0].permitted &= ~bit;
        data[0].inheritable &= ~bit;
        if (root && ::prctl(PR_CAPBSET_READ, cap, 0, 0, 0) == 1 &&
            ::prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0)
            return false;
    }
    if (::syscall(SYS_capset, &header, data) != 0) return false;
    return ::prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) == 0;
}

// posix_spawn runs no code of ours between fork and exec, and limits need some: fork, then only
// async-signal-safe calls until exec (the test program has other threads, which may hold the
// allocator's locks). A step that fails sends {step, errno} up a close-on-exec pipe; a
// successful exec closes it unwritten.
pid_t spawn_limited(char* const argv[], char* const envp[], const FdPlan& plan,
                    const ChildLimits& limits) {
    enum Step : int {
        dup_fd = 1,
        new_session,
        signal_defaults,
        file_size_limit,
        address_space_limit,
        permissions,
        change_user,
        exec
    };
    constexpr const char* kStepNames[] = {"", "dup2", "setsid", "signal dispositions",
                                          "setrlimit(RLIMIT_FSIZE)", "setrlimit(RLIMIT_AS)",
                                          "dropping CAP_DAC_OVERRIDE (needs CAP_SETPCAP as root)",
                                          "changing user (needs root)", "execve"};
    Pipe report;
    const int report_fd = high_duplicate(report.write_end);  // above every fd the plan fills
    report.close_write();
    rlimit file_size{};
    if (limits.file_size) file_size.rlim_cur = file_size.rlim_max = *limits.file_size;
    rlimit address_space{};
    if (limits.address_space) address_space.rlim_cur = address_space.rlim_max = *limits.address_space;
    struct sigaction default_action {};
    default_action.sa_handler = SIG_DFL;
    sigset_t none;
    sigemptyset(&none);

    const pid_t pid = ::fork();
    if (pid < 0) fail_errno("fork");
    if (pid == 0) {
        const auto fail = [&](Step step) {
            const int failure[2] = {step, errno};
            (void)!::write(report_fd, failure, sizeof failure);
            ::_exit(127);
        };
        for (const auto& [source, target] : plan)
            if (::dup2(source, target) < 0) fail(dup_fd);
        if (::setsid() < 0) fail(new_session);
        for (int sig = 1; sig < NSIG; ++sig) {
            if (sig == SIGKILL || sig == SIGSTOP) continue;
            (void)::sigaction(sig, &default_action, nullptr);  // EINVAL for libc's own: fine
        }
        if (::sigprocmask(SIG_SETMASK, &none, nullptr) != 0) fail(signal_defaults);
        if (limits.file_size && ::setrlimit(RLIMIT_FSIZE, &file_size) != 0) fail(file_size_limit);
        if (limits.address_space && ::setrlimit(RLIMIT_AS, &address_space) != 0)
            fail(address_space_limit);
        if (limits.obey_file_permissions && !drop_permission_override()) fail(permissions);
        if (limits.user && (::setgroups(0, nullptr) != 0 ||
                            ::setresgid(limits.user->second, limits.user->second,
                                        limits.user->second) != 0 ||
                            ::setresuid(limits.user->first, limits.user->first,
                                        limits.user->first) != 0))
            fail(change_user);
        ::execve(argv[0], argv, envp);
        fail(exec);
    }
    ::close(report_fd);
    int failure[2] = {0, 0};
    ssize_t got;
    do got = ::read(report.read_end, failure, sizeof failure);
    while (got < 0 && errno == EINTR);
    if (got == static_cast<ssize_t>(sizeof failure)) {
        int status = 0;
        ::waitpid(pid, &status, 0);
        errno = failure[1];
        fail_errno(std::string("starting ") + argv[0] + ": " + kStepNames[failure[0]]);
    }
    return pid;
}

}  // namespace

std::filesystem::path warpcrypt_binary() { return WARPCRYPT_BIN; }

Pipe::Pipe() {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) fail_errno("pipe2");
    read_end = fds[0];
    write_end = fds[1];
}
Pipe::~Pipe() {
    close_read();
    close_write();
}
void Pipe::close_read() {
    if (read_end >= 0) ::close(read_end);
    read_end = -1;
}
void Pipe::close_write() {
    if (write_end >= 0) ::close(write_end);
    write_end = -1;
}

std::string read_all(int fd) {
    std::string data;
    char buf[65536];
    for (;;) {
        const ssize_t got = ::read(fd, buf, sizeof buf);
        if (got > 0) {
            data.append(buf, static_cast<std::size_t>(got));
        } else if (got == 0) {
            return data;
        } else if (errno != EINTR) {
            fail_errno("read");
        }
    }
}

bool write_all(int fd, const char* data, std::size_t len) {
    while (len > 0) {
        const ssize_t put = ::write(fd, data, len);
        if (put < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        data += put;
        len -= static_cast<std::size_t>(put);
    }
    return true;
}

Child::Child(const std::vector<std::string>& args, int stdin_fd, int stdout_fd, int stderr_fd,
             const std::map<std::string, std::string>& env, const std::map<int, int>& extra_fds,
             const ChildLimits& limits) {
    ignore_sigpipe_once();
    std::vector<std::string> argv_strings{limits.program.value_or(warpcrypt_binary()).string()};
    argv_strings.insert(argv_strings.end(), args.begin(), args.end());
    auto env_strings = child_environment(env);
    auto argv = as_argv(argv_strings);
    auto envp = as_argv(env_strings);

    // Sources, each copied above the 0..99 range first (see high_duplicate).
    std::vector<int> owned;
    auto source = [&](int fd, int null_flags) {
        const int s = fd >= 0 ? high_duplicate(fd) : open_dev_null(null_flags);
        owned.push_back(s);
        return s;
    };
    const int in = source(stdin_fd, O_RDONLY);
    const int out = source(stdout_fd, O_WRONLY);
    const int err = source(stderr_fd, O_WRONLY);
    std::map<int, int> extras;
    for (const auto& [child_fd, parent_fd] : extra_fds) extras[child_fd] = source(parent_fd, 0);

    FdPlan plan = {{in, 0}, {out, 1}, {err, 2}};
    for (const auto& [child_fd, s] : extras) plan.emplace_back(s, child_fd);

    try {
        pid_ = limits.any() ? spawn_limited(argv.data(), envp.data(), plan, limits)
                            : spawn_plain(argv.data(), envp.data(), plan);
    } catch (...) {
        for (int fd : owned) ::close(fd);
        throw;
    }
    for (int fd : owned) ::close(fd);
}

Child::~Child() {
    if (!reaped_ && pid_ > 0) {
        ::kill(pid_, SIGKILL);
        int status = 0;
        ::waitpid(pid_, &status, 0);
    }
}

void Child::send_signal(int signal_number) const {
    if (!reaped_) ::kill(pid_, signal_number);
}

int Child::wait() {
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0) {
        if (errno != EINTR) fail_errno("waitpid");
    }
    reaped_ = true;
    if (WIFSIGNALED(status)) {
        term_signal_ = WTERMSIG(status);
        return 128 + term_signal_;
    }
    return WEXITSTATUS(status);
}

std::optional<int> Child::wait_for(double seconds) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    for (;;) {
        int status = 0;
        const pid_t done = ::waitpid(pid_, &status, WNOHANG);
        if (done == pid_) {
            reaped_ = true;
            if (WIFSIGNALED(status)) {
                term_signal_ = WTERMSIG(status);
                return 128 + term_signal_;
            }
            return WEXITSTATUS(status);
        }
        if (done < 0 && errno != EINTR) fail_errno("waitpid");
        if (std::chrono::steady_clock::now() > deadline) return std::nullopt;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
}

Outcome run(const Command& command) {
    Pipe out_pipe;
    Pipe err_pipe;
    std::optional<Pipe> in_pipe;
    int stdin_fd = -1;
    int stdin_file_fd = -1;
    if (command.stdin_bytes) {
        in_pipe.emplace();
        stdin_fd = in_pipe->read_end;
    } else if (command.stdin_file) {
        stdin_file_fd = ::open(command.stdin_file->c_str(), O_RDONLY | O_CLOEXEC);
        if (stdin_file_fd < 0) fail_errno("open " + command.stdin_file->string());
        stdin_fd = stdin_file_fd;
    }

    // Small contents for extra descriptors fit in a pipe's buffer: written before the spawn.
    std::vector<std::unique_ptr<Pipe>> fd_pipes;
    std::map<int, int> extra_fds;
    for (const auto& [child_fd, bytes] : command.fd_bytes) {
        auto& p = fd_pipes.emplace_back(std::make_unique<Pipe>());
        if (bytes.size() > 60000) throw std::runtime_error("fd_bytes larger than a pipe buffer");
        write_all(p->write_end, bytes.data(), bytes.size());
        p->close_write();
        extra_fds[child_fd] = p->read_end;
    }

    Child child(command.args, stdin_fd, out_pipe.write_end, err_pipe.write_end, command.env,
                extra_fds, command.limits);
    out_pipe.close_write();
    err_pipe.close_write();
    fd_pipes.clear();
    if (stdin_file_fd >= 0) ::close(stdin_file_fd);

    std::thread feeder;
    if (in_pipe) {
        in_pipe->close_read();
        feeder = std::thread([&] {
            write_all(in_pipe->write_end, command.stdin_bytes->data(), command.stdin_bytes->size());
            in_pipe->close_write();
        });
    }

    // Drain stdout and stderr together: a child blocked on a full stderr pipe would never
    // finish writing stdout.
    Outcome outcome;
    pollfd fds[2] = {{out_pipe.read_end, POLLIN, 0}, {err_pipe.read_end, POLLIN, 0}};
    std::string* sinks[2] = {&outcome.out, &outcome.err};
    int open_streams = 2;
    char buf[65536];
    while (open_streams > 0) {
        if (::poll(fds, 2, -1) < 0) {
            if (errno == EINTR) continue;
            fail_errno("poll");
        }
        for (int i = 0; i < 2; ++i) {
            if (fds[i].fd < 0 || fds[i].revents == 0) continue;
            const ssize_t got = ::read(fds[i].fd, buf, sizeof buf);
            if (got > 0) {
                sinks[i]->append(buf, static_cast<std::size_t>(got));
            } else if (got == 0 || errno != EINTR) {
                fds[i].fd = -1;
                --open_streams;
            }
        }
    }
    outcome.exit_code = child.wait();
    outcome.term_signal = child.term_signal();
    if (feeder.joinable()) feeder.join();
    return outcome;
}

Outcome run(std::vector<std::string> args) {
    Command command;
    command.args = std::move(args);
    return run(command);
}

Outcome run(std::vector<std::string> args, std::string stdin_bytes) {
    Command command;
    command.args = std::move(args);
    command.stdin_bytes = std::move(stdin_bytes);
    return run(command);
}

}  // namespace warp::clitest
