#include "tests/cli/age_tool.hpp"

#include <poll.h>
#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <csignal>
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

ToolRun run_tool_on_terminal(const std::vector<std::string>& args, const std::string& passphrase,
                             const std::string& prompt_word) {
    ToolRun result;
    int terminal = -1;
    const pid_t pid = ::forkpty(&terminal, nullptr, nullptr, nullptr);
    if (pid < 0) return result;
    if (pid == 0) {
        std::vector<char*> argv;
        for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        ::execvp(argv[0], argv.data());
        ::_exit(127);
    }
    // Answer each prompt once: a prompt is text with the prompt word since the last answer.
    std::string since_answer;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    for (;;) {
        pollfd p{terminal, POLLIN, 0};
        if (::poll(&p, 1, 100) > 0) {
            char buffer[4096];
            const ssize_t n = ::read(terminal, buffer, sizeof buffer);
            if (n <= 0) break;  // EIO once the child closed the terminal
            result.out.append(buffer, static_cast<std::size_t>(n));
            since_answer.append(buffer, static_cast<std::size_t>(n));
            std::string lower = since_answer;
            std::transform(lower.begin(), lower.end(), lower.begin(),
                           [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
            if (lower.find(prompt_word) != std::string::npos &&
                lower.find(':') != std::string::npos) {
                const std::string line = passphrase + "\n";
                if (::write(terminal, line.data(), line.size()) < 0) break;
                since_answer.clear();
            }
        }
        if (std::chrono::steady_clock::now() > deadline) {
            ::kill(pid, SIGKILL);
            break;
        }
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    ::close(terminal);
    result.status = status;
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
