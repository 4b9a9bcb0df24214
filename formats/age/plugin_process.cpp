// Starting an age plugin and talking to it within time limits (plugin_process.hpp).
#include "formats/age/plugin_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>

#include "engine/error.hpp"

extern char** environ;

namespace warp::formats::age {
namespace {

constexpr std::chrono::milliseconds kWaitingNotice{5000};  // age's WaitTimer
// How long a plugin has to exit once its input and output are closed, then once asked to.
constexpr std::chrono::milliseconds kExitGrace{1000};

[[noreturn]] void fail(const std::string& what) { throw Error(ErrorCause::io, what); }

bool executable_file(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

// Whether `pid` exits within `limit` (reaped if so).
bool exits_within(int pid, std::chrono::milliseconds limit) {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    for (;;) {
        int status = 0;
        const pid_t r = ::waitpid(pid, &status, WNOHANG);
        if (r == pid || (r < 0 && errno != EINTR)) return true;
        if (std::chrono::steady_clock::now() >= deadline) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
}

// A pipe whose ends are closed on exec (the child gets its copies through dup2, which clears
// the flag), ours non-blocking so that every wait goes through poll and its limit.
void make_pipe(int fds[2], int ours) {
    if (::pipe2(fds, O_CLOEXEC) != 0) fail(std::string("cannot make a pipe: ") + std::strerror(errno));
    ::fcntl(fds[ours], F_SETFL, ::fcntl(fds[ours], F_GETFL) | O_NONBLOCK);
}

// Writes to a pipe whose reader may be gone, without the SIGPIPE that would end warpcrypt as
// an interrupt (cli/interrupt.cpp): the signal is blocked for the write and, if the write
// raised it, taken before it is unblocked.
ssize_t write_without_sigpipe(int fd, const char* data, std::size_t len) {
    sigset_t pipe_only, previous, pending;
    sigemptyset(&pipe_only);
    sigaddset(&pipe_only, SIGPIPE);
    sigpending(&pending);
    const bool was_pending = sigismember(&pending, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_only, &previous);
    const ssize_t n = ::write(fd, data, len);
    const int saved = errno;
    if (n < 0 && saved == EPIPE && !was_pending) {
        const timespec now{0, 0};
        while (sigtimedwait(&pipe_only, nullptr, &now) < 0 && errno == EINTR) {}
    }
    pthread_sigmask(SIG_SETMASK, &previous, nullptr);
    errno = saved;
    return n;
}

}  // namespace

std::string find_plugin(std::string_view name, const char* path_variable) {
    if (path_variable == nullptr) return "";
    const std::string_view path(path_variable);
    std::size_t at = 0;
    while (at <= path.size()) {
        const std::size_t end = std::min(path.find(':', at), path.size());
        const std::string_view dir = path.substr(at, end - at);
        at = end + 1;
        if (dir.empty() || dir[0] != '/') continue;  // the current directory, or relative to it
        std::string candidate(dir);
        if (candidate.back() != '/') candidate += '/';
        candidate += "age-plugin-";
        candidate += name;
        if (executable_file(candidate)) return candidate;
    }
    return "";
}

PluginProcess::PluginProcess(std::string_view name, std::string_view state_machine,
                             std::chrono::milliseconds silence_limit,
                             std::function<void()> waiting)
    : silence_limit_(silence_limit), waiting_(std::move(waiting)) {
    const std::string program = find_plugin(name, std::getenv("PATH"));
    if (program.empty())
        throw Error(ErrorCause::usage,
                    "no age-plugin-" + std::string(name) +
                        " on PATH: install the plugin, or add its directory to PATH (a plugin "
                        "is looked for there only, never in the current directory)");
    int in[2], out[2];
    make_pipe(in, 1);
    try {
        make_pipe(out, 0);
    } catch (...) {
        ::close(in[0]);
        ::close(in[1]);
        throw;
    }
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in[0], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
    // Nothing but its pipes and our standard error: not even descriptors warpcrypt inherited
    // without close-on-exec (as age's Go runtime gives a plugin nothing else either).
    posix_spawn_file_actions_addclosefrom_np(&actions, STDERR_FILENO + 1);
    posix_spawn_file_actions_addchdir_np(&actions, "/");
    posix_spawnattr_init(&attributes);
    // Signals as a new program expects them: none blocked, SIGPIPE and the rest at their
    // defaults (warpcrypt's handlers are reset by exec anyway; an ignored signal would not be).
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    posix_spawnattr_setsigmask(&attributes, &none);
    posix_spawnattr_setsigdefault(&attributes, &all);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    const std::string flag = "--age-plugin=" + std::string(state_machine);
    char* argv[] = {const_cast<char*>(program.c_str()), const_cast<char*>(flag.c_str()), nullptr};
    pid_t pid = -1;
    const int spawned = ::posix_spawn(&pid, program.c_str(), &actions, &attributes, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    ::close(in[0]);
    ::close(out[1]);
    if (spawned != 0) {
        ::close(in[1]);
        ::close(out[0]);
        fail("cannot start " + program + ": " + std::strerror(spawned));
    }
    pid_ = pid;
    to_plugin_ = in[1];
    from_plugin_ = out[0];
}

PluginProcess::~PluginProcess() {
    if (to_plugin_ >= 0) ::close(to_plugin_);
    if (from_plugin_ >= 0) ::close(from_plugin_);
    if (pid_ < 0) return;
    // A plugin that is done exits on its own once its input closes; one that is not is asked
    // to (SIGTERM), then made to.
    if (exits_within(pid_, kExitGrace)) return;
    ::kill(pid_, SIGTERM);
    if (exits_within(pid_, kExitGrace)) return;
    ::kill(pid_, SIGKILL);
    exits_within(pid_, kExitGrace);
}

void PluginProcess::await(int fd, short events, const char* doing) {
    auto left = silence_limit_;
    for (;;) {
        const auto step = waited_ ? left : std::min(left, kWaitingNotice);
        pollfd p{fd, events, 0};
        const auto start = std::chrono::steady_clock::now();
        const int r = ::poll(&p, 1, static_cast<int>(step.count()));
        if (r > 0) return;  // ready, or an error or hang-up the read or write will report
        if (r < 0 && errno != EINTR) fail(std::string("poll: ") + std::strerror(errno));
        left -= std::chrono::duration_cast<std::chrono::milliseconds>(
            std::chrono::steady_clock::now() - start);
        if (left.count() <= 0)
            fail(std::string("no answer for ") + std::to_string(silence_limit_.count() / 1000) +
                 " s while " + doing + " (WARPCRYPT_PLUGIN_TIMEOUT sets the limit)");
        if (!waited_ && r == 0) {
            waited_ = true;
            if (waiting_) waiting_();
        }
    }
}

void PluginProcess::send(std::string_view text) {
    while (!text.empty()) {
        await(to_plugin_, POLLOUT, "sending to it");
        const ssize_t n = write_without_sigpipe(to_plugin_, text.data(), text.size());
        if (n < 0) {
            if (errno == EAGAIN || errno == EINTR) continue;
            fail(errno == EPIPE ? "exited or closed its input early"
                                : std::string("cannot write to it: ") + std::strerror(errno));
        }
        text.remove_prefix(static_cast<std::size_t>(n));
    }
}

std::size_t PluginProcess::Output::read(std::uint8_t* buf, std::size_t len) {
    std::size_t got = 0;
    while (got < len) {
        if (at_ < size_) {
            const std::size_t n = std::min(len - got, size_ - at_);
            std::memcpy(buf + got, buffer_.data() + at_, n);
            at_ += n;
            got += n;
            continue;
        }
        // Only as much as is needed: a caller reading a line at a time must not wait for more.
        if (got > 0) return got;
        process_.await(process_.from_plugin_, POLLIN, "waiting for it");
        const ssize_t n = ::read(process_.from_plugin_, buffer_.data(), buffer_.size());
        size_ = at_ = 0;
        if (n < 0) {
            if (errno == EAGAIN || errno == EINTR) continue;
            fail(std::string("cannot read from it: ") + std::strerror(errno));
        }
        size_ = static_cast<std::size_t>(n);
        if (n == 0) return 0;  // it closed its output (or exited)
    }
    return got;
}

}  // namespace warp::formats::age
