// What reaches the terminal from outside warpcrypt (security review 3, item 6): an age file's
// first line holding raw C1 bytes (0x9b is CSI, 0x9d OSC on an 8-bit terminal) once went to
// stderr as they were, through info and decrypt. Everything printed that came from a file, a
// name, a plugin or the environment goes through one escaping (cli/report.hpp,
// escape_controls): C0, DEL, C1 raw or UTF-8-encoded, the bidirectional overrides, and bytes
// that are not UTF-8 are shown as \xNN; valid UTF-8 passes. (A plugin's words:
// Plugin.AFailingCrashingSilentOrBrokenPluginFailsCleanly.)
#include <string>
#include <vector>

#include "tests/cli/cli_fixture.hpp"

namespace warp::clitest {
namespace {

// No byte of `text` may steer a terminal: no C0 but the line feeds, no DEL, no byte of
// 0x80..0xff outside well-formed UTF-8, no UTF-8-encoded C1.
void expect_inert(const std::string& text) {
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        EXPECT_FALSE((c < 0x20 && c != '\n') || c == 0x7f)
            << "raw control byte " << int(c) << " at " << i << " in: " << text;
        EXPECT_LT(c, 0x80) << "a byte over 0x7f at " << i << " in: " << text;
    }
}

class TerminalText : public CliTest {};

TEST_F(TerminalText, RawC1BytesInAnAgeFilesFirstLineAreEscaped) {
    const fs::path key = make_key("k.key");
    const fs::path evil = make_file("evil.age", "age-encryption.org/\x9b"
                                                "2J\x9d"
                                                "0;owned\x07\xff\n-> X25519 abc\nxyz\n--- x\n");
    for (const std::vector<std::string>& command :
         {std::vector<std::string>{"info", evil.string()},
          std::vector<std::string>{"decrypt", evil.string(), "-k", key.string(), "-o", "-"}}) {
        SCOPED_TRACE(command[0]);
        const Outcome outcome = run(command);
        EXPECT_NE(outcome.exit_code, 0) << describe(outcome);
        expect_inert(outcome.err);
        EXPECT_NE(outcome.err.find("\\x9b2J\\x9d0;owned\\x07\\xff"), std::string::npos)
            << outcome.err;
    }
}

TEST_F(TerminalText, NamesAreEscapedInMessagesAndListingsAndValidUtf8Passes) {
    const fs::path key = make_key("k.key");
    // A right-to-left override would show "...gpj.exe" as "...exe.jpg"; a raw CSI; a stray byte.
    const std::string name = "photo\xe2\x80\xae" "gpj.exe-\x9b" "31m-\xc3";
    const fs::path sealed = make_file(name + ".warp", encrypt_with_key(key, "x"));
    const Outcome listed = run({"info", sealed.string()});
    ASSERT_EQ(listed.exit_code, 0) << describe(listed);
    expect_inert(listed.out);
    EXPECT_NE(listed.out.find("photo\\xe2\\x80\\xaegpj.exe-\\x9b31m-\\xc3.warp"), std::string::npos)
        << listed.out;
    const Outcome json = run({"info", "--json", sealed.string()});
    ASSERT_EQ(json.exit_code, 0) << describe(json);
    expect_inert(json.out);  // ASCII JSON: \uXXXX for what is not ASCII
    // The second decryption names the file it will not replace.
    ASSERT_EQ(run({"decrypt", sealed.string(), "-k", key.string()}).exit_code, 0);
    const Outcome refused = run({"decrypt", sealed.string(), "-k", key.string()});
    EXPECT_EQ(refused.exit_code, 2) << describe(refused);
    expect_inert(refused.err);
    EXPECT_NE(refused.err.find("photo\\xe2\\x80\\xaegpj.exe-\\x9b31m-\\xc3 already exists"),
              std::string::npos)
        << refused.err;
    // Valid UTF-8 that steers nothing is shown as it is.
    const fs::path plain = make_file("café ünïcødé.warp", encrypt_with_key(key, "x"));
    const Outcome shown = run({"info", plain.string()});
    EXPECT_NE(shown.out.find("café ünïcødé.warp"), std::string::npos) << shown.out;
}

}  // namespace
}  // namespace warp::clitest
