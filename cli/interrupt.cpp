#include "cli/interrupt.hpp"

#include <limits.h>
#include <signal.h>
#include <unistd.h>

#include <cstring>

#include "cli/exit_codes.hpp"
#include "cli/report.hpp"

namespace warp::cli {
namespace {

// Written by the main thread with the signals blocked, read by the handler.
char g_temporary_path[PATH_MAX];
int g_terminal_fd = -1;
struct termios g_terminal_settings;

// The signals that end warpcrypt the same way: the partial output removed, the terminal
// restored, exit 130. SIGHUP is an ssh disconnect or a closed terminal, SIGPIPE a reader
// that went away, SIGALRM `timeout -s ALRM`, SIGQUIT Ctrl-\ (no core dump: core_dumps.cpp
// forbids them anyway); SIGUSR1 and SIGUSR2 mean nothing to warpcrypt, and their default
// would end it without cleaning up.
constexpr int kCleanupSignals[] = {SIGINT,  SIGTERM, SIGHUP,  SIGQUIT,
                                   SIGPIPE, SIGALRM, SIGUSR1, SIGUSR2};

void add_cleanup_signals(sigset_t& set) {
    for (int signal_number : kCleanupSignals) sigaddset(&set, signal_number);
}

// The message for each, ready-made: the handler may not format strings.
const char* interrupted_message(int signal_number) {
    switch (signal_number) {
    case SIGTERM: return "\nwarpcrypt: error: interrupted (SIGTERM); partial output removed\n";
    case SIGHUP: return "\nwarpcrypt: error: interrupted (SIGHUP); partial output removed\n";
    case SIGQUIT: return "\nwarpcrypt: error: interrupted (SIGQUIT); partial output removed\n";
    case SIGPIPE:
        return "\nwarpcrypt: error: interrupted (SIGPIPE: the reader of the output went away); "
               "partial output removed\n";
    case SIGALRM: return "\nwarpcrypt: error: interrupted (SIGALRM); partial output removed\n";
    case SIGUSR1: return "\nwarpcrypt: error: interrupted (SIGUSR1); partial output removed\n";
    case SIGUSR2: return "\nwarpcrypt: error: interrupted (SIGUSR2); partial output removed\n";
    default: return "\nwarpcrypt: error: interrupted; partial output removed\n";
    }
}

extern "C" void on_interrupt(int signal_number) {
    if (g_terminal_fd >= 0) ::tcsetattr(g_terminal_fd, TCSAFLUSH, &g_terminal_settings);
    if (g_temporary_path[0] != '\0') ::unlink(g_temporary_path);
    // Nothing useful can be done if stderr is gone.
    const char* message = interrupted_message(signal_number);
    ssize_t ignored = ::write(STDERR_FILENO, message, std::strlen(message));
    (void)ignored;
    ::_exit(kExitInterrupted);
}

}  // namespace

InterruptsHeld::InterruptsHeld() noexcept {
    sigset_t set;
    sigemptyset(&set);
    add_cleanup_signals(set);
    pthread_sigmask(SIG_BLOCK, &set, &previous_);
}

InterruptsHeld::~InterruptsHeld() { pthread_sigmask(SIG_SETMASK, &previous_, nullptr); }

void install_interrupt_handlers() {
    struct sigaction action {};
    action.sa_handler = on_interrupt;
    sigemptyset(&action.sa_mask);
    // All of them are masked while the handler runs, so it never runs twice at once.
    add_cleanup_signals(action.sa_mask);
    // Installed even where a signal was ignored (a background job of a script, nohup): the
    // contract is that an interrupt never leaves a partial file behind, and `kill -INT` must
    // honour it. SIGHUP is the exception: under nohup the user asked to outlive the terminal.
    for (int signal_number : kCleanupSignals) {
        if (signal_number == SIGHUP) {
            struct sigaction current {};
            if (sigaction(SIGHUP, nullptr, &current) == 0 && current.sa_handler == SIG_IGN)
                continue;
        }
        sigaction(signal_number, &action, nullptr);
    }
    // A write past RLIMIT_FSIZE must fail (EFBIG), not kill: see interrupt.hpp.
    ::signal(SIGXFSZ, SIG_IGN);
}

void register_temporary_file(const char* path) {
    std::size_t len = std::strlen(path);
    if (len >= sizeof g_temporary_path) usage_error(std::string(path) + ": path too long");
    InterruptsHeld guard;
    std::memcpy(g_temporary_path, path, len + 1);
}

void clear_temporary_file() noexcept {
    InterruptsHeld guard;
    g_temporary_path[0] = '\0';
}

void register_terminal_restore(int fd, const struct termios& settings) noexcept {
    InterruptsHeld guard;
    g_terminal_settings = settings;
    g_terminal_fd = fd;
}

void clear_terminal_restore() noexcept {
    InterruptsHeld guard;
    g_terminal_fd = -1;
}

}  // namespace warp::cli
