#include "tests/cli/age_tool.hpp"

#include <cstdio>
#include <sstream>

namespace warp::clitest {

ToolRun run_tool(const std::string& command_line) {
    ToolRun result;
    FILE* pipe = ::popen((command_line + " 2>/dev/null").c_str(), "r");
    if (pipe == nullptr) return result;
    char buffer[4096];
    while (const std::size_t n = std::fread(buffer, 1, sizeof buffer, pipe))
        result.out.append(buffer, n);
    result.status = ::pclose(pipe);
    return result;
}

bool age_available() { return run_tool("age-keygen --version").status == 0; }

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

}  // namespace warp::clitest
