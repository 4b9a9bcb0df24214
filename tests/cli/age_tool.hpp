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

// Runs the reference tool with `args` (argv[0] first) on a pseudo-terminal of its own, as age
// needs to read a passphrase (from the terminal only): every prompt that asks for a passphrase
// is answered with `passphrase`. Its exit status, and what it wrote to the terminal.
// `prompt_word`: what marks a prompt to answer (lower case; a plugin's "pin", say).
ToolRun run_tool_on_terminal(const std::vector<std::string>& args, const std::string& passphrase,
                             const std::string& prompt_word = "passphrase");

// Whether age-keygen runs: the interop checks assert it (its absence fails, not skips).
bool age_available();

std::vector<std::string> lines_of(const std::string& text);

}  // namespace warp::clitest
