#include "cli/report.hpp"

#include <cstdio>
#include <string_view>

namespace warp::cli {
namespace {

// A default hint for errors that arrive from formats/ or engine/ without one. Only causes
// where the user can do something useful get one.
std::string_view default_hint(ErrorCause cause) {
    switch (cause) {
    case ErrorCause::wrong_key:
        return "check the key file or passphrase; `warpcrypt info` lists the file's key slots";
    case ErrorCause::truncated:
        return "the data ends early: was the file copied or downloaded completely?";
    case ErrorCause::unsupported:
        return "the file may come from a newer warpcrypt; `warpcrypt info` shows its header";
    case ErrorCause::backend_unavailable:
        return "`warpcrypt backends` lists what runs here; omit --backend to pick automatically";
    default:
        return {};
    }
}

void print_line(std::string_view kind, std::string_view text) {
    std::string line = "warpcrypt: ";
    line += kind;
    line += text;
    line += '\n';
    std::fputs(line.c_str(), stderr);
}

}  // namespace

void usage_error(const std::string& message, std::string hint) {
    throw CliError(ErrorCause::usage, message, std::move(hint));
}

void rethrow_naming(const Error& error, const std::string& name) {
    std::string hint;
    if (const auto* cli_error = dynamic_cast<const CliError*>(&error)) hint = cli_error->hint();
    if (hint.empty()) hint = default_hint(error.cause());
    if (error.cause() == ErrorCause::io || error.cause() == ErrorCause::interrupted)
        throw CliError(error.cause(), error.what(), std::move(hint));
    throw CliError(error.cause(), name + ": " + error.what(), std::move(hint));
}

void print_error(const std::string& message, const std::string& hint) {
    print_line("error: ", message);
    if (!hint.empty()) print_line("hint: ", hint);
}

void print_error(const Error& error) {
    std::string hint;
    if (const auto* cli_error = dynamic_cast<const CliError*>(&error)) hint = cli_error->hint();
    if (hint.empty()) hint = default_hint(error.cause());
    print_error(error.what(), hint);
}

void print_warning(const std::string& text) { print_line("warning: ", text); }

void print_note(const std::string& text) { print_line("", text); }

std::string display_name(const std::string& path, bool is_output) {
    if (path.empty() || path == "-") return is_output ? "stdout" : "stdin";
    return path;
}

}  // namespace warp::cli
