// The reference tool (age 1.1.1, Debian package `age`: age-keygen and age on PATH;
// scripts/deps.sh installs them), run beside warpcrypt by the tests of age's keys.
#pragma once

#include <string>
#include <vector>

namespace warp::clitest {

// A shell command line of the reference tool: its stdout and exit status (stderr dropped).
struct ToolRun {
    int status = -1;
    std::string out;
};
ToolRun run_tool(const std::string& command_line);

// Whether age-keygen runs: the interop checks assert it (its absence fails, not skips).
bool age_available();

std::vector<std::string> lines_of(const std::string& text);

}  // namespace warp::clitest
