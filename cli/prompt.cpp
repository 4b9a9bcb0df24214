#include "cli/prompt.hpp"

#include <fcntl.h>
#include <termios.h>
#include <unistd.h>

#include <cerrno>
#include <optional>
#include <span>
#include <vector>

#include "cli/fd_io.hpp"
#include "cli/interrupt.hpp"
#include "cli/report.hpp"

namespace warp::cli {
namespace {

// A line buffer in locked memory that never reallocates (no stray copies of the secret) and is
// wiped when freed (engine/secure_memory.hpp).
class LineBuffer {
public:
    LineBuffer() : bytes_(kMaxPassphraseBytes + 1) {}
    LineBuffer(const LineBuffer&) = delete;
    LineBuffer& operator=(const LineBuffer&) = delete;

    // Reads until '\n' or end of input; returns false when input ended before any byte.
    bool read_line(int fd, const std::string& name) {
        bool any = false;
        for (;;) {
            std::uint8_t byte = 0;
            ssize_t n = ::read(fd, &byte, 1);
            if (n < 0 && errno == EINTR) continue;
            if (n < 0) throw_io(name, "cannot read the passphrase", errno);
            if (n == 0) return any;
            any = true;
            if (byte == '\n') break;
            if (size_ == kMaxPassphraseBytes)
                usage_error(name + ": passphrase longer than " +
                            std::to_string(kMaxPassphraseBytes) + " bytes");
            bytes_[size_++] = byte;
        }
        return true;
    }

    SecretBytes take() {
        std::size_t len = size_;
        if (len != 0 && bytes_[len - 1] == '\r') --len;
        return SecretBytes(std::span<const std::uint8_t>(bytes_.data(), len));
    }

private:
    std::vector<std::uint8_t, LockedAllocator<std::uint8_t>> bytes_;
    std::size_t size_ = 0;
};

class Terminal {
public:
    Terminal() {
        do fd_ = ::open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
        while (fd_ < 0 && errno == EINTR);
    }
    ~Terminal() {
        if (fd_ >= 0) ::close(fd_);
    }
    Terminal(const Terminal&) = delete;
    Terminal& operator=(const Terminal&) = delete;
    int fd() const noexcept { return fd_; }

private:
    int fd_ = -1;
};

// Echo off for its lifetime (and restored by the signal handler if interrupted).
class EchoOff {
public:
    explicit EchoOff(int fd) : fd_(fd) {
        if (::tcgetattr(fd_, &saved_) != 0) return;  // not a real terminal: read as is
        struct termios quiet = saved_;
        quiet.c_lflag &= ~static_cast<tcflag_t>(ECHO);
        quiet.c_lflag |= ECHONL;  // still echo the newline, so the cursor moves on
        register_terminal_restore(fd_, saved_);
        active_ = ::tcsetattr(fd_, TCSAFLUSH, &quiet) == 0;
        if (!active_) clear_terminal_restore();
    }
    ~EchoOff() {
        if (!active_) return;
        ::tcsetattr(fd_, TCSAFLUSH, &saved_);
        clear_terminal_restore();
    }
    EchoOff(const EchoOff&) = delete;
    EchoOff& operator=(const EchoOff&) = delete;

private:
    int fd_;
    struct termios saved_ {};
    bool active_ = false;
};

// Writes `prompt` to the open terminal, escaped as every message is (it may name a file, or
// be a plugin's question), and reads one line, echoed or not; nullopt when input ends before a
// line.
std::optional<SecretBytes> ask(const Terminal& tty, const std::string& raw_prompt, bool echo) {
    const std::string prompt = escape_controls(raw_prompt);
    LineBuffer line;
    bool got;
    {
        // Echo off first, then the prompt: turning echo off flushes pending input
        // (TCSAFLUSH), which would drop an answer typed (or sent) right after the prompt.
        std::optional<EchoOff> echo_off;
        if (!echo) echo_off.emplace(tty.fd());
        if (::write(tty.fd(), prompt.data(), prompt.size()) < 0)
            throw_io("/dev/tty", "cannot write", errno);
        got = line.read_line(tty.fd(), "/dev/tty");
    }
    if (!got) return std::nullopt;
    return line.take();
}

}  // namespace

bool terminal_available() { return Terminal().fd() >= 0; }

std::optional<SecretBytes> prompt_line(const std::string& prompt, bool echo) {
    Terminal tty;
    if (tty.fd() < 0) return std::nullopt;
    return ask(tty, prompt, echo);
}

SecretBytes prompt_passphrase(const std::string& prompt) {
    Terminal tty;
    if (tty.fd() < 0)
        usage_error("no terminal to ask for a passphrase",
                    "use -k KEYFILE, --passphrase-file, --passphrase-fd or WARPCRYPT_PASSPHRASE");
    std::optional<SecretBytes> line = ask(tty, prompt, false);
    if (!line) usage_error("no passphrase entered");
    return std::move(*line);
}

SecretBytes read_first_line(int fd, const std::string& name) {
    LineBuffer line;
    line.read_line(fd, name);
    return line.take();
}

}  // namespace warp::cli
