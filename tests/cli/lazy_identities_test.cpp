// Identities that need the user are asked for only when needed (issue 46, item 3;
// formats/keys/deferred_identity.hpp, docs/format-age.md "Order in which identities are
// tried"): an encrypted SSH key whose tag no stanza carries, a protected identity file when
// another identity opened the file, and a plugin that asks for a PIN when a native identity
// opened it, are never asked, on a terminal (checked on a pty: no prompt in its transcript) or
// without one (the run goes on instead of failing). When they are needed, they are asked.
#include <cstdlib>
#include <string>
#include <vector>

#include "tests/cli/age_tool.hpp"
#include "tests/cli/cli_fixture.hpp"

namespace warp::clitest {
namespace {

constexpr const char* kKeyPassphrase = "lazy pass phrase";

class LazyIdentities : public CliTest {
protected:
    void SetUp() override {
        CliTest::SetUp();
        ASSERT_TRUE(age_available()) << "age (Debian package age) is not on PATH: scripts/deps.sh";
        plain_ = make_file("plain", pattern(1000));
        // An X25519 identity file, a protected identity file (another identity, sealed with a
        // passphrase), and an encrypted OpenSSH key.
        mine_ = make_identity("mine.txt");
        inner_ = make_identity("inner.txt");
        passphrase_ = make_secret_file("pass", std::string(kKeyPassphrase) + "\n");
        protected_ = path("protected.age");
        ASSERT_EQ(run({"encrypt", inner_.file.string(), "--format", "age", "--passphrase-file",
                       passphrase_.string(), "--kdf-memory", "8", "-o", protected_.string()})
                      .exit_code,
                  0);
        ASSERT_EQ(run_tool(std::string("ssh-keygen -q -t ed25519 -N '") + kKeyPassphrase +
                           "' -f " + path("locked").string())
                      .status,
                  0);
    }

    fs::path seal_to(const std::string& name, const std::vector<std::string>& recipients) const {
        std::vector<std::string> a = {"encrypt", plain_.string(), "--format", "age",
                                      "--no-pq-warning", "-o", path(name).string()};
        for (const std::string& r : recipients) a.insert(a.end(), {"-r", r});
        EXPECT_EQ(run(a).exit_code, 0);
        return path(name);
    }

    // Decrypts on a pseudo-terminal that answers any passphrase prompt: the transcript says
    // whether one was shown.
    ToolRun on_terminal(const fs::path& file, const std::vector<std::string>& identities) const {
        std::vector<std::string> a = {warpcrypt_binary().string(), "decrypt", file.string(),
                                      "-o", path("tty-out").string()};
        for (const std::string& i : identities) a.insert(a.end(), {"-i", i});
        fs::remove(path("tty-out"));
        return run_tool_on_terminal(a, kKeyPassphrase);
    }

