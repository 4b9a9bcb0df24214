#include "cli/interrupt.hpp"

#include <limits.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cstring>

#include "engine/exit_codes.hpp"
#include "cli/report.hpp"

namespace warp::cli {
namespace {

// Written by the main thread with the signals blocked, read by the handler.
int g_temporary_directory = -1;
char g_temporary_name[NAME_MAX + 1];
int g_terminal_fd = -1;
struct termios g_terminal_settings;

// The signals that end warpcrypt the same way: the partial output removed, the terminal
// restored, exit 130. SIGHUP is an ssh disconnect or a closed terminal, SIGPIPE a reader
// that went away, SIGALRM `timeout -s ALRM`, SIGQUIT Ctrl-\ (no core dump: core_dumps.cpp
// forbids them anyway); SIGUSR1 and SIGUSR2 mean nothing to warpcrypt, and their default
// would end it without cleaning up. Each is named in the message, SIGINT (Ctrl-C) aside.
struct CleanupSignal {
    int number;
    const char* name;  // "" for no name in the message
};
constexpr CleanupSignal kCleanupSignals[] = {
    {SIGINT, ""},          {SIGTERM, "SIGTERM"}, {SIGHUP, "SIGHUP"},
    {SIGQUIT, "SIGQUIT"},  {SIGPIPE, "SIGPIPE: the reader of the output went away"},
    {SIGALRM, "SIGALRM"},  {SIGUSR1, "SIGUSR1"}, {SIGUSR2, "SIGUSR2"},
};

void add_cleanup_signals(sigset_t& set) {
    for (const CleanupSignal& signal : kCleanupSignals) sigaddset(&set, signal.number);
}

extern "C" void on_interrupt(int signal_number) {
    if (g_terminal_fd >= 0) ::tcsetattr(g_terminal_fd, TCSAFLUSH, &g_terminal_settings);
    if (g_temporary_name[0] != '\0') ::unlinkat(g_temporary_directory, g_temporary_name, 0);
    // The message, assembled by hand: the handler may not format strings or allocate.
    char message[128];
    std::size_t length = 0;
    auto append = [&](const char* text) {
        for (; *text != '\0' && length < sizeof message; ++text) message[length++] = *text;
    };
    append("\nwarpcrypt: error: interrupted");
    for (const CleanupSignal& signal : kCleanupSignals) {
        if (signal.number != signal_number || signal.name[0] == '\0') continue;
        append(" (");
        append(signal.name);
        append(")");
    }
    append("; partial output removed\n");
    // Nothing useful can be done if stderr is gone.
    ssize_t ignored = ::write(STDERR_FILENO, message, length);
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
    for (const CleanupSignal& signal : kCleanupSignals) {
        if (signal.number == SIGHUP) {
            struct sigaction current {};
            if (sigaction(SIGHUP, nullptr, &current) == 0 && current.sa_handler == SIG_IGN)
                continue;
        }
        sigaction(signal.number, &action, nullptr);
    }
    // A write past RLIMIT_FSIZE must fail (EFBIG), not kill: see interrupt.hpp.
    ::signal(SIGXFSZ, SIG_IGN);
}

void register_temporary_file(int directory, const char* name) {
    std::size_t len = std::strlen(name);
    if (len >= sizeof g_temporary_name) usage_error(std::string(name) + ": name too long");
    InterruptsHeld guard;
    g_temporary_directory = directory;
    std::memcpy(g_temporary_name, name, len + 1);
}

void clear_temporary_file() noexcept {
    InterruptsHeld guard;
    g_temporary_name[0] = '\0';
    g_temporary_directory = -1;
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
