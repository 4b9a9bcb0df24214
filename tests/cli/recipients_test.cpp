// X25519 slots through the real binary, with the reference tool's keys (age 1.1.1,
// tests/cli/age_tool.hpp): encrypt -r/-R to age-keygen's recipients, decrypt -i with its
// identity files; a wrong identity is exit 3; a file with a key-file slot, an X25519 slot and
// a passphrase slot opens with each; malformed recipients name the argument, or the file and
// line, with exit 2, and an identity given as a recipient is not echoed.
#include <sys/stat.h>

#include <string>
#include <vector>

#include "tests/cli/age_tool.hpp"
#include "tests/cli/cli_fixture.hpp"
#include "tests/cli/text_encodings.hpp"

namespace warp::clitest {
namespace {

class Recipients : public CliTest {
protected:
    void SetUp() override {
        CliTest::SetUp();
        ASSERT_TRUE(age_available())
            << "age-keygen (Debian package age) is not on PATH: scripts/deps.sh installs it";
    }

    // An identity made by age-keygen, and its recipient as age-keygen -y prints it.
    struct AgeKey {
        fs::path identity;
        std::string recipient;
    };
    AgeKey age_key(std::string_view name) const {
        AgeKey key{path(name), ""};
        EXPECT_EQ(run_tool("age-keygen -o " + key.identity.string()).status, 0);
        key.recipient = run_tool("age-keygen -y " + key.identity.string()).out;
        if (!key.recipient.empty()) key.recipient.pop_back();  // the newline
        EXPECT_TRUE(key.recipient.starts_with("age1")) << key.recipient;
        return key;
    }

