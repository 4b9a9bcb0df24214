// Where the output lands when another user changes the folders on the way during the run
// (security review 3, item 1), and where decrypt may choose the plaintext's name (item 2),
// through the real binary: as the victim and as root, against an attacker of another uid
// (shared_machine.hpp). The rule they check (cli/place.hpp): a run resolves the output's
// folder once into a descriptor and never looks the path up again, so swapping a folder for a
// link mid-run moves nothing; and decrypt without -o writes only into folders nobody else can
// change.
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "tests/cli/shared_machine.hpp"

namespace warp::clitest {
namespace {

// ---- Tools of the attacker and of the judge ----------------------------------------------

// What a folder holds, entry by entry: its bytes (a link's target), owner, group and mode.
struct Entry {
    std::string bytes;
    uid_t uid;
    gid_t gid;
    mode_t mode;
    bool operator==(const Entry&) const = default;
};
using Snapshot = std::map<std::string, Entry>;

Snapshot snapshot(const fs::path& dir) {
    Snapshot entries;
    for (const std::string& name : list_dir(dir)) {
        const fs::path file = dir / name;
        struct stat st {};
        EXPECT_EQ(::lstat(file.c_str(), &st), 0);
        const std::string bytes = S_ISLNK(st.st_mode) ? fs::read_symlink(file).string()
                                  : S_ISREG(st.st_mode) ? read_file(file)
                                                        : std::string();
        entries[name] = {bytes, st.st_uid, st.st_gid, st.st_mode};
    }
    return entries;
}

// Runs `act` (system calls only: the test process has threads) in a child process as `user`;
// true when it returned true.
template <typename Act>
bool as_user(uid_t user, Act act) {
    const pid_t pid = ::fork();
    if (pid == 0) {
        if (::setgroups(0, nullptr) != 0 || ::setresgid(user, user, user) != 0 ||
            ::setresuid(user, user, user) != 0)
            ::_exit(2);
        ::_exit(act() ? 0 : 1);
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

// The swap of the report: the attacker moves the real folder aside and puts a link to
// `elsewhere` in its place.
bool swap_for_link(const fs::path& folder, const fs::path& aside, const fs::path& elsewhere) {
    return as_user(kAttacker, [&] {
        return ::rename(folder.c_str(), aside.c_str()) == 0 &&
               ::symlink(elsewhere.c_str(), folder.c_str()) == 0;
    });
}

// An attacker who exchanges two names in a folder of theirs as fast as they can
// (renameat2 RENAME_EXCHANGE, atomic: each name always exists), until the object goes: one a
// real folder, the other a link to somewhere the victim or root may write.
class Swapper {
public:
    Swapper(const fs::path& a, const fs::path& b) {
        pid_ = ::fork();
        if (pid_ == 0) {
            if (::setgroups(0, nullptr) != 0 || ::setresgid(kAttacker, kAttacker, kAttacker) != 0 ||
                ::setresuid(kAttacker, kAttacker, kAttacker) != 0)
                ::_exit(2);
            for (;;) {
                if (::renameat2(AT_FDCWD, a.c_str(), AT_FDCWD, b.c_str(), RENAME_EXCHANGE) != 0)
                    ::_exit(3);
            }
        }
    }
    ~Swapper() {
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, nullptr, 0);
    }
    Swapper(const Swapper&) = delete;
    Swapper& operator=(const Swapper&) = delete;

    // Whether it is still swapping (it ends only on a failed exchange).
    bool running() const { return ::waitpid(pid_, nullptr, WNOHANG) == 0; }

private:
    pid_t pid_ = -1;
};

void own(const fs::path& where, uid_t owner, mode_t mode) {
    ASSERT_EQ(::lchown(where.c_str(), owner, owner), 0) << where;
    ASSERT_EQ(::chmod(where.c_str(), mode), 0) << where;
}

// ---- The folder swapped during the run ---------------------------------------------------

// The attacker's folder `att/` holds `sub/`, where the run reads or writes. What must stay as
// it was: the victim's ~/.ssh, with their known_hosts, and a folder only root can enter,
// with a file of root's named as the one rekey replaces.
class DirectoryRace : public SharedMachine {
protected:
    void SetUp() override {
        SharedMachine::SetUp();
        if (!two_users_) GTEST_SKIP() << "needs root, to act as the victim, root and an attacker";
        att_ = path("att");
        sub_ = att_ / "sub";
        fs::create_directories(sub_);
        own(att_, kAttacker, 0755);
        own(sub_, kAttacker, 0777);  // world-writable, as in the report
        ssh_ = home_ / ".ssh";
        fs::create_directory(ssh_);
        own(ssh_, kVictim, 0700);
        // No authorized_keys yet, as in the report: the attack would have made one.
        make_owned_file(ssh_ / "known_hosts", "host ssh-ed25519 AAAA the-hosts-key\n", kVictim,
                        0600);
        root_only_ = path("root-only");
        fs::create_directory(root_only_);
        own(root_only_, 0, 0700);
        make_owned_file(root_only_ / "victim.warp", "root's own file, not to be replaced", 0,
                        0600);
        // Root opens with a key file of its own (it refuses one another user could replace).
        roots_key_ = path("root.key");
        fs::copy_file(key_, roots_key_);
        other_key_ = path("other.key");
        ASSERT_EQ(run({"keygen", "-o", other_key_.string()}).exit_code, 0);
        before_ = {snapshot(ssh_), snapshot(root_only_)};
    }

    // Nothing written, replaced or re-owned in the victim's ~/.ssh or root's folder.
    void expect_untouched() const {
        EXPECT_EQ(snapshot(ssh_), before_.first) << "the victim's ~/.ssh changed";
        EXPECT_EQ(snapshot(root_only_), before_.second) << "root's folder changed";
    }

    // Ciphertext of `plaintext` under the victim's key, made by the victim.
    std::string sealed_for_victim(const std::string& plaintext) const {
        const auto outcome = as_victim({"encrypt", "-k", key_.string(), "-o", "-"}, plaintext);
        EXPECT_EQ(outcome.exit_code, 0) << describe(outcome);
        return outcome.out;
    }

    fs::path att_, sub_, ssh_, root_only_, roots_key_, other_key_;
    std::pair<Snapshot, Snapshot> before_;
};

// Who runs what, in the deterministic races: decrypt from a FIFO the attacker feeds (the run
// waits on it with its output open), or rekey in place reading its passphrase from a pipe.
enum class Run { victim_decrypts, root_decrypts, root_rekeys };
using RaceParam = std::tuple<Run, TemporaryMethod>;

class DirectoryRacePaused : public DirectoryRace,
                            public ::testing::WithParamInterface<RaceParam> {};

TEST_P(DirectoryRacePaused, TheOutputLandsInTheFolderTheRunStartedWith) {
    const auto [who, method] = GetParam();
    const bool root = who != Run::victim_decrypts;
    const fs::path aside = att_ / "moved-aside";
    // Where the attacker's link sends the run: the victim's ~/.ssh, or root's own folder.
    const fs::path elsewhere = root ? root_only_ : ssh_;
    const std::string attackers_key = "ssh-ed25519 AAAA the-attackers-key\n";

    Command command = root ? Command{} : victim_;
    command.env = temporary_method_env(method);
    // The run waits on what the attacker's side feeds it: the passphrase through a pipe, or
    // the FIFO's contents.
    Pipe passphrase;
    int feed = -1;
    std::map<int, int> fds;
    std::string name, bytes;
    if (who == Run::root_rekeys) {
        name = "victim.warp";
        const fs::path pass = make_secret_file("pass", "correct horse\n");
        const std::vector<std::string> encrypt =
            args({{"encrypt", "--passphrase-file", pass.string(), "-o", (sub_ / name).string()},
                  fast_kdf});
        ASSERT_EQ(run(encrypt, attackers_key).exit_code, 0);
        own(sub_ / name, kAttacker, 0644);
        command.args = {"rekey", (sub_ / name).string(), "--passphrase-fd", "3", "--add-key",
                        other_key_.string()};
        fds[3] = passphrase.read_end;
        feed = passphrase.write_end;
        bytes = "correct horse\n";
    } else {
        // As a cron job, or the victim's authorized_keys: a name that is new in either folder.
        name = root ? "cron-job" : "authorized_keys";
        const fs::path fifo = sub_ / (name + ".warp");
        make_fifo(fifo, kAttacker);
        // Held open for writing on the attacker's side, so that the run's open does not wait.
        feed = ::open(fifo.c_str(), O_RDWR | O_CLOEXEC);
        ASSERT_GE(feed, 0);
        const fs::path key = root ? roots_key_ : key_;
        command.args = {"decrypt", fifo.string(), "-k", key.string(), "-o", (sub_ / name).string()};
        bytes = sealed_for_victim(attackers_key);
    }
    Pipe err;
    Child child(command.args, -1, -1, err.write_end, command.env, fds, command.limits);
    err.close_write();
    const bool opened = wait_for_output(child.pid(), sub_, method, 10, 0).has_value();
    const bool swapped = opened && swap_for_link(sub_, aside, elsewhere);
    EXPECT_TRUE(write_all(feed, bytes.data(), bytes.size()));
    if (who == Run::root_rekeys) passphrase.close_write();
    else ::close(feed);
    const std::string errors = read_all(err.read_end);
    const int status = child.wait();
    ASSERT_TRUE(opened) << "the run never opened its output: the test proves nothing";
    ASSERT_TRUE(swapped) << "the attacker could not swap the folder";

    expect_untouched();
    // The run finished where it started, in the folder now called moved-aside.
    EXPECT_EQ(status, 0) << errors;
    if (who == Run::root_rekeys) {
        struct stat st {};
        ASSERT_EQ(::stat((aside / name).c_str(), &st), 0);
        EXPECT_EQ(st.st_uid, kAttacker) << "the rekeyed file changed owner";
        EXPECT_EQ(run({"decrypt", (aside / name).string(), "-k", other_key_.string(), "-o", "-"})
                      .out,
                  attackers_key);
    } else {
        EXPECT_EQ(read_file(aside / name), attackers_key);
    }
}

std::string race_name(const ::testing::TestParamInfo<RaceParam>& info) {
    const auto [who, method] = info.param;
    const char* run = who == Run::victim_decrypts ? "victim_decrypts"
                      : who == Run::root_decrypts ? "root_decrypts"
                                                  : "root_rekeys";
    return std::string(run) + "_" + temporary_method_name(method);
}

INSTANTIATE_TEST_SUITE_P(
    PipePaused, DirectoryRacePaused,
    ::testing::Combine(::testing::Values(Run::victim_decrypts, Run::root_decrypts,
                                         Run::root_rekeys),
                       ::testing::Values(TemporaryMethod::unnamed, TemporaryMethod::named)),
    race_name);

// Many runs while the attacker exchanges `sub` and a link to the protected folder without a
// pause: each run either refuses the attacker's link (exit 2) or writes into the real `sub`,
// never through the link. Bounded: a fixed number of runs, a few seconds in all.
constexpr int kRacingRuns = 200;

TEST_F(DirectoryRace, VictimsDecryptsNeverWriteThroughAFolderSwappedAtFullSpeed) {
    const std::string plaintext = "ssh-ed25519 AAAA the-attackers-key\n";
    const fs::path sealed = shared_ / "ak.warp";
    write_file(sealed, sealed_for_victim(plaintext));
    const fs::path decoy = att_ / "decoy";
    ASSERT_TRUE(as_user(kAttacker, [&] { return ::symlink(ssh_.c_str(), decoy.c_str()) == 0; }));
    int written = 0;
    {
        Swapper swapper(sub_, decoy);
        for (int i = 0; i < kRacingRuns; ++i) {
            Command decrypt = victim_;
            decrypt.env = temporary_method_env(i % 2 ? TemporaryMethod::named
                                                     : TemporaryMethod::unnamed);
            decrypt.args = {"decrypt", sealed.string(), "-k", key_.string(), "-f", "-o",
                            (sub_ / "authorized_keys").string()};
            const auto outcome = run(decrypt);
            if (outcome.exit_code == 0) ++written;
            else EXPECT_EQ(outcome.exit_code, kExitUsage) << describe(outcome);
            expect_untouched();
            if (HasFailure()) break;
        }
        EXPECT_TRUE(swapper.running());
    }
    EXPECT_GT(written, 0) << "no run got through: the race was not run";
}

TEST_F(DirectoryRace, RootsRekeysNeverReplaceAFileThroughAFolderSwappedAtFullSpeed) {
    const std::string plaintext = pattern(20000);
    const fs::path file = sub_ / "victim.warp";
    ASSERT_EQ(run({"encrypt", "-k", roots_key_.string(), "-k", other_key_.string(), "-o",
                   file.string()},
                  plaintext)
                  .exit_code,
              0);
    own(file, kAttacker, 0644);
    const fs::path decoy = att_ / "decoy";
    ASSERT_TRUE(
        as_user(kAttacker, [&] { return ::symlink(root_only_.c_str(), decoy.c_str()) == 0; }));
    int rekeyed = 0;
    {
        Swapper swapper(sub_, decoy);
        for (int i = 0; i < kRacingRuns; ++i) {
            // Slot 2 out, the same key back in: the file keeps two slots however often it runs.
            Command rekey;
            rekey.env = temporary_method_env(i % 2 ? TemporaryMethod::named
                                                   : TemporaryMethod::unnamed);
            rekey.args = {"rekey", file.string(), "-k", roots_key_.string(), "--remove-slot",
                          "2", "--add-key", other_key_.string()};
            const auto outcome = run(rekey);
            if (outcome.exit_code == 0) ++rekeyed;
            else EXPECT_EQ(outcome.exit_code, kExitUsage) << describe(outcome);
            expect_untouched();
            if (HasFailure()) break;
        }
        EXPECT_TRUE(swapper.running());
    }
    EXPECT_GT(rekeyed, 0) << "no run got through: the race was not run";
    // Wherever the swaps left it, the attacker's file is still theirs and still opens.
    const fs::path real = fs::is_symlink(sub_) ? decoy : sub_;
    struct stat st {};
    ASSERT_EQ(::stat((real / "victim.warp").c_str(), &st), 0);
    EXPECT_EQ(st.st_uid, kAttacker);
    EXPECT_TRUE(run({"decrypt", (real / "victim.warp").string(), "-k", other_key_.string(), "-o",
                     "-"})
                    .out == plaintext);
}

// ---- Where decrypt may choose the plaintext's name ---------------------------------------

class UnsafeFolders : public SharedMachine {
protected:
    // `folder/NAME.warp` sealed with the victim's key, owned by whoever runs.
    fs::path sealed_in(const fs::path& folder, const std::string& name) const {
        const fs::path sealed = folder / (name + ".warp");
        const auto outcome = as_victim({"encrypt", "-k", key_.string(), "-o", "-"}, plaintext_);
        EXPECT_EQ(outcome.exit_code, 0) << describe(outcome);
        write_file(sealed, outcome.out);
        if (two_users_) {
            EXPECT_EQ(::chown(sealed.c_str(), kVictim, kVictim), 0);
        }
        return sealed;
    }
    // A folder of the victim's own (of whoever runs, with one user) with `mode`.
    fs::path folder_of_victim(const std::string& name, mode_t mode) const {
        const fs::path folder = path(name);
        fs::create_directories(folder);
        if (two_users_) {
            EXPECT_EQ(::chown(folder.c_str(), kVictim, kVictim), 0);
        }
        EXPECT_EQ(::chmod(folder.c_str(), mode), 0);
        return folder;
    }
    void expect_refused(const Outcome& outcome, const std::string& why) const {
        EXPECT_EQ(outcome.exit_code, kExitUsage) << describe(outcome);
        EXPECT_NE(outcome.err.find("refusing to choose the output's name"), std::string::npos)
            << outcome.err;
        EXPECT_NE(outcome.err.find(why), std::string::npos) << outcome.err;
        EXPECT_NE(outcome.err.find("-o PATH"), std::string::npos) << outcome.err;
    }

    const std::string plaintext_ = pattern(3000);
};

TEST_F(UnsafeFolders, AFolderEveryoneCanWriteGetsNoPlaintextUnlessNamedWithO) {
    const fs::path open_folder = folder_of_victim("open", 0777);
    const fs::path sealed = sealed_in(open_folder, "notes");
    expect_refused(as_victim({"decrypt", sealed.string(), "-k", key_.string()}),
                   "every user can write to it, and it is not sticky");
    EXPECT_EQ(list_dir(open_folder), std::vector<std::string>{"notes.warp"}) << "written anyway";
    // Named with -o, the same file is the user's choice.
    const auto named = as_victim({"decrypt", sealed.string(), "-k", key_.string(), "-o",
                                  (open_folder / "notes").string()});
    ASSERT_EQ(named.exit_code, 0) << describe(named);
    EXPECT_TRUE(read_file(open_folder / "notes") == plaintext_);
}

TEST_F(UnsafeFolders, AStickySharedFolderAndTheUsersOwnAreFine) {
    // Sticky like /tmp (the shared folder is 01777 when two users run): nobody else may rename
    // or remove the victim's file there.
    const fs::path sticky = two_users_ ? shared_ : folder_of_victim("sticky", 01777);
    const fs::path own_folder = folder_of_victim("own", 0755);
    for (const fs::path& folder : {sticky, own_folder}) {
        SCOPED_TRACE(folder);
        const fs::path sealed = sealed_in(folder, "notes");
        const auto outcome = as_victim({"decrypt", sealed.string(), "-k", key_.string()});
        ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
        EXPECT_TRUE(read_file(folder / "notes") == plaintext_);
    }
}

TEST_F(UnsafeFolders, AFolderAboveTheInputCounts) {
    // The victim's folder is private, but everyone may rename it inside its parent.
    const fs::path parent = folder_of_victim("parent", 0777);
    const fs::path mine = folder_of_victim("parent/mine", 0700);
    const fs::path sealed = sealed_in(mine, "notes");
    const auto outcome = as_victim({"decrypt", sealed.string(), "-k", key_.string()});
    expect_refused(outcome, "a folder above the input");
    EXPECT_NE(outcome.err.find(parent.string()), std::string::npos) << outcome.err;
}

TEST_F(UnsafeFolders, EncryptStillWritesBesideItsInput) {
    // Ciphertext replaced by someone else fails to authenticate (or, for a public-key
    // recipient, is something anyone could have sent): encrypt keeps its default name.
    const fs::path open_folder = folder_of_victim("open", 0777);
    const fs::path input = open_folder / "doc";
    write_file(input, plaintext_);
    if (two_users_) {
        ASSERT_EQ(::chown(input.c_str(), kVictim, kVictim), 0);
    }
    const auto outcome = as_victim({"encrypt", input.string(), "-k", key_.string()});
    EXPECT_EQ(outcome.exit_code, 0) << describe(outcome);
}

TEST_F(UnsafeFolders, AFolderAnotherUserOwnsOrAGroupShares) {
    if (!two_users_) GTEST_SKIP() << "needs root, to act as two users";
    // Root decrypting in a folder the attacker owns: they may rename anything in it.
    const fs::path theirs = path("theirs");
    fs::create_directory(theirs);
    own(theirs, kAttacker, 0755);
    const fs::path in_theirs = theirs / "notes.warp";
    write_file(in_theirs, read_file(sealed_in(shared_, "copy")));
    const fs::path roots_key = path("root.key");
    fs::copy_file(key_, roots_key);
    expect_refused(run({"decrypt", in_theirs.string(), "-k", roots_key.string()}),
                   "uid 61002 owns it");
    // The victim's folder, writable by a group (of no known members, so not the victim's own).
    const fs::path shared_group = folder_of_victim("group", 0770);
    ASSERT_EQ(::chown(shared_group.c_str(), kVictim, 61010), 0);
    ASSERT_EQ(::chmod(shared_group.c_str(), 0770), 0);
    const fs::path sealed = sealed_in(shared_group, "notes");
    expect_refused(as_victim({"decrypt", sealed.string(), "-k", key_.string()}),
                   "group gid 61010 can write to it");
}

}  // namespace
}  // namespace warp::clitest
