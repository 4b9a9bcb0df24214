// The commands that inspect rather than transform: verify, info (text and --json), keygen,
// backends, --version and --help.
#include <sys/stat.h>

#include <functional>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>

#include "tests/cli/cli_fixture.hpp"

namespace warp::clitest {
namespace {

using nlohmann::json;

// The contract names what the JSON says but not its keys, so the checks look for a key whose
// name contains a word, anywhere in the document.
const json* find_key(const json& doc, std::string_view word) {
    if (doc.is_object()) {
        for (const auto& [key, value] : doc.items()) {
            if (key.find(word) != std::string::npos) return &value;
        }
        for (const auto& [key, value] : doc.items()) {
            if (const auto* found = find_key(value, word)) return found;
        }
    } else if (doc.is_array()) {
        for (const auto& value : doc) {
            if (const auto* found = find_key(value, word)) return found;
        }
    }
    return nullptr;
}

bool contains_value(const json& doc, const json& wanted) {
    if (doc == wanted) return true;
    if (doc.is_structured()) {
        for (const auto& value : doc) {
            if (contains_value(value, wanted)) return true;
        }
    }
    return false;
}

TEST_F(CliTest, VerifyReportsAuthenticAndWritesNothing) {
    const auto key = make_key("k");
    const auto sealed = make_file("v.warp", encrypt_with_key(key, pattern(123456)));
    const auto before = list_dir(dir_);

    auto outcome = run({"verify", sealed.string(), "-k", key.string()});
    ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
    EXPECT_TRUE(outcome.out.empty()) << "verify wrote to stdout";
    EXPECT_NE(outcome.err.find("warpcrypt: " + sealed.string() +
                               ": authentic (123456 bytes of plaintext)"),
              std::string::npos)
        << outcome.err;
    EXPECT_EQ(list_dir(dir_), before) << "verify created files";

    outcome = run({"verify", sealed.string(), "-k", key.string(), "--quiet"});
    EXPECT_EQ(outcome.exit_code, 0) << describe(outcome);
    EXPECT_TRUE(outcome.err.empty()) << "--quiet still printed: " << outcome.err;

    Command from_stdin;
    from_stdin.args = {"verify", "-k", key.string()};
    from_stdin.stdin_file = sealed;
    outcome = run(from_stdin);
    EXPECT_EQ(outcome.exit_code, 0) << describe(outcome);
    EXPECT_NE(outcome.err.find("authentic (123456 bytes of plaintext)"), std::string::npos)
        << outcome.err;
}

TEST_F(CliTest, InfoPrintsTheHeaderWithoutAKey) {
    const auto key = make_key("k");
    const auto secret = make_secret_file("pw", "pw\n");
    const auto input = make_file("plain", pattern(200000));
    auto outcome = run(args({{"encrypt", input.string(), "-o", path("i.warp").string(), "-k",
                              key.string(), "--passphrase-file", secret.string(), "--cipher",
                              "chacha20-poly1305"},
                             fast_kdf}));
    ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
    const auto sealed = path("i.warp");
    const auto header_size = layout::header_size(1, 1);

    outcome = run({"info", sealed.string()});
    ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
    EXPECT_NE(outcome.out.find("chacha20-poly1305"), std::string::npos) << outcome.out;
    EXPECT_NE(outcome.out.find(std::to_string(header_size)), std::string::npos)
        << "header size missing: " << outcome.out;
    EXPECT_NE(outcome.out.find("200000"), std::string::npos)
        << "plaintext size missing: " << outcome.out;

    outcome = run({"info", sealed.string(), "--json"});
    ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
    json doc;
    ASSERT_NO_THROW(doc = json::parse(outcome.out)) << outcome.out;
    SCOPED_TRACE(doc.dump(2));
    const auto* version = find_key(doc, "version");
    ASSERT_NE(version, nullptr);
    EXPECT_EQ(*version, 2);
    const auto* suite = find_key(doc, "suite");
    ASSERT_NE(suite, nullptr);
    EXPECT_TRUE(contains_value(*suite, "chacha20-poly1305"));
    EXPECT_TRUE(contains_value(doc, 65536) || contains_value(doc, 16)) << "chunk size missing";
    const auto* slots = find_key(doc, "slots");
    ASSERT_NE(slots, nullptr);
    ASSERT_TRUE(slots->is_array());
    EXPECT_EQ(slots->size(), 2u);
    EXPECT_TRUE(contains_value(*slots, 1)) << "passes (1) of the passphrase slot missing";
    EXPECT_TRUE(contains_value(*slots, 8) || contains_value(*slots, 8192))
        << "KDF memory (8 MiB) of the passphrase slot missing";
    EXPECT_TRUE(contains_value(doc, header_size)) << "header size missing";
    EXPECT_TRUE(contains_value(doc, 200000)) << "plaintext size missing";
}

TEST_F(CliTest, InfoOfSomethingElseIsRejected) {
    const auto junk = make_file("junk", std::string(500, 'x'));
    const auto outcome = run({"info", junk.string()});
    EXPECT_EQ(outcome.exit_code, 4) << describe(outcome);
    EXPECT_NE(outcome.err.find("junk"), std::string::npos) << outcome.err;
}

TEST_F(CliTest, KeygenWritesAPrivateKeyFileAndRefusesToOverwrite) {
    const auto key = path("new.key");
    auto outcome = run({"keygen", "-o", key.string()});
    ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
    struct stat st {};
    ASSERT_EQ(::stat(key.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u) << "key file mode " << std::oct << (st.st_mode & 0777);
    const auto text = read_file(key);
    EXPECT_TRUE(std::regex_search(text, std::regex("^warpcrypt-key-v1:[0-9a-f]{64}\n",
                                                   std::regex::multiline)))
        << text;

    outcome = run({"keygen", "-o", key.string()});
    EXPECT_EQ(outcome.exit_code, 2) << describe(outcome);
    EXPECT_NE(outcome.err.find("--force"), std::string::npos) << outcome.err;
    EXPECT_EQ(read_file(key), text) << "existing key file changed without -f";

    outcome = run({"keygen", "-o", key.string(), "-f"});
    ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
    EXPECT_NE(read_file(key), text) << "keygen -f did not write a new key";
    ASSERT_EQ(::stat(key.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u);
}

TEST_F(CliTest, KeygenToStdoutPrintsAUsableKey) {
    const auto outcome = run({"keygen"});
    ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
    EXPECT_TRUE(std::regex_search(outcome.out, std::regex("^warpcrypt-key-v1:[0-9a-f]{64}\n",
                                                          std::regex::multiline)))
        << outcome.out;
    const auto key = make_file("printed.key", outcome.out);
    const auto plaintext = pattern(1000);
    const auto sealed = make_file("x.warp", encrypt_with_key(key, plaintext));
    const auto opened = run({"decrypt", sealed.string(), "-o", "-", "-k", key.string()});
    ASSERT_EQ(opened.exit_code, 0) << describe(opened);
    EXPECT_TRUE(opened.out == plaintext);
    EXPECT_NE(run({"keygen"}).out, outcome.out) << "two keygens printed the same key";
}

TEST_F(CliTest, BackendsListsScalarAsUsable) {
    auto outcome = run({"backends"});
    ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
    EXPECT_TRUE(std::regex_search(outcome.out, std::regex("scalar.*yes"))) << outcome.out;
    EXPECT_NE(outcome.out.find("aes-256-gcm"), std::string::npos) << outcome.out;
    EXPECT_NE(outcome.out.find("chacha20-poly1305"), std::string::npos) << outcome.out;

    outcome = run({"backends", "--json", "--size", "4096"});
    ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
    json doc;
    ASSERT_NO_THROW(doc = json::parse(outcome.out)) << outcome.out;
    SCOPED_TRACE(doc.dump(2));
    // Some object names "scalar" and says it is usable.
    bool scalar_usable = false;
    std::function<void(const json&)> walk = [&](const json& node) {
        if (node.is_object() && contains_value(node, "scalar")) {
            for (const auto& [key, value] : node.items()) {
                if (key.find("usable") != std::string::npos && value == true) scalar_usable = true;
            }
        }
        if (node.is_structured()) {
            for (const auto& value : node) walk(value);
        }
    };
    walk(doc);
    EXPECT_TRUE(scalar_usable) << "no backend entry says scalar is usable";
    // Which backend auto picks, per suite, at the size asked for.
    EXPECT_TRUE(contains_value(doc, 4096)) << "--size 4096 not reflected";
    const auto* picks = find_key(doc, "auto");
    ASSERT_NE(picks, nullptr) << "no auto choice";
    const auto text = picks->dump();
    EXPECT_NE(text.find("aes-256-gcm"), std::string::npos) << text;
    EXPECT_NE(text.find("chacha20-poly1305"), std::string::npos) << text;
}

TEST_F(CliTest, UnusableBackendIsAUsageError) {
    const auto key = make_key("k");
    Command command;
    command.args = {"encrypt", "-k", key.string(), "--backend", "no-such-backend"};
    command.stdin_bytes = "data";
    const auto outcome = run(command);
    EXPECT_EQ(outcome.exit_code, 2) << describe(outcome);
    EXPECT_TRUE(outcome.out.empty());
}

TEST_F(CliTest, ScalarBackendCanBeForced) {
    const auto key = make_key("k");
    const auto plaintext = pattern(70000);
    Command command;
    command.args = {"encrypt", "-k", key.string(), "--backend", "scalar"};
    command.stdin_bytes = plaintext;
    const auto sealed = run(command);
    ASSERT_EQ(sealed.exit_code, 0) << describe(sealed);
    command.args = {"decrypt", "-k", key.string(), "--backend", "scalar"};
    command.stdin_bytes = sealed.out;
    const auto opened = run(command);
    ASSERT_EQ(opened.exit_code, 0) << describe(opened);
    EXPECT_TRUE(opened.out == plaintext);
}

TEST_F(CliTest, VersionAndHelp) {
    auto outcome = run({"--version"});
    EXPECT_EQ(outcome.exit_code, 0) << describe(outcome);
    EXPECT_NE(outcome.out.find("warpcrypt"), std::string::npos) << outcome.out;
    outcome = run({"--help"});
    EXPECT_EQ(outcome.exit_code, 0) << describe(outcome);
    for (const auto* command : {"encrypt", "decrypt", "verify", "info", "keygen", "backends"}) {
        EXPECT_NE(outcome.out.find(command), std::string::npos) << command << " not in --help";
        const auto sub = run({command, "--help"});
        EXPECT_EQ(sub.exit_code, 0) << command << " --help: " << describe(sub);
    }
    outcome = run({"encrypt", "--no-such-flag"});
    EXPECT_EQ(outcome.exit_code, 2) << describe(outcome);
}

}  // namespace
}  // namespace warp::clitest
