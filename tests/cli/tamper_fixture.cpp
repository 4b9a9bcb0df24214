#include "tests/cli/tamper_fixture.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>

namespace warp::clitest {
namespace {

std::string lower(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
}

// `warpcrypt: error: ...` and at most one `warpcrypt: hint: ...` line.
void expect_error_lines(const Outcome& outcome, std::string_view mode) {
    std::istringstream lines(outcome.err);
    std::string line;
    int count = 0;
    while (std::getline(lines, line)) {
        if (count == 0) {
            EXPECT_TRUE(line.starts_with("warpcrypt: error: ")) << mode << ": " << outcome.err;
        } else {
            EXPECT_TRUE(line.starts_with("warpcrypt: hint: ")) << mode << ": " << outcome.err;
        }
        ++count;
    }
    EXPECT_GE(count, 1) << mode << ": no error message";
    EXPECT_LE(count, 2) << mode << ": more than an error and a hint: " << outcome.err;
}

void expect_words(const Outcome& outcome, const std::vector<std::string>& words,
                  std::string_view mode) {
    if (words.empty()) return;
    const auto text = lower(outcome.err);
    const bool found = std::any_of(words.begin(), words.end(), [&](const std::string& word) {
        return text.find(lower(word)) != std::string::npos;
    });
    std::string wanted;
    for (const auto& word : words) wanted += " '" + word + "'";
    EXPECT_TRUE(found) << mode << ": the error names none of" << wanted << ": " << outcome.err;
}

}  // namespace

void TamperTest::SetUp() {
    CliTest::SetUp();
    key_ = make_key("tamper.key");
    fs::create_directory(path("in"));
}

void TamperTest::seal(std::string plaintext) {
    plaintext_ = std::move(plaintext);
    sealed_ = encrypt_with_key(key_, plaintext_);
}

void TamperTest::expect_rejected(const std::string& bytes, int exit_code,
                                 const std::vector<std::string>& message_words,
                                 std::size_t max_released,
                                 const std::vector<std::string>& key_args) const {
    const std::vector<std::string> keys =
        key_args.empty() ? std::vector<std::string>{"-k", key_.string()} : key_args;
    const auto input = path("in") / "case.warp";
    write_file(input, bytes);

    // 1. To a new file: no file and no temporary file may remain.
    const auto fresh_dir = path("fresh");
    fs::remove_all(fresh_dir);
    fs::create_directory(fresh_dir);
    auto outcome = run(args({{"decrypt", input.string(), "-o", (fresh_dir / "out").string()}, keys}));
    EXPECT_EQ(outcome.exit_code, exit_code) << "decrypt to a new file: " << describe(outcome);
    expect_error_lines(outcome, "decrypt to a new file");
    EXPECT_NE(outcome.err.find("case.warp"), std::string::npos)
        << "the error does not name the input: " << outcome.err;
    expect_words(outcome, message_words, "decrypt to a new file");
    EXPECT_TRUE(list_dir(fresh_dir).empty()) << "left behind: " << ::testing::PrintToString(list_dir(fresh_dir));

    // 2. Over an existing file with -f: it stays as it was, and no temporary file remains.
    const auto existing_dir = path("existing");
    fs::remove_all(existing_dir);
    fs::create_directory(existing_dir);
    const auto target = existing_dir / "target";
    write_file(target, "precious");
    outcome = run(args({{"decrypt", input.string(), "-f", "-o", target.string()}, keys}));
    EXPECT_EQ(outcome.exit_code, exit_code) << "decrypt -f over a file: " << describe(outcome);
    EXPECT_EQ(list_dir(existing_dir), std::vector<std::string>{"target"});
    EXPECT_TRUE(read_file(target) == "precious") << "existing target changed";

    // 3. Streaming, stdin to stdout: only authenticated chunks (a prefix) may come out.
    Command stream;
    stream.args = args({{"decrypt"}, keys});
    stream.stdin_bytes = bytes;
    outcome = run(stream);
    EXPECT_EQ(outcome.exit_code, exit_code) << "decrypt stdin to stdout: " << describe(outcome);
    expect_error_lines(outcome, "decrypt stdin to stdout");
    expect_words(outcome, message_words, "decrypt stdin to stdout");
    EXPECT_LE(outcome.out.size(), max_released) << "released more than the authenticated chunks";
    EXPECT_TRUE(plaintext_.starts_with(outcome.out)) << "released bytes that are not plaintext";

    // 4. verify agrees.
    outcome = run(args({{"verify", input.string()}, keys}));
    EXPECT_EQ(outcome.exit_code, exit_code) << "verify: " << describe(outcome);
    EXPECT_TRUE(outcome.out.empty());
    EXPECT_EQ(list_dir(path("in")), std::vector<std::string>{"case.warp"});
}

}  // namespace warp::clitest
