// SSH private keys in PEM through the real binary (issue 46, item 1): the RSA keys most
// long-lived SSH users have (`ssh-keygen -m PEM`, every OpenSSH before 7.8), PKCS#8 RSA and
// Ed25519 (`ssh-keygen -m PKCS8`, `openssl genpkey`), and the legacy PEM encryption made with
// `openssl rsa -aes128 / -aes256 / -des3`, whose public key comes from FILE.pub. Each opens
// what age 1.1.1 encrypted to its public key, and age opens what warpcrypt encrypted; what age
// does not read either is refused by name (exit 2), a wrong passphrase is exit 3.
#include <string>
#include <vector>

#include "tests/cli/age_tool.hpp"
#include "tests/cli/cli_fixture.hpp"

namespace warp::clitest {
namespace {

class PemKeys : public CliTest {
protected:
    void SetUp() override {
        CliTest::SetUp();
        ASSERT_TRUE(age_available()) << "age (Debian package age) is not on PATH: scripts/deps.sh";
        plain_ = make_file("plain", pattern(70000));
        passphrase_ = make_secret_file("pass", "pem pass phrase\n");
    }

    // A key made by `command` (KEY stands for its path), 0600 as ssh-keygen leaves it.
    fs::path make_key(const std::string& name, const std::string& command) const {
        const fs::path key = path(name);
        std::string line = command;
        for (std::size_t at; (at = line.find("KEY")) != std::string::npos;)
            line.replace(at, 3, key.string());
        EXPECT_EQ(run_tool(line).status, 0) << line;
        fs::permissions(key, fs::perms::owner_read | fs::perms::owner_write);
        return key;
    }

    // age -> warpcrypt and warpcrypt -> age through `key`, its public key in `pub`.
    void expect_both_ways(const fs::path& key, const fs::path& pub,
                          const std::vector<std::string>& more = {}) const {
        const fs::path by_age = path(key.filename().string() + ".by-age");
        ASSERT_EQ(run_tool("age -R " + pub.string() + " -o " + by_age.string() + " " +
                           plain_.string())
                      .status,
                  0);
        std::vector<std::string> a = {"decrypt", by_age.string(), "-i", key.string(), "-o", "-"};
        a.insert(a.end(), more.begin(), more.end());
        const Outcome opened = run(a);
        ASSERT_EQ(opened.exit_code, 0) << describe(opened);
        EXPECT_TRUE(opened.out == pattern(70000));
        const fs::path by_warp = path(key.filename().string() + ".by-warp");
        ASSERT_EQ(run({"encrypt", plain_.string(), "--format", "age", "-R", pub.string(),
                       "--no-pq-warning", "-o", by_warp.string()})
                      .exit_code,
                  0);
        const fs::path age_out = path(key.filename().string() + ".age-out");
        const ToolRun by_age_open = run_tool_on_terminal(
            {"age", "-d", "-i", key.string(), "-o", age_out.string(), by_warp.string()},
            "pem pass phrase");
        ASSERT_EQ(by_age_open.status, 0) << by_age_open.out;
        EXPECT_TRUE(read_file(age_out) == pattern(70000));
    }

