// SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGALRM, SIGUSR1, SIGUSR2: remove the partial
// output, restore the terminal, exit 130 (interrupt.cpp says why each).
//
// The handler may only do async-signal-safe things, so what it needs is kept ready in static
// storage: the temporary output file, as its directory's descriptor and its name in it (a fixed
// char buffer, not a std::string: place.hpp says why never a path), and
// the terminal settings to restore while a passphrase prompt has echo turned off.
//
// SIGXFSZ is ignored: a write past the file size limit (`ulimit -f`) then fails with EFBIG, an
// I/O error like a full disk, and the temporary file is removed; by default that signal would
// kill the process and leave the partial output behind.
#pragma once

#include <signal.h>
#include <termios.h>

namespace warp::cli {

// Installs the handlers and ignores SIGXFSZ (once, at start-up).
void install_interrupt_handlers();

// Holds those signals back for its lifetime, on the calling thread: output files are
// created and renamed on the main thread outside the chunk pipeline's run, when no other
// warpcrypt thread is there to take the signal. The handler never sees its state half-written,
// and a step and its registration happen together: no temporary file exists unregistered, and
// none is renamed while still registered. A signal that arrives meanwhile is handled after.
class InterruptsHeld {
public:
    InterruptsHeld() noexcept;
    ~InterruptsHeld();
    InterruptsHeld(const InterruptsHeld&) = delete;
    InterruptsHeld& operator=(const InterruptsHeld&) = delete;

private:
    sigset_t previous_;
};

// The temporary file to unlink (unlinkat) if a signal arrives: `name` in the directory open at
// `directory`, which must stay open until clear_temporary_file(). Clear it once the file is
// renamed or removed. A name longer than NAME_MAX is refused with Error(usage).
void register_temporary_file(int directory, const char* name);
void clear_temporary_file() noexcept;

// The terminal to restore (tcsetattr) if a signal arrives during a prompt.
void register_terminal_restore(int fd, const struct termios& settings) noexcept;
void clear_terminal_restore() noexcept;

}  // namespace warp::cli
