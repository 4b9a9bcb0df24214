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

constexpr char kInterruptedMessage[] = "\nwarpcrypt: error: interrupted; partial output removed\n";

extern "C" void on_interrupt(int) {
    if (g_terminal_fd >= 0) ::tcsetattr(g_terminal_fd, TCSAFLUSH, &g_terminal_settings);
    if (g_temporary_path[0] != '\0') ::unlink(g_temporary_path);
    // Nothing useful can be done if stderr is gone.
    ssize_t ignored = ::write(STDERR_FILENO, kInterruptedMessage, sizeof kInterruptedMessage - 1);
    (void)ignored;
    ::_exit(kExitInterrupted);
}

}  // namespace

InterruptsHeld::InterruptsHeld() noexcept {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &set, &previous_);
}

InterruptsHeld::~InterruptsHeld() { pthread_sigmask(SIG_SETMASK, &previous_, nullptr); }

void install_interrupt_handlers() {
    struct sigaction action {};
    action.sa_handler = on_interrupt;
    sigemptyset(&action.sa_mask);
    // Both signals are masked while the handler runs, so it never runs twice at once.
    sigaddset(&action.sa_mask, SIGINT);
    sigaddset(&action.sa_mask, SIGTERM);
    // Installed even where SIGINT was ignored (a background job of a script): the contract is
    // that an interrupt never leaves a partial file behind, and `kill -INT` must honour it.
    sigaction(SIGINT, &action, nullptr);
    sigaction(SIGTERM, &action, nullptr);
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
