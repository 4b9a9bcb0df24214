// Progress and quietness: --progress forces the one-line bar on stderr (redrawn with \r, no
// colour), --quiet silences everything but errors, and asking for both is a usage error.
#include <string>

#include "tests/cli/cli_fixture.hpp"

namespace warp::clitest {
namespace {

TEST_F(CliTest, ProgressForcedDrawsAOneLineBarWithoutColour) {
    const auto key = make_key("k");
    Command command;
    command.args = {"encrypt", "-k", key.string(), "--progress"};
    command.stdin_bytes = pattern(3 << 20);
    command.env = {{"NO_COLOR", "1"}};
    const auto outcome = run(command);
    ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
    EXPECT_NE(outcome.err.find('\r'), std::string::npos) << "no redrawn bar: " << outcome.err;
    EXPECT_NE(outcome.err.find("MiB"), std::string::npos) << outcome.err;
    EXPECT_EQ(outcome.err.find('\x1b'), std::string::npos) << "escape sequence in: " << outcome.err;
}

TEST_F(CliTest, NoProgressWhenStderrIsNotATerminal) {
    const auto key = make_key("k");
    Command command;
    command.args = {"encrypt", "-k", key.string()};
    command.stdin_bytes = pattern(3 << 20);
    const auto outcome = run(command);
    ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
    EXPECT_TRUE(outcome.err.empty()) << outcome.err;
}

TEST_F(CliTest, ProgressAndQuietTogetherIsAUsageError) {
    const auto key = make_key("k");
    Command command;
    command.args = {"encrypt", "-k", key.string(), "--progress", "--quiet"};
    command.stdin_bytes = "data";
    const auto outcome = run(command);
    EXPECT_EQ(outcome.exit_code, 2) << describe(outcome);
    EXPECT_TRUE(outcome.out.empty());
}

}  // namespace
}  // namespace warp::clitest
