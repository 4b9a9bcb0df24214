// Where a passphrase or recipients come from, as the attacker on the same machine would hand
// them over (the two users: shared_machine.hpp): a FIFO planted in a shared folder, which
// would make warpcrypt wait and then seal the victim's file to the attacker's passphrase or
// recipient; a regular file the attacker owns; and a source that is the input itself
// (`--passphrase-file /dev/stdin` while the data comes from stdin), which would take the
// data's first line.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "tests/cli/shared_machine.hpp"

namespace warp::clitest {
namespace {

class KeySources : public SharedMachine {
protected:
    // Runs the victim's command with its stdin at /dev/null and no more than `seconds`: a
    // command that waits on a FIFO nobody writes is killed, and the test fails, not hangs.
    Outcome as_victim_within(const std::vector<std::string>& args, double seconds = 20) const {
        Pipe out, err;
        Child child(args, -1, out.write_end, err.write_end, {}, {}, victim_.limits);
        out.close_write();
        err.close_write();
        Outcome outcome;
        const std::optional<int> status = child.wait_for(seconds);
        EXPECT_TRUE(status.has_value()) << "warpcrypt waited on the planted FIFO";
        if (!status) child.send_signal(SIGKILL);
        outcome.exit_code = status ? *status : child.wait();
        outcome.out = read_all(out.read_end);
        outcome.err = read_all(err.read_end);
        return outcome;
    }

    // Each command, run as the victim, is refused at once (exit 2, the error naming `why`),
    // and `output` does not appear.
    void expect_refused_at_once(const std::vector<std::vector<std::string>>& commands,
                                const std::string& why, const fs::path& output) const {
        for (const auto& command : commands) {
            SCOPED_TRACE(command.front());
            const Outcome outcome = as_victim_within(command);
            EXPECT_EQ(outcome.exit_code, kExitUsage) << describe(outcome);
            EXPECT_NE(outcome.err.find(why), std::string::npos) << outcome.err;
        }
        EXPECT_FALSE(fs::exists(output));
    }

