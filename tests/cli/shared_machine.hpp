// Two users of one machine, for the tests of what one can do to the other's warpcrypt run
// (README "Security"). When the tests run as root (CI), they act as two unprivileged users,
// A (the victim, who runs warpcrypt) and B (the attacker), in a sticky world-writable folder
// like /tmp; as anyone else, there is one user, and the tests that need two say so and skip.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "tests/cli/cli_fixture.hpp"

namespace warp::clitest {

inline constexpr int kExitUsage = 2;
// Users that need no entry in /etc/passwd: set*id takes any number.
inline constexpr uid_t kVictim = 61001;
inline constexpr uid_t kAttacker = 61002;

mode_t current_umask();

// Whether `user` can open `file` for reading: 1 yes, 0 refused, 2 or 3 the test's own failure.
int open_as(uid_t user, const fs::path& file);

class SharedMachine : public CliTest {
protected:
    void SetUp() override;

    Outcome as(const Command& who, std::vector<std::string> args,
               std::optional<std::string> stdin_bytes = std::nullopt) const;
    Outcome as_victim(std::vector<std::string> args,
                      std::optional<std::string> stdin_bytes = std::nullopt) const {
        return as(victim_, std::move(args), std::move(stdin_bytes));
    }
    Outcome as_attacker(std::vector<std::string> args,
                        std::optional<std::string> stdin_bytes = std::nullopt) const {
        return as(attacker_, std::move(args), std::move(stdin_bytes));
    }

    // A file the victim encrypted, in the shared folder, owned by the victim.
    fs::path victim_ciphertext(std::string_view name, const std::string& plaintext) const;

    // A FIFO at `where`, mode 0666, owned by `owner`.
    static void make_fifo(const fs::path& where, uid_t owner);
    // A file at `where` holding `bytes`, owned by `owner` with `mode`.
    static void make_owned_file(const fs::path& where, std::string_view bytes, uid_t owner,
                                mode_t mode);

    // The victim's uid when there are two users, else this process's.
    uid_t victim_uid() const;
    uid_t attacker_uid() const;

    bool two_users_ = false;
    fs::path shared_, program_, key_, home_;
    Command victim_, attacker_;
};

// Reads whatever reaches a FIFO while it exists: the attacker's listener. Opened before the
// victim runs, so that a writer would not block and nothing written is missed.
class FifoListener {
public:
    explicit FifoListener(const fs::path& fifo);
    ~FifoListener() { stop(); }
    FifoListener(const FifoListener&) = delete;
    FifoListener& operator=(const FifoListener&) = delete;
    const std::string& stop();
    bool opened() const { return fd_ >= 0; }

private:
    int fd_;
    std::atomic<bool> stop_{false};
    std::string received_;
    std::thread thread_;
};

}  // namespace warp::clitest