    fs::path plain_, passphrase_;
};

TEST_F(PemKeys, Pkcs1AndPkcs8KeysFromSshKeygenOpenBothWays) {
    for (const char* form : {"PEM", "PKCS8"}) {
        SCOPED_TRACE(form);
        const fs::path key = make_key(std::string("rsa-") + form,
                                      std::string("ssh-keygen -q -t rsa -b 2048 -N '' -m ") +
                                          form + " -f KEY");
        const std::string first = lines_of(read_file(key))[0];
        EXPECT_EQ(first, std::string(form) == "PEM" ? "-----BEGIN RSA PRIVATE KEY-----"
                                                    : "-----BEGIN PRIVATE KEY-----");
        expect_both_ways(key, key.string() + ".pub");
        // keygen -y prints the same public key as ssh-keygen.
        const Outcome y = run({"keygen", "-y", key.string()});
        ASSERT_EQ(y.exit_code, 0) << describe(y);
        EXPECT_TRUE(lines_of(read_file(key.string() + ".pub"))[0].starts_with(
            y.out.substr(0, y.out.size() - 1)));
    }
}

TEST_F(PemKeys, Pkcs8Ed25519KeysOpenBothWays) {
    const fs::path key = make_key("ed-pkcs8", "openssl genpkey -algorithm ed25519 -out KEY");
    EXPECT_EQ(lines_of(read_file(key))[0], "-----BEGIN PRIVATE KEY-----");
    const Outcome y = run({"keygen", "-y", key.string()});
    ASSERT_EQ(y.exit_code, 0) << describe(y);
    const fs::path pub = make_file("ed-pkcs8.pub", y.out);
    expect_both_ways(key, pub);
}

TEST_F(PemKeys, LegacyEncryptedPemOpensWithItsPassphraseAndFilePub) {
    const fs::path base = make_key("base", "ssh-keygen -q -t rsa -b 2048 -N '' -m PEM -f KEY");
    for (const char* cipher : {"aes128", "aes256", "des3"}) {
        SCOPED_TRACE(cipher);
        const fs::path key =
            make_key(std::string("enc-") + cipher,
                     std::string("openssl rsa -traditional -in ") + base.string() + " -" +
                         cipher + " -passout 'pass:pem pass phrase' -out KEY 2>/dev/null");
        EXPECT_NE(read_file(key).find("Proc-Type: 4,ENCRYPTED"), std::string::npos);
        fs::copy_file(base.string() + ".pub", key.string() + ".pub");
        expect_both_ways(key, key.string() + ".pub",
                         {"--identity-passphrase-file", passphrase_.string()});
    }
    // A wrong passphrase is exit 3, and nothing is written.
    const fs::path sealed = path("enc-aes256.by-age");
    const fs::path wrong = make_secret_file("wrong", "not it\n");
    const Outcome refused = run({"decrypt", sealed.string(), "-i", path("enc-aes256").string(),
                                 "--identity-passphrase-file", wrong.string(), "-o",
                                 path("bad").string()});
    EXPECT_EQ(refused.exit_code, 3) << describe(refused);
    EXPECT_NE(refused.err.find("wrong passphrase for this SSH key"), std::string::npos)
        << refused.err;
    EXPECT_FALSE(fs::exists(path("bad")));
    // On a terminal: asked once, by name, and the file opens.
    const ToolRun on_terminal = run_tool_on_terminal(
        {warpcrypt_binary().string(), "decrypt", sealed.string(), "-i",
         path("enc-aes256").string(), "-o", path("tty-out").string()},
        "pem pass phrase");
    ASSERT_EQ(on_terminal.status, 0) << on_terminal.out;
    EXPECT_NE(on_terminal.out.find("Passphrase for SSH key"), std::string::npos) << on_terminal.out;
    EXPECT_TRUE(read_file(path("tty-out")) == pattern(70000));
}

TEST_F(PemKeys, AFilePubThatIsAnotherKeysIsRefused) {
    const fs::path base = make_key("base", "ssh-keygen -q -t rsa -b 2048 -N '' -m PEM -f KEY");
    const fs::path key = make_key("enc", "openssl rsa -traditional -in " + base.string() +
                                             " -aes256 -passout 'pass:pem pass phrase' -out KEY "
                                             "2>/dev/null");
    make_key("other", "ssh-keygen -q -t rsa -b 2048 -N '' -f KEY");
    fs::copy_file(path("other.pub"), key.string() + ".pub");
    // A file to `base`'s key: FILE.pub names another key, so its tag matches no stanza and the
    // passphrase is never asked: the file does not open (exit 3).
    ASSERT_EQ(run_tool("age -R " + base.string() + ".pub -o " + path("to-base").string() + " " +
                       plain_.string())
                  .status,
              0);
    const Outcome unmatched = run({"decrypt", path("to-base").string(), "-i", key.string(),
                                   "-o", "-"});
    EXPECT_EQ(unmatched.exit_code, 3) << describe(unmatched);
    // A file to the other key: the tag matches, the key opens, and is not the one FILE.pub
    // names: exit 2, naming the mismatch.
    ASSERT_EQ(run_tool("age -R " + path("other.pub").string() + " -o " + path("to-other").string() +
                       " " + plain_.string())
                  .status,
              0);
    const Outcome mismatch = run({"decrypt", path("to-other").string(), "-i", key.string(),
                                  "--identity-passphrase-file", passphrase_.string(), "-o", "-"});
    EXPECT_EQ(mismatch.exit_code, 2) << describe(mismatch);
    EXPECT_NE(mismatch.err.find(".pub is not the public key of"), std::string::npos)
        << mismatch.err;
    EXPECT_TRUE(mismatch.out.empty());
}

TEST_F(PemKeys, WhatAgeDoesNotReadIsRefusedByName) {
    // A file with an ssh-rsa stanza, so that each key below is read and refused.
    make_key("rsa", "ssh-keygen -q -t rsa -b 2048 -N '' -f KEY");
    const fs::path file = path("f.age");
    ASSERT_EQ(run_tool("age -R " + path("rsa.pub").string() + " -o " + file.string() + " " +
                       plain_.string())
                  .status,
              0);
    struct Case {
        const char* name;
        const char* command;
        const char* says;
    };
    const Case cases[] = {
        {"p8enc", "openssl genpkey -algorithm rsa -pkeyopt rsa_keygen_bits:2048 -aes256 "
                  "-pass 'pass:pem pass phrase' -out KEY",
         "encrypted PKCS#8"},
        {"ec", "openssl ecparam -name prime256v1 -genkey -noout -out KEY", "of type ecdsa"},
        {"ecp8", "openssl genpkey -algorithm ec -pkeyopt ec_paramgen_curve:P-256 -out KEY",
         "a PEM private key of type EC"},
        {"small", "openssl genrsa -traditional -out KEY 1024 2>/dev/null", "1024 bits"},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.name);
        const fs::path key = make_key(c.name, c.command);
        const Outcome refused = run({"decrypt", file.string(), "-i", key.string(), "-o", "-"});
        EXPECT_EQ(refused.exit_code, 2) << describe(refused);
        EXPECT_NE(refused.err.find(c.says), std::string::npos) << refused.err;
    }
}

}  // namespace
}  // namespace warp::clitest