    std::string decrypt_with(const std::vector<std::string>& keys, const fs::path& file,
                             int expected_exit = 0) const {
        const Outcome outcome = run(args({{"decrypt", file.string(), "-o", "-"}, keys}));
        EXPECT_EQ(outcome.exit_code, expected_exit) << describe(outcome);
        return outcome.out;
    }
};

TEST_F(Recipients, AgeKeygensIdentityOpensWhatWasEncryptedToItsRecipient) {
    const AgeKey key = age_key("me.txt");
    const std::string plaintext = pattern(300000);
    const fs::path plain = make_file("plain", plaintext);
    const Outcome sealed = run({"encrypt", plain.string(), "-r", key.recipient});
    ASSERT_EQ(sealed.exit_code, 0) << describe(sealed);
    EXPECT_TRUE(decrypt_with({"-i", key.identity.string()}, path("plain.warp")) == plaintext);
    // warpcrypt keygen -y prints what age-keygen -y prints for that identity.
    const Outcome recipient = run({"keygen", "-y", key.identity.string()});
    EXPECT_EQ(recipient.out, key.recipient + "\n");
}

TEST_F(Recipients, AWrongIdentityIsExit3AndWritesNothing) {
    const AgeKey key = age_key("me.txt"), other = age_key("other.txt");
    const fs::path plain = make_file("plain", "secret\n");
    ASSERT_EQ(run({"encrypt", plain.string(), "-r", key.recipient}).exit_code, 0);
    const Outcome outcome = run({"decrypt", path("plain.warp").string(), "-i",
                                 other.identity.string(), "-o", path("out").string()});
    EXPECT_EQ(outcome.exit_code, 3) << describe(outcome);
    EXPECT_NE(outcome.err.find("wrong key or passphrase, or an altered header"), std::string::npos)
        << outcome.err;
    EXPECT_FALSE(fs::exists(path("out")));
    // A key file is no identity either: the message says what the file needs.
    const fs::path key_file = make_key("k.key");
    const Outcome by_key = run({"decrypt", path("plain.warp").string(), "-k", key_file.string(),
                                "-o", "-"});
    EXPECT_EQ(by_key.exit_code, 3) << describe(by_key);
    EXPECT_NE(by_key.err.find("the file has 1 x25519 slot, and no X25519 identity was given"),
              std::string::npos)
        << by_key.err;
}

TEST_F(Recipients, KeyFileX25519AndPassphraseSlotsEachOpen) {
    const AgeKey key = age_key("me.txt");
    const fs::path key_file = make_key("k.key");
    const fs::path passphrase = make_secret_file("pw", "correct horse\n");
    const fs::path plain = make_file("plain", pattern(70000));
    const Outcome sealed =
        run(args({{"encrypt", plain.string(), "-k", key_file.string(), "-r", key.recipient,
                   "--passphrase-file", passphrase.string()},
                  fast_kdf}));
    ASSERT_EQ(sealed.exit_code, 0) << describe(sealed);
    const fs::path file = path("plain.warp");
    EXPECT_TRUE(decrypt_with({"-k", key_file.string()}, file) == pattern(70000));
    EXPECT_TRUE(decrypt_with({"-i", key.identity.string()}, file) == pattern(70000));
    EXPECT_TRUE(decrypt_with({"--passphrase-file", passphrase.string()}, file) == pattern(70000));
    const Outcome verify = run({"verify", file.string(), "-i", key.identity.string()});
    EXPECT_EQ(verify.exit_code, 0) << describe(verify);

    const Outcome info = run({"info", file.string()});
    ASSERT_EQ(info.exit_code, 0) << describe(info);
    EXPECT_NE(info.out.find("slot 1: key-file"), std::string::npos) << info.out;
    EXPECT_NE(info.out.find("slot 2: x25519, classic: not post-quantum (recipient not recorded: no fingerprint is stored"),
              std::string::npos)
        << info.out;
    EXPECT_NE(info.out.find("slot 3: passphrase (argon2id"), std::string::npos) << info.out;
    EXPECT_EQ(info.out.find(key.recipient), std::string::npos) << "info names the recipient";
    const Outcome json = run({"info", "--json", file.string()});
    EXPECT_NE(json.out.find("\"type\": \"x25519\""), std::string::npos) << json.out;
}

TEST_F(Recipients, RecipientsFilesAndSeveralIdentitiesInOneFile) {
    const AgeKey alice = age_key("alice.txt"), bob = age_key("bob.txt"), carol = age_key("carol.txt");
    const fs::path list = make_file("team.txt", "# the team\n" + alice.recipient + "\n\n" +
                                                    bob.recipient + "\n");
    const fs::path plain = make_file("plain", "for the team\n");
    // -R from a file and -R - from stdin, together.
    Command encrypt;
    encrypt.args = {"encrypt", plain.string(), "-R", list.string(), "-R", "-"};
    encrypt.stdin_bytes = carol.recipient + "\n";
    const Outcome sealed = run(encrypt);
    ASSERT_EQ(sealed.exit_code, 0) << describe(sealed);
    const fs::path file = path("plain.warp");
    for (const AgeKey* key : {&alice, &bob, &carol})
        EXPECT_EQ(decrypt_with({"-i", key->identity.string()}, file), "for the team\n");
    // One identity file holding someone else's identity and then Bob's: Bob's opens it.
    const fs::path both = make_file("both.txt", read_file(age_key("dave.txt").identity) +
                                                    "# Bob's\n" + read_file(bob.identity));
    ::chmod(both.c_str(), 0600);
    EXPECT_EQ(decrypt_with({"-i", both.string()}, file), "for the team\n");
    EXPECT_NE(run({"info", file.string()}).out.find("key slots:      3"), std::string::npos);
}

TEST_F(Recipients, AMalformedRecipientNamesTheArgument) {
    const fs::path plain = make_file("plain", "x");
    const Outcome outcome = run({"encrypt", plain.string(), "-r", "age1notarecipient"});
    EXPECT_EQ(outcome.exit_code, 2) << describe(outcome);
    EXPECT_NE(outcome.err.find("-r 'age1notarecipient': not an age recipient"), std::string::npos)
        << outcome.err;
    EXPECT_FALSE(fs::exists(path("plain.warp")));
    // A point of low order would make a slot anyone can open: refused, naming the slot.
    const Outcome low = run({"encrypt", plain.string(), "-r",
                             "age1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq5cu47z"});
    EXPECT_EQ(low.exit_code, 2) << describe(low);
    EXPECT_NE(low.err.find("key slot 1: the recipient is an X25519 point of low order"),
              std::string::npos)
        << low.err;
    EXPECT_FALSE(fs::exists(path("plain.warp")));
}

TEST_F(Recipients, AnIdentityGivenAsARecipientIsNotEchoed) {
    const AgeKey key = age_key("me.txt");
    const std::vector<std::string> lines = lines_of(read_file(key.identity));
    const std::string secret = lines.back();
    ASSERT_TRUE(secret.starts_with("AGE-SECRET-KEY-1"));
    const fs::path plain = make_file("plain", "x");
    const Outcome outcome = run({"encrypt", plain.string(), "-r", secret});
    EXPECT_EQ(outcome.exit_code, 2) << describe(outcome);
    EXPECT_NE(outcome.err.find("that holds an age identity (a secret key), not a recipient"),
              std::string::npos)
        << outcome.err;
    EXPECT_EQ(outcome.err.find(secret.substr(16)), std::string::npos) << "the secret was echoed";
}

TEST_F(Recipients, AMalformedRecipientsFileNamesTheFileAndLine) {
    const AgeKey key = age_key("me.txt");
    std::string broken = key.recipient;
    broken[10] = broken[10] == 'q' ? 'p' : 'q';
    const fs::path list = make_file("list.txt", "# ok\n" + key.recipient + "\n" + broken + "\n");
    const fs::path plain = make_file("plain", "x");
    const Outcome outcome = run({"encrypt", plain.string(), "-R", list.string()});
    EXPECT_EQ(outcome.exit_code, 2) << describe(outcome);
    EXPECT_NE(outcome.err.find(list.string() + ": not a valid recipients file: line 3:"),
              std::string::npos)
        << outcome.err;
    EXPECT_FALSE(fs::exists(path("plain.warp")));
    // -R - reads stdin, which cannot also be the input.
    Command both;
    both.args = {"encrypt", "-R", "-", "-o", path("out.warp").string()};
    both.stdin_bytes = key.recipient + "\n";
    const Outcome conflict = run(both);
    EXPECT_EQ(conflict.exit_code, 2) << describe(conflict);
    EXPECT_NE(conflict.err.find("-R - reads the recipients from stdin, which is also the input"),
              std::string::npos)
        << conflict.err;
}

TEST_F(Recipients, AnIdentityFileOthersCanReadGetsTheKeyFileWarning) {
    const AgeKey key = age_key("me.txt");
    const fs::path plain = make_file("plain", "x");
    ASSERT_EQ(run({"encrypt", plain.string(), "-r", key.recipient}).exit_code, 0);
    ASSERT_EQ(::chmod(key.identity.c_str(), 0644), 0);
    const Outcome outcome =
        run({"decrypt", path("plain.warp").string(), "-i", key.identity.string(), "-o", "-"});
    EXPECT_EQ(outcome.exit_code, 0) << describe(outcome);
    EXPECT_NE(outcome.err.find("identity file " + key.identity.string() + " can be read by other"),
              std::string::npos)
        << outcome.err;
}

TEST_F(Recipients, NoSecretIsEchoedWhateverItsDisguise) {
    const AgeKey key = age_key("me.txt");
    const std::string identity_text = read_file(key.identity);
    const std::string identity = lines_of(identity_text).back();
    const fs::path key_file = make_key("k.key");
    const std::string key_text = read_file(key_file);
    const std::string key_line = lines_of(key_text).back();
    ASSERT_TRUE(key_line.starts_with("warpcrypt-key-v1:"));
    const std::string raw_hex = key_line.substr(key_line.find(':') + 1);
    const fs::path plain = make_file("plain", "x");
    struct Case {
        std::string argument;
        std::string secret;  // what must not appear in the message
    };
    const std::vector<Case> cases = {
        {" " + identity, identity.substr(16)},          // a space in front
        {"\"" + identity + "\"", identity.substr(16)},  // quotes kept by a script
        {identity_text, identity.substr(16)},           // the whole identity file
        {"age-secret-key-1" + identity.substr(16), identity.substr(16)},  // lower case
        {key_line, raw_hex},                            // a key file's line
        {"  " + key_line, raw_hex},
        {key_text, raw_hex},                            // the whole key file
        {raw_hex, raw_hex},                             // a bare secret
    };
    for (const auto& format : {"warp", "age"}) {
        for (const Case& c : cases) {
            SCOPED_TRACE(std::string(format) + ": " + std::to_string(c.argument.size()) +
                         " characters");
            const Outcome outcome =
                run({"encrypt", plain.string(), "--format", format, "-r", c.argument});
            EXPECT_EQ(outcome.exit_code, 2) << describe(outcome);
            EXPECT_EQ(outcome.err.find(c.secret), std::string::npos)
                << "the secret was echoed: " << outcome.err;
            EXPECT_EQ(outcome.err.find(c.secret.substr(0, 20)), std::string::npos)
                << "part of the secret was echoed: " << outcome.err;
        }
    }
    EXPECT_FALSE(fs::exists(path("plain.warp")));
    EXPECT_FALSE(fs::exists(path("plain.age")));
}

TEST_F(Recipients, NonCanonicalRecipientsAreRefusedInBothFormats) {
    // The same point written otherwise: bit 255 set on a real recipient, and u = 9 + p (the
    // base point plus the field's prime). age's X25519 ignores bit 255 and reduces u, so the
    // key agreement would work, but the HKDF salt holds the recipient as written, which no
    // identity computes: the file would open for no one (exit 3 for its holder).
    const AgeKey key = age_key("me.txt");
    const Outcome decoded = run({"keygen", "-y", key.identity.string()});
    ASSERT_EQ(decoded.exit_code, 0);
    std::string point(32, '\0');
    {
        // The recipient's bytes, from its Bech32 (tested elsewhere): re-encoded below with
        // the test's own encoder, which must give the same text.
        const std::string charset = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";
        const std::string data = key.recipient.substr(4, key.recipient.size() - 4 - 6);
        std::uint32_t bits = 0;
        int count = 0;
        std::size_t at = 0;
        for (const char c : data) {
            bits = (bits << 5) | static_cast<std::uint32_t>(charset.find(c));
            count += 5;
            if (count >= 8) {
                count -= 8;
                point[at++] = static_cast<char>((bits >> count) & 0xff);
            }
        }
        ASSERT_EQ(at, 32u);
        ASSERT_EQ(bech32_lower("age", point), key.recipient);
    }
    std::string top_bit = point;
    top_bit[31] = static_cast<char>(top_bit[31] | 0x80);
    std::string nine_plus_p(32, '\xff');
    nine_plus_p[0] = static_cast<char>(0xed + 9);
    nine_plus_p[31] = 0x7f;
    std::string p_itself = nine_plus_p;
    p_itself[0] = static_cast<char>(0xed);
    const fs::path plain = make_file("plain", "x");
    for (const auto& format : {"warp", "age"}) {
        for (const std::string& bytes : {top_bit, nine_plus_p, p_itself}) {
            const std::string recipient = bech32_lower("age", bytes);
            SCOPED_TRACE(std::string(format) + " " + recipient);
            const Outcome outcome =
                run({"encrypt", plain.string(), "--format", format, "-r", recipient});
            EXPECT_EQ(outcome.exit_code, 2) << describe(outcome);
            EXPECT_NE(outcome.err.find("not in canonical form"), std::string::npos)
                << outcome.err;
            const fs::path list = make_file("list.txt", recipient + "\n");
            const Outcome from_file =
                run({"encrypt", plain.string(), "--format", format, "-R", list.string()});
            EXPECT_EQ(from_file.exit_code, 2) << describe(from_file);
        }
    }
    EXPECT_FALSE(fs::exists(path("plain.warp")));
    EXPECT_FALSE(fs::exists(path("plain.age")));
    // The canonical one still works.
    EXPECT_EQ(run({"encrypt", plain.string(), "-r", key.recipient}).exit_code, 0);
}

}  // namespace
}  // namespace warp::clitest
