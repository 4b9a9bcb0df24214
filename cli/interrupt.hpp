// SIGINT / SIGTERM: remove the partial output, restore the terminal, exit 130.
//
// The handler may only do async-signal-safe things, so what it needs is kept ready in static
// storage: the path of the temporary output file (a fixed char buffer, not a std::string) and
// the terminal settings to restore while a passphrase prompt has echo turned off.
#pragma once

#include <termios.h>

namespace warp::cli {

// Installs the handlers (once, at start-up).
void install_interrupt_handlers();

// The temporary file to unlink if a signal arrives; clear it once the file is renamed or
// removed. Paths longer than the buffer are refused with Error(usage) (PATH_MAX-sized).
void register_temporary_file(const char* path);
void clear_temporary_file() noexcept;

// The terminal to restore (tcsetattr) if a signal arrives during a prompt.
void register_terminal_restore(int fd, const struct termios& settings) noexcept;
void clear_terminal_restore() noexcept;

}  // namespace warp::cli