    fs::path plain() const {
        const fs::path file = home_ / "plain.txt";
        make_owned_file(file, "the victim's data\n", victim_uid(), 0600);
        return file;
    }
    // A recipient the attacker holds the identity of.
    std::string attacker_recipient() const { return make_identity("attacker.id").recipient; }
};

TEST_F(KeySources, APlantedPassphraseFifoIsRefusedAtOnceNotWaitedOn) {
    const fs::path fifo = shared_ / "pw";
    make_fifo(fifo, attacker_uid());
    const fs::path sealed = home_ / "out.warp";
    expect_refused_at_once(
        {{"encrypt", plain().string(), "--passphrase-file", fifo.string(), "-o", sealed.string()},
         {"rekey", victim_ciphertext("v.warp", "data").string(), "-k", key_.string(),
          "--add-passphrase-file", fifo.string()}},
        "a FIFO, not a regular file: refusing it as a passphrase file", sealed);
    // The hint says how to pass a passphrase through a pipe instead.
    const Outcome outcome = as_victim_within(
        {"encrypt", plain().string(), "--passphrase-file", fifo.string(), "-o", sealed.string()});
    EXPECT_NE(outcome.err.find("--passphrase-fd"), std::string::npos) << outcome.err;
}

TEST_F(KeySources, APassphraseFileAnotherUserOwnsIsRefused) {
    if (!two_users_) GTEST_SKIP() << "needs root, to act as two users";
    const fs::path theirs = shared_ / "pw.txt";
    make_owned_file(theirs, "the attacker's passphrase\n", kAttacker, 0644);
    const fs::path sealed = home_ / "out.warp";
    const Outcome outcome = as_victim({"encrypt", plain().string(), "--passphrase-file",
                                       theirs.string(), "-o", sealed.string()});
    EXPECT_EQ(outcome.exit_code, kExitUsage) << describe(outcome);
    EXPECT_NE(outcome.err.find("belongs to another user (uid 61002): refusing a passphrase file"),
              std::string::npos)
        << outcome.err;
    EXPECT_FALSE(fs::exists(sealed));
    // Root's is trusted, like a key file root wrote for the user (readable, to be read).
    const fs::path roots = home_ / "root-pw.txt";
    make_owned_file(roots, "root's passphrase for the victim\n", 0, 0644);
    EXPECT_EQ(as_victim(args({{"encrypt", plain().string(), "--passphrase-file", roots.string(),
                               "-o", sealed.string()},
                              fast_kdf}))
                  .exit_code,
              0);
}

TEST_F(KeySources, APassphraseFileOthersCanReadGetsAWarning) {
    const fs::path readable = home_ / "pw.txt";
    make_owned_file(readable, "passphrase\n", victim_uid(), 0644);
    const Outcome outcome =
        as_victim(args({{"encrypt", plain().string(), "--passphrase-file", readable.string(),
                         "-o", (home_ / "out.warp").string()},
                        fast_kdf}));
    EXPECT_EQ(outcome.exit_code, 0) << describe(outcome);
    EXPECT_NE(outcome.err.find("warning: passphrase file " + readable.string() +
                               " can be read by other users (mode 0644)"),
              std::string::npos)
        << outcome.err;
}

TEST_F(KeySources, APlantedRecipientsFifoOfAnotherUserIsRefusedAtOnce) {
    if (!two_users_) GTEST_SKIP() << "needs root, to act as two users";
    const fs::path fifo = shared_ / "team.fifo";
    make_fifo(fifo, kAttacker);
    const fs::path sealed = home_ / "out.warp";
    expect_refused_at_once(
        {{"encrypt", plain().string(), "-R", fifo.string(), "-o", sealed.string()},
         {"rekey", victim_ciphertext("v.warp", "data").string(), "-k", key_.string(),
          "--add-recipients-file", fifo.string()}},
        "is a FIFO that belongs to another user (uid 61002)", sealed);
}

TEST_F(KeySources, ARecipientsFileAnotherUserOwnsGetsAWarningNamingThem) {
    if (!two_users_) GTEST_SKIP() << "needs root, to act as two users";
    const fs::path theirs = shared_ / "team.txt";
    make_owned_file(theirs, attacker_recipient() + "\n", kAttacker, 0644);
    const Outcome outcome = as_victim(
        {"encrypt", plain().string(), "-R", theirs.string(), "-o", (home_ / "out.warp").string()});
    EXPECT_EQ(outcome.exit_code, 0) << describe(outcome);
    EXPECT_NE(outcome.err.find("warning: recipients file " + theirs.string() +
                               " belongs to another user (uid 61002)"),
              std::string::npos)
        << outcome.err;
}

TEST_F(KeySources, RecipientsFromAPipeOfTheUsersOwnStillWork) {
    // `-R <(...)`: the shell hands over a pipe as /dev/fd/N.
    const std::string recipient = attacker_recipient();
    Command command;
    command.args = {"encrypt", plain().string(), "-R", "/dev/fd/3", "-o", "-"};
    command.fd_bytes[3] = recipient + "\n";
    const Outcome outcome = run(command);
    EXPECT_EQ(outcome.exit_code, 0) << describe(outcome);
    EXPECT_FALSE(outcome.out.empty());
}

TEST_F(KeySources, NoPassphraseOrRecipientsSourceMayBeTheInput) {
    // The data on stdin, and /dev/stdin named as the passphrase or recipients file: its first
    // line would become the passphrase (or a recipient) and vanish from the encrypted data.
    const fs::path data = make_file("data.txt", "pw\nthe rest of the data\n");
    const fs::path sealed = path("f.warp");
    for (const auto& source :
         {args({{"--passphrase-file", "/dev/stdin"}, fast_kdf}), args({{"-R", "/dev/stdin"}})}) {
        SCOPED_TRACE(source.front());
        Command command;
        command.args = args({{"encrypt", "-o", sealed.string()}, source});
        command.stdin_file = data;
        const Outcome outcome = run(command);
        EXPECT_EQ(outcome.exit_code, kExitUsage) << describe(outcome);
        EXPECT_NE(outcome.err.find("/dev/stdin is the input (stdin) too"), std::string::npos)
            << outcome.err;
        EXPECT_FALSE(fs::exists(sealed));
    }
    // Through a pipe, as in `printf 'pw\ndata' | warpcrypt encrypt --passphrase-file
    // /dev/stdin`: refused too (a pipe is not a passphrase file).
    Command piped;
    piped.args = args({{"encrypt", "--passphrase-file", "/dev/stdin", "-o", sealed.string()},
                       fast_kdf});
    piped.stdin_bytes = "pw\ndata";
    const Outcome outcome = run(piped);
    EXPECT_EQ(outcome.exit_code, kExitUsage) << describe(outcome);
    EXPECT_FALSE(fs::exists(sealed));
    // Decrypt too: the passphrase file may not be the file being opened.
    const fs::path key = make_key("k.key");
    const fs::path opened = make_file("x.warp", encrypt_with_key(key, "x"));
    const Outcome same = run({"decrypt", opened.string(), "--passphrase-file", opened.string(),
                              "-o", "-"});
    EXPECT_EQ(same.exit_code, kExitUsage) << describe(same);
    EXPECT_NE(same.err.find("is the input"), std::string::npos) << same.err;
}

}  // namespace
}  // namespace warp::clitest