    fs::path plain_, passphrase_, protected_;
    Identity mine_, inner_;
};

TEST_F(LazyIdentities, AnEncryptedSshKeyIsAskedForOnlyWhenAStanzaNamesIt) {
    const fs::path to_mine = seal_to("to-mine.age", {mine_.recipient});
    const std::string locked = path("locked").string();
    // On a terminal: the key's tag matches nothing, so no prompt; the next identity opens it.
    const ToolRun quiet = on_terminal(to_mine, {locked, mine_.file.string()});
    ASSERT_EQ(quiet.status, 0) << quiet.out;
    EXPECT_EQ(quiet.out.find("Passphrase"), std::string::npos) << quiet.out;
    EXPECT_TRUE(read_file(path("tty-out")) == pattern(1000));
    // Without a terminal: the run goes on to the next identity instead of failing.
    const Outcome no_terminal =
        run({"decrypt", to_mine.string(), "-i", locked, "-i", mine_.file.string(), "-o", "-"});
    ASSERT_EQ(no_terminal.exit_code, 0) << describe(no_terminal);
    EXPECT_TRUE(no_terminal.out == pattern(1000));
    // A file to the key (among others): asked, once, and it opens.
    const std::string ssh_recipient = lines_of(read_file(path("locked.pub")))[0];
    const fs::path to_key = seal_to("to-key.age", {inner_.recipient, ssh_recipient});
    const ToolRun asked = on_terminal(to_key, {mine_.file.string(), locked});
    ASSERT_EQ(asked.status, 0) << asked.out;
    EXPECT_NE(asked.out.find("Passphrase for SSH key"), std::string::npos) << asked.out;
    EXPECT_TRUE(read_file(path("tty-out")) == pattern(1000));
}

TEST_F(LazyIdentities, AProtectedIdentityFileIsOpenedOnlyWhenTheOthersDidNot) {
    const fs::path to_mine = seal_to("to-mine.age", {mine_.recipient});
    // Either order on the command line: the identity that needs nothing is tried first.
    for (const bool protected_first : {false, true}) {
        SCOPED_TRACE(protected_first ? "protected first" : "protected second");
        const std::vector<std::string> order =
            protected_first ? std::vector<std::string>{protected_.string(), mine_.file.string()}
                            : std::vector<std::string>{mine_.file.string(), protected_.string()};
        const ToolRun quiet = on_terminal(to_mine, order);
        ASSERT_EQ(quiet.status, 0) << quiet.out;
        EXPECT_EQ(quiet.out.find("Passphrase"), std::string::npos) << quiet.out;
        std::vector<std::string> a = {"decrypt", to_mine.string(), "-o", "-"};
        for (const std::string& i : order) a.insert(a.end(), {"-i", i});
        const Outcome no_terminal = run(a);
        ASSERT_EQ(no_terminal.exit_code, 0) << describe(no_terminal);
    }
    // A file only the identity inside opens: asked for the identity file's passphrase.
    const fs::path to_inner = seal_to("to-inner.age", {inner_.recipient});
    const ToolRun asked = on_terminal(to_inner, {mine_.file.string(), protected_.string()});
    ASSERT_EQ(asked.status, 0) << asked.out;
    EXPECT_NE(asked.out.find("Passphrase for identity file"), std::string::npos) << asked.out;
    EXPECT_TRUE(read_file(path("tty-out")) == pattern(1000));
    // A passphrase file (scrypt): an identity file holds no passphrase, so it is not opened.
    const fs::path by_passphrase = path("by-passphrase.age");
    ASSERT_EQ(run({"encrypt", plain_.string(), "--format", "age", "--passphrase-file",
                   passphrase_.string(), "--kdf-memory", "8", "-o", by_passphrase.string()})
                  .exit_code,
              0);
    const ToolRun not_asked = on_terminal(by_passphrase, {protected_.string()});
    EXPECT_NE(not_asked.status, 0) << not_asked.out;
    EXPECT_EQ(not_asked.out.find("Passphrase for identity file"), std::string::npos)
        << not_asked.out;
}

TEST_F(LazyIdentities, APluginIsAskedOnlyAfterTheNativeIdentities) {
    // The test plugin asks for a PIN (WPTEST_PIN); a file to it and to a native identity,
    // with the plugin's identity first on the command line: the native one opens it, and
    // the plugin is never run.
    const fs::path plugin_dir = fs::path(WARPCRYPT_SOURCE_DIR) / "tests" / "plugin";
    const std::string saved = std::getenv("PATH") ? std::getenv("PATH") : "";
    ::setenv("PATH", (plugin_dir.string() + ":" + saved).c_str(), 1);
    ::setenv("WPTEST_PIN", "4321", 1);
    const ToolRun generated = run_tool("age-plugin-wptest --generate");
    ASSERT_EQ(generated.status, 0);
    const std::vector<std::string> lines = lines_of(generated.out);
    const std::string recipient = lines[0].substr(lines[0].find("age1"));
    const fs::path plugin_identity = make_secret_file("plugin.txt", lines[1] + "\n");
    const fs::path both = seal_to("both.age", {recipient, mine_.recipient});
    const ToolRun quiet = on_terminal(both, {plugin_identity.string(), mine_.file.string()});
    EXPECT_EQ(quiet.status, 0) << quiet.out;
    EXPECT_EQ(quiet.out.find("PIN"), std::string::npos) << quiet.out;
    // Only the plugin's: it asks.
    const fs::path to_plugin = seal_to("to-plugin.age", {recipient});
    const ToolRun asked = run_tool_on_terminal(
        {warpcrypt_binary().string(), "decrypt", to_plugin.string(), "-i",
         plugin_identity.string(), "-i", mine_.file.string(), "-o", path("pin-out").string()},
        "4321", "pin");
    EXPECT_EQ(asked.status, 0) << asked.out;
    EXPECT_NE(asked.out.find("PIN"), std::string::npos) << asked.out;
    ::unsetenv("WPTEST_PIN");
    ::setenv("PATH", saved.c_str(), 1);
}

}  // namespace
}  // namespace warp::clitest
