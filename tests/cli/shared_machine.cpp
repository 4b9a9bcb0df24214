#include "tests/cli/shared_machine.hpp"

#include <fcntl.h>
#include <grp.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <utility>

namespace warp::clitest {

mode_t current_umask() {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    return mask;
}

// A forked child that only makes async-signal-safe calls (the test has threads).
int open_as(uid_t user, const fs::path& file) {
    const pid_t pid = ::fork();
    if (pid == 0) {
        if (::setgroups(0, nullptr) != 0 || ::setresgid(user, user, user) != 0 ||
            ::setresuid(user, user, user) != 0)
            ::_exit(2);
        ::_exit(::open(file.c_str(), O_RDONLY | O_NONBLOCK) >= 0 ? 1 : 0);
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 3;
}

void SharedMachine::SetUp() {
    CliTest::SetUp();
    two_users_ = ::geteuid() == 0;
    shared_ = path("shared");
    fs::create_directory(shared_);
    home_ = path("a-home");
    fs::create_directory(home_);
    if (!two_users_) {
        victim_.limits = {};
        key_ = make_key("a-home/a.key");
        return;
    }
    // Both users must reach the binary and the folder: a copy beside the test's files.
    fs::permissions(dir_, fs::perms(0755));
    fs::permissions(shared_, fs::perms(01777));  // like /tmp
    program_ = path("warpcrypt");
    fs::copy_file(warpcrypt_binary(), program_);
    fs::permissions(program_, fs::perms(0755));
    victim_.limits.user = {kVictim, kVictim};
    victim_.limits.program = program_;
    attacker_.limits.user = {kAttacker, kAttacker};
    attacker_.limits.program = program_;
    ASSERT_EQ(::chown(home_.c_str(), kVictim, kVictim), 0);
    key_ = home_ / "a.key";
    ASSERT_EQ(as_victim({"keygen", "-o", key_.string()}).exit_code, 0);
}

Outcome SharedMachine::as(const Command& who, std::vector<std::string> args,
                          std::optional<std::string> stdin_bytes) const {
    Command command = who;
    command.args = std::move(args);
    command.stdin_bytes = std::move(stdin_bytes);
    return run(command);
}

fs::path SharedMachine::victim_ciphertext(std::string_view name,
                                          const std::string& plaintext) const {
    const fs::path sealed = shared_ / name;
    const auto outcome =
        as_victim({"encrypt", "-k", key_.string(), "-o", sealed.string()}, plaintext);
    EXPECT_EQ(outcome.exit_code, 0) << describe(outcome);
    return sealed;
}

void SharedMachine::make_fifo(const fs::path& where, uid_t owner) {
    ASSERT_EQ(::mkfifo(where.c_str(), 0666), 0);
    ASSERT_EQ(::chmod(where.c_str(), 0666), 0);  // whatever the umask
    ASSERT_EQ(::chown(where.c_str(), owner, owner), 0);
}

void SharedMachine::make_owned_file(const fs::path& where, std::string_view bytes, uid_t owner,
                                    mode_t mode) {
    write_file(where, bytes);
    ASSERT_EQ(::chown(where.c_str(), owner, owner), 0);
    ASSERT_EQ(::chmod(where.c_str(), mode), 0);
}

uid_t SharedMachine::victim_uid() const { return two_users_ ? kVictim : ::geteuid(); }
uid_t SharedMachine::attacker_uid() const { return two_users_ ? kAttacker : ::geteuid(); }

FifoListener::FifoListener(const fs::path& fifo)
    : fd_(::open(fifo.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)) {
    thread_ = std::thread([this] {
        char buf[4096];
        while (!stop_) {
            const ssize_t got = ::read(fd_, buf, sizeof buf);
            if (got > 0) received_.append(buf, static_cast<std::size_t>(got));
            else std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
    });
}

const std::string& FifoListener::stop() {
    if (!stop_.exchange(true)) {
        thread_.join();
        ::close(fd_);
    }
    return received_;
}

}  // namespace warp::clitest
