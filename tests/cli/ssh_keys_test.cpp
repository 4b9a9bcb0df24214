// age's SSH keys (ssh-ed25519, ssh-rsa) through the real binary, against the reference tool
// (age 1.1.1 and ssh-keygen, Debian packages age and openssh-client): keys from ssh-keygen,
// files both ways at chunk edges, binary and armored, RSA at 2048 and 4096 bits, recipients as
// -r and as an authorized_keys file; a wrong key is exit 3 with nothing written; what is not
// supported (an RSA key under 2048 bits, a passphrase-protected private key, yet) and the warp
// format are refused with a message that names it.
#include <string>
#include <vector>

#include "tests/cli/age_tool.hpp"
#include "tests/cli/cli_fixture.hpp"

namespace warp::clitest {
namespace {

class SshKeys : public CliTest {
protected:
    void SetUp() override {
        CliTest::SetUp();
        ASSERT_TRUE(age_available()) << "age (Debian package age) is not on PATH: scripts/deps.sh";
        ASSERT_EQ(run_tool("ssh-keygen -q -t ed25519 -N '' -C me@host -f " + path("id").string()).status, 0)
            << "ssh-keygen (Debian package openssh-client) is needed: scripts/deps.sh";
        ASSERT_EQ(run_tool("ssh-keygen -q -t ed25519 -N '' -f " + path("other").string()).status, 0);
        recipient_ = lines_of(read_file(path("id.pub")))[0];
    }

    Outcome decrypt_with(const fs::path& file, const fs::path& identity, const fs::path& out) const {
        return run({"decrypt", file.string(), "-i", identity.string(), "-o", out.string()});
    }

