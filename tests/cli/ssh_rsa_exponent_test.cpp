// ssh-rsa public exponents (security review 3, item 3), through the real binary: age's rule
// (golang.org/x/crypto/ssh: odd, at least 3, at most 24 bits) for a recipient given with -r, an
// authorized_keys line in -R, and a private key given with -i. With e = 1 the stanza's body is
// the OAEP encoding itself, so anyone holding the file would unpad it to the file key; an even
// e makes a file nobody can open. Each is exit 2 naming the exponent, with nothing written.
#include <cstdint>
#include <string>
#include <vector>

#include "tests/cli/age_tool.hpp"
#include "tests/cli/cli_fixture.hpp"
#include "tests/cli/ssh_wire.hpp"
#include "tests/cli/text_encodings.hpp"

namespace warp::clitest {
namespace {

constexpr int kExitUsage = 2;

// Reads SSH strings off the front of a byte string.
struct WireReader {
    std::string_view rest;
    std::uint32_t u32() {
        std::uint32_t value = 0;
        for (int i = 0; i < 4; ++i) value = value << 8 | static_cast<unsigned char>(rest[i]);
        rest.remove_prefix(4);
        return value;
    }
    std::string string() {
        const std::uint32_t n = u32();
        std::string value(rest.substr(0, n));
        rest.remove_prefix(n);
        return value;
    }
};

std::string rsa_line(std::uint64_t e) { return rsa_public_line(e); }

// An OpenSSH private key file (unencrypted, as ssh-keygen -N '' writes it) with its public
// exponent changed to `e`, in the public key and the private section alike: a file that is
// consistent in itself, only the exponent breaks age's rule.
std::string with_exponent(const std::string& file, std::uint64_t e) {
    const std::string begin = "-----BEGIN OPENSSH PRIVATE KEY-----";
    const std::string end = "-----END OPENSSH PRIVATE KEY-----";
    const std::string blob =
        base64_decoded(file.substr(begin.size(), file.find(end) - begin.size()));
    const std::string magic("openssh-key-v1\0", 15);
    WireReader reader{std::string_view(blob).substr(magic.size())};
    const std::string cipher = reader.string(), kdf = reader.string(), options = reader.string();
    const std::uint32_t count = reader.u32();
    const std::string pub_bytes = reader.string(), priv_bytes = reader.string();
    WireReader pub{pub_bytes};
    WireReader priv{priv_bytes};
    const std::string type = pub.string();
    pub.string();  // e
    const std::string n = pub.string();
    const std::uint32_t check1 = priv.u32(), check2 = priv.u32();
    const std::string priv_type = priv.string(), priv_n = priv.string();
    priv.string();  // e
    const std::string d = priv.string(), iqmp = priv.string(), p = priv.string(),
                      q = priv.string(), comment = priv.string();
    const std::string new_e = mpint(big_endian(e));
    std::string section = big_endian(check1).substr(4) + big_endian(check2).substr(4) +
                          wire_string(priv_type) + wire_string(priv_n) + new_e + wire_string(d) +
                          wire_string(iqmp) + wire_string(p) + wire_string(q) +
                          wire_string(comment);
    for (char pad = 1; section.size() % 8 != 0; ++pad) section += pad;
    const std::string rebuilt = magic + wire_string(cipher) + wire_string(kdf) +
                                wire_string(options) + big_endian(count).substr(4) +
                                wire_string(wire_string(type) + new_e + wire_string(n)) +
                                wire_string(section);
    std::string text = begin + "\n";
    const std::string encoded = base64_padded(rebuilt);
    for (std::size_t at = 0; at < encoded.size(); at += 70) text += encoded.substr(at, 70) + "\n";
    return text + end + "\n";
}

class SshRsaExponents : public CliTest {
protected:
    Outcome encrypt_to(const std::vector<std::string>& keys) const {
        std::vector<std::string> a = {"encrypt", "--format", "age", "--no-pq-warning", "-o",
                                      path("out.age").string()};
        a.insert(a.end(), keys.begin(), keys.end());
        return run(a, "secret");
    }
    void expect_refused(const Outcome& outcome, const std::string& problem) const {
        EXPECT_EQ(outcome.exit_code, kExitUsage) << describe(outcome);
        EXPECT_NE(outcome.err.find("public exponent is " + problem), std::string::npos)
            << outcome.err;
        EXPECT_FALSE(fs::exists(path("out.age"))) << "written anyway";
        EXPECT_FALSE(fs::exists(path("out"))) << "written anyway";
    }
};

struct Bad {
    std::uint64_t e;
    const char* problem;
};
const Bad kBadExponents[] = {
    {1, "1, under the 3"},
    {2, "2, under the 3"},
    {65536, "65536, an even number"},
    {131074, "131074, an even number"},
    {(std::uint64_t{1} << 24) + 1, "of 25 bits, over the 24"},
    {(std::uint64_t{1} << 32) + 1, "of 33 bits, over the 24"},
};

TEST_F(SshRsaExponents, RecipientsAndAuthorizedKeysLinesWithABadExponentAreRefused) {
    for (const Bad& bad : kBadExponents) {
        SCOPED_TRACE(bad.e);
        expect_refused(encrypt_to({"-r", rsa_line(bad.e)}), bad.problem);
        const fs::path keys = make_file("keys", "# forge's list\n" + rsa_line(bad.e) + "\n");
        expect_refused(encrypt_to({"-R", keys.string()}), bad.problem);
    }
}

TEST_F(SshRsaExponents, TheExponentsAgeAcceptsStillWork) {
    for (const std::uint64_t e :
         {std::uint64_t{3}, std::uint64_t{65537}, (std::uint64_t{1} << 24) - 1}) {
        SCOPED_TRACE(e);
        fs::remove(path("out.age"));
        const Outcome made = encrypt_to({"-r", rsa_line(e)});
        EXPECT_EQ(made.exit_code, 0) << describe(made);
    }
}

TEST_F(SshRsaExponents, PrivateKeysWithABadExponentAreRefused) {
    ASSERT_EQ(run_tool("ssh-keygen -q -t rsa -b 2048 -N '' -f " + path("id").string()).status, 0)
        << "ssh-keygen (Debian package openssh-client) is needed: scripts/deps.sh";
    const std::string good = read_file(path("id"));
    // The file rewritten with its own exponent opens: the rewriting itself is sound.
    const fs::path same = make_secret_file("same", with_exponent(good, 65537));
    const fs::path sealed = path("sealed.age");
    ASSERT_EQ(run({"encrypt", "--format", "age", "-R", path("id.pub").string(), "-o",
                   sealed.string(), "--no-pq-warning", make_file("plain", "hello").string()})
                  .exit_code,
              0);
    const Outcome opened = run({"decrypt", sealed.string(), "-i", same.string(), "-o", "-"});
    ASSERT_EQ(opened.exit_code, 0) << describe(opened);
    EXPECT_EQ(opened.out, "hello");
    for (const Bad& bad : kBadExponents) {
        SCOPED_TRACE(bad.e);
        const fs::path key = make_secret_file("bad", with_exponent(good, bad.e));
        expect_refused(run({"decrypt", sealed.string(), "-i", key.string(), "-o",
                            path("out").string()}),
                       bad.problem);
    }
}

}  // namespace
}  // namespace warp::clitest