    std::string recipient_;
};

TEST_F(SshKeys, AgeAndWarpcryptOpenEachOthersFilesAtChunkEdges) {
    for (const std::size_t size : {std::size_t{0}, std::size_t{1}, std::size_t{65536},
                                   std::size_t{65537}, std::size_t{200000}}) {
        const fs::path plain = make_file("plain", pattern(size, size));
        for (const bool armor : {false, true}) {
            SCOPED_TRACE(std::to_string(size) + (armor ? " armored" : " binary"));
            // age encrypts to the SSH public key file; warpcrypt opens with the private key.
            const fs::path by_age = path("by-age.age");
            fs::remove(by_age);
            ASSERT_EQ(run_tool(std::string("age ") + (armor ? "-a " : "") + "-R " +
                               path("id.pub").string() + " -o " + by_age.string() + " " +
                               plain.string())
                          .status,
                      0);
            const fs::path out = path("out");
            fs::remove(out);
            const Outcome opened = decrypt_with(by_age, path("id"), out);
            ASSERT_EQ(opened.exit_code, 0) << describe(opened);
            EXPECT_TRUE(read_file(out) == pattern(size, size));
            // warpcrypt encrypts to the authorized_keys line; age opens with the private key.
            const fs::path by_warp = path("by-warp.age");
            fs::remove(by_warp);
            std::vector<std::string> a = {"encrypt", plain.string(), "--format", "age", "-r",
                                          recipient_, "--no-pq-warning", "-o", by_warp.string()};
            if (armor) a.push_back("-a");
            const Outcome made = run(a);
            ASSERT_EQ(made.exit_code, 0) << describe(made);
            const fs::path age_out = path("age-out");
            fs::remove(age_out);
            ASSERT_EQ(run_tool("age -d -i " + path("id").string() + " -o " + age_out.string() +
                               " " + by_warp.string())
                          .status,
                      0);
            // age opens its output lazily: an empty plaintext leaves no file.
            EXPECT_TRUE((fs::exists(age_out) ? read_file(age_out) : "") == pattern(size, size));
        }
    }
}

TEST_F(SshKeys, RsaKeysOf2048And4096BitsWorkBothWays) {
    const fs::path plain = make_file("plain", pattern(65537));
    for (const char* bits : {"2048", "4096"}) {
        SCOPED_TRACE(bits);
        const fs::path key = path(std::string("rsa") + bits);
        ASSERT_EQ(run_tool(std::string("ssh-keygen -q -t rsa -b ") + bits + " -N '' -f " + key.string()).status, 0);
        const fs::path by_age = path(std::string("by-age-") + bits);
        ASSERT_EQ(run_tool("age -R " + key.string() + ".pub -o " + by_age.string() + " " + plain.string()).status, 0);
        const Outcome opened = decrypt_with(by_age, key, path(std::string("out-") + bits));
        ASSERT_EQ(opened.exit_code, 0) << describe(opened);
        EXPECT_TRUE(read_file(path(std::string("out-") + bits)) == pattern(65537));
        const fs::path by_warp = path(std::string("by-warp-") + bits);
        const Outcome made = run({"encrypt", plain.string(), "--format", "age", "-a", "-R",
                                  key.string() + ".pub", "--no-pq-warning", "-o", by_warp.string()});
        ASSERT_EQ(made.exit_code, 0) << describe(made);
        const fs::path age_out = path(std::string("age-out-") + bits);
        ASSERT_EQ(run_tool("age -d -i " + key.string() + " -o " + age_out.string() + " " + by_warp.string()).status, 0);
        EXPECT_TRUE(read_file(age_out) == pattern(65537));
        const Outcome info = run({"info", by_warp.string()});
        EXPECT_NE(info.out.find("stanza 1: ssh-rsa, classic: not post-quantum"), std::string::npos) << info.out;
        // The Ed25519 identity skips the RSA key's stanza: wrong key, nothing written.
        const Outcome wrong = decrypt_with(by_age, path("id"), path(std::string("wrong-") + bits));
        EXPECT_EQ(wrong.exit_code, 3) << describe(wrong);
        EXPECT_FALSE(fs::exists(path(std::string("wrong-") + bits)));
    }
}

TEST_F(SshKeys, AnAuthorizedKeysFileGivesEveryKeyInIt) {
    const fs::path keys = make_file("authorized_keys", "# the team\n\n" + recipient_ + "\n" +
                                                           read_file(path("other.pub")));
    const fs::path plain = make_file("plain", "for the team");
    const fs::path sealed = path("team.age");
    const Outcome made = run({"encrypt", plain.string(), "--format", "age", "-R", keys.string(),
                              "--no-pq-warning", "-o", sealed.string()});
    ASSERT_EQ(made.exit_code, 0) << describe(made);
    for (const char* identity : {"id", "other"}) {
        const fs::path out = path(std::string("out-") + identity);
        const Outcome opened = decrypt_with(sealed, path(identity), out);
        ASSERT_EQ(opened.exit_code, 0) << identity << ": " << describe(opened);
        EXPECT_EQ(read_file(out), "for the team");
    }
    const Outcome info = run({"info", sealed.string()});
    EXPECT_NE(info.out.find("stanza 2: ssh-ed25519, classic: not post-quantum"), std::string::npos)
        << info.out;
}

TEST_F(SshKeys, AWrongKeyIsExit3AndWritesNothing) {
    ASSERT_EQ(run_tool("age -R " + path("id.pub").string() + " -o " + path("f.age").string() +
                       " " + make_file("plain", "x").string())
                  .status,
              0);
    const Outcome outcome = decrypt_with(path("f.age"), path("other"), path("out"));
    EXPECT_EQ(outcome.exit_code, 3) << describe(outcome);
    EXPECT_FALSE(fs::exists(path("out")));
}

TEST_F(SshKeys, WhatIsNotSupportedIsRefusedByName) {
    const fs::path plain = make_file("plain", "x");
    ASSERT_EQ(run_tool("age -R " + path("id.pub").string() + " -o " + path("f.age").string() +
                       " " + plain.string())
                  .status,
              0);
    // RSA keys under 2048 bits, as age refuses them; and SSH key types age has no stanza for.
    ASSERT_EQ(run_tool("ssh-keygen -q -t rsa -b 1024 -N '' -f " + path("rsa").string()).status, 0);
    const Outcome rsa_recipient = run({"encrypt", plain.string(), "--format", "age", "-r",
                                       lines_of(read_file(path("rsa.pub")))[0], "-o",
                                       path("o1").string()});
    EXPECT_EQ(rsa_recipient.exit_code, 2) << describe(rsa_recipient);
    EXPECT_NE(rsa_recipient.err.find("an ssh-rsa key of 1024 bits, under the 2048"),
              std::string::npos)
        << rsa_recipient.err;
    const Outcome rsa_identity = decrypt_with(path("f.age"), path("rsa"), path("o2"));
    EXPECT_EQ(rsa_identity.exit_code, 2) << describe(rsa_identity);
    EXPECT_NE(rsa_identity.err.find("1024 bits"), std::string::npos) << rsa_identity.err;
    ASSERT_EQ(run_tool("ssh-keygen -q -t ecdsa -N '' -f " + path("ecdsa").string()).status, 0);
    const Outcome ecdsa = run({"encrypt", plain.string(), "--format", "age", "-r",
                               lines_of(read_file(path("ecdsa.pub")))[0], "-o", path("o5").string()});
    EXPECT_EQ(ecdsa.exit_code, 2) << describe(ecdsa);
    EXPECT_NE(ecdsa.err.find("an SSH key of type ecdsa-sha2-nistp256"), std::string::npos) << ecdsa.err;
    // A passphrase-protected private key without a terminal or --identity-passphrase-file, for
    // a file to that key (one to another key would not ask: LazyIdentities).
    ASSERT_EQ(run_tool("ssh-keygen -q -t ed25519 -N secret -f " + path("locked").string()).status, 0);
    ASSERT_EQ(run_tool("age -R " + path("locked.pub").string() + " -o " +
                       path("locked.age").string() + " " + plain.string())
                  .status,
              0);
    const Outcome locked = decrypt_with(path("locked.age"), path("locked"), path("o3"));
    EXPECT_EQ(locked.exit_code, 2) << describe(locked);
    EXPECT_NE(locked.err.find("--identity-passphrase-file"), std::string::npos) << locked.err;
    // The warp format has no SSH slot: it says to write an age file.
    const Outcome warp = run({"encrypt", plain.string(), "-r", recipient_, "--no-pq-warning",
                              "-o", path("o4.warp").string()});
    EXPECT_EQ(warp.exit_code, 2) << describe(warp);
    EXPECT_NE(warp.err.find("--format age"), std::string::npos) << warp.err;
    for (const char* out : {"o1", "o2", "o3", "o4.warp", "o5"}) EXPECT_FALSE(fs::exists(path(out)));
}

TEST_F(SshKeys, AKeysFileAsForgesServeItSkipsTheKeysAgeCannotUse) {
    // github.com/USER.keys: an ecdsa key, a security key's and a DSA key beside an Ed25519 one.
    // As age: each such line is skipped with a warning naming the file, line and type, and the
    // file goes to the rest; a file with nothing usable is an error (exit 2).
    ASSERT_EQ(run_tool("ssh-keygen -q -t ecdsa -N '' -f " + path("ecdsa").string()).status, 0);
    const std::string sk = "sk-ssh-ed25519@openssh.com AAAAGnNrLXNzaC1lZDI1NTE5QG9wZW5zc2guY29t"
                           "AAAAIEX/dQ0v4127bEo8eeG1EV0ApO2lWbSEWh/1nz2e9B3OAAAABHNzaDo= key";
    // A DSA key made once by ssh-keygen: OpenSSH 10 makes none any more, and forges still
    // serve old ones.
    const std::string dss =
        "ssh-dss "
        "AAAAB3NzaC1kc3MAAACBAIWKQNnHaTkgg0MOa2CsjZjV9TKXucKEEZzFGh3lDeaF0mp22WM2"
        "KNaN9gRsEJldd6eheb9doZmbBjVBnQCqKbpTjAjHGPiG4TuU/nqXE25+5UDVIkxoOLXdZR+u"
        "lEOs6telsjGicz6Jghj1nxdZVUizoHiE+gNq+Mx/imdV417PAAAAFQDrJxVbFGXaHtVXdpBB"
        "IzjB8OTdTQAAAIAOGoUdTFjxr1AfT6sSPJ8QQF2zYILgiNO3laAV8M1HrmW3kYwNWnUnrgpA"
        "W5KTD6sUsEfdpMu/g30nBgLBVEI3JcMsrKOz9mOVABJfczdksZ237rNCda/brA1ZEMuSyjDL"
        "WKmEb57UwNu4H9FCsDRO07u4hj7/O3tArQvKNMAGagAAAIAFtq/2QYYMR8uo1PlJgdMafo5p"
        "1eyoifWoPq9Fc0JGI85x37dtODsuX/XsmDMjVHD8tQzM12+AuB8p54LZC8fcNSriZuX98Jy1"
        "tA7x/iGbgunWd9O0jdi1ot3bq7QXR98ugcBAD5K9NIKAurl7qfPsV2gRv1Y+dTCQr39rzZuK"
        "7A=="
        " forge";
    const std::string ecdsa = lines_of(read_file(path("ecdsa.pub")))[0];
    const fs::path keys = make_file("user.keys", ecdsa + "\n" + recipient_ + "\n" + sk + "\n" +
                                                     dss + "\n");
    const fs::path plain = make_file("plain", "to the usable key");
    const Outcome made = run({"encrypt", plain.string(), "--format", "age", "-R", keys.string(),
                              "--no-pq-warning", "-o", path("f.age").string()});
    ASSERT_EQ(made.exit_code, 0) << describe(made);
    for (const std::string says :
         {"user.keys, line 1: skipped an SSH key of type ecdsa-sha2-nistp256",
          "user.keys, line 3: skipped an SSH key of type sk-ssh-ed25519@openssh.com",
          "user.keys, line 4: skipped an SSH key of type ssh-dss"})
        EXPECT_NE(made.err.find(says), std::string::npos) << made.err;
    const Outcome opened = decrypt_with(path("f.age"), path("id"), path("out"));
    ASSERT_EQ(opened.exit_code, 0) << describe(opened);
    EXPECT_EQ(read_file(path("out")), "to the usable key");
    // age 1.1.1 takes the same file and opens ours.
    EXPECT_EQ(run_tool("age -R " + keys.string() + " -o " + path("g.age").string() + " " +
                       plain.string() + " 2>/dev/null")
                  .status,
              0);
    EXPECT_EQ(run_tool("age -d -i " + path("id").string() + " " + path("f.age").string()).out,
              "to the usable key");
    // Nothing usable: an error naming the first such key; a malformed line stays an error.
    const fs::path only = make_file("only.keys", ecdsa + "\n" + sk + "\n");
    const Outcome none = run({"encrypt", plain.string(), "--format", "age", "-R", only.string(),
                              "-o", path("none.age").string()});
    EXPECT_EQ(none.exit_code, 2) << describe(none);
    EXPECT_NE(none.err.find("ecdsa-sha2-nistp256 at line 1"), std::string::npos) << none.err;
    const fs::path broken = make_file("broken.keys", recipient_ + "\necdsa-sha2-nistp256 !!\n");
    const Outcome malformed = run({"encrypt", plain.string(), "--format", "age", "-R",
                                   broken.string(), "-o", path("bad.age").string()});
    EXPECT_EQ(malformed.exit_code, 2) << describe(malformed);
    EXPECT_NE(malformed.err.find("line 2"), std::string::npos) << malformed.err;
    for (const char* out : {"none.age", "bad.age"}) EXPECT_FALSE(fs::exists(path(out)));
}

TEST_F(SshKeys, PassphraseProtectedPrivateKeysOpenWithTheirPassphrase) {
    // ssh-keygen's protection (bcrypt_pbkdf, aes256-ctr), Ed25519 and RSA; the passphrase from
    // a file, then on the terminal; age opens what warpcrypt wrote to the same key.
    const fs::path plain = make_file("plain", pattern(70000));
    const fs::path right = make_secret_file("right", "key pass phrase\n");
    const fs::path wrong = make_secret_file("wrong", "not it\n");
    for (const char* type : {"ed25519", "rsa"}) {
        SCOPED_TRACE(type);
        const fs::path key = path(std::string("locked-") + type);
        ASSERT_EQ(run_tool(std::string("ssh-keygen -q -t ") + type + " -N 'key pass phrase' -f " +
                           key.string())
                      .status,
                  0);
        const fs::path sealed = path(std::string("sealed-") + type);
        ASSERT_EQ(run_tool("age -R " + key.string() + ".pub -o " + sealed.string() + " " + plain.string()).status, 0);
        const fs::path out = path(std::string("out-") + type);
        const Outcome opened = run({"decrypt", sealed.string(), "-i", key.string(),
                                    "--identity-passphrase-file", right.string(), "-o", out.string()});
        ASSERT_EQ(opened.exit_code, 0) << describe(opened);
        EXPECT_TRUE(read_file(out) == pattern(70000));
        const fs::path bad_out = path(std::string("bad-") + type);
        const Outcome refused = run({"decrypt", sealed.string(), "-i", key.string(),
                                     "--identity-passphrase-file", wrong.string(), "-o",
                                     bad_out.string()});
        EXPECT_EQ(refused.exit_code, 3) << describe(refused);
        EXPECT_NE(refused.err.find("wrong passphrase for this SSH key"), std::string::npos) << refused.err;
        EXPECT_FALSE(fs::exists(bad_out));
        const fs::path tty_out = path(std::string("tty-") + type);
        const ToolRun on_terminal = run_tool_on_terminal(
            {warpcrypt_binary().string(), "decrypt", sealed.string(), "-i", key.string(), "-o",
             tty_out.string()},
            "key pass phrase");
        ASSERT_EQ(on_terminal.status, 0) << on_terminal.out;
        EXPECT_NE(on_terminal.out.find("Passphrase for SSH key"), std::string::npos) << on_terminal.out;
        EXPECT_TRUE(read_file(tty_out) == pattern(70000));
        // warpcrypt to the key; age opens it with the protected key, asking on its terminal.
        const fs::path by_warp = path(std::string("by-warp-") + type);
        ASSERT_EQ(run({"encrypt", plain.string(), "--format", "age", "-R", key.string() + ".pub",
                       "--no-pq-warning", "-o", by_warp.string()})
                      .exit_code,
                  0);
        const fs::path age_out = path(std::string("age-out-") + type);
        const ToolRun by_age = run_tool_on_terminal(
            {"age", "-d", "-i", key.string(), "-o", age_out.string(), by_warp.string()},
            "key pass phrase");
        ASSERT_EQ(by_age.status, 0) << by_age.out;
        EXPECT_TRUE(read_file(age_out) == pattern(70000));
    }
}

TEST_F(SshKeys, KeygenPrintsTheRecipientOfAnSshIdentity) {
    const Outcome y = run({"keygen", "-y", path("id").string()});
    ASSERT_EQ(y.exit_code, 0) << describe(y);
    EXPECT_TRUE(recipient_.starts_with(y.out.substr(0, y.out.size() - 1))) << y.out;
}

}  // namespace
}  // namespace warp::clitest
