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
        return "check the key file, identity or passphrase; `warpcrypt info` lists the file's "
               "key slots or stanzas";
    case ErrorCause::truncated:
        return "the data ends early: was the file copied or downloaded completely?";
    case ErrorCause::unsupported:
        return "the file may come from a newer warpcrypt or age; `warpcrypt info` shows its header";
    case ErrorCause::backend_unavailable:
        return "`warpcrypt backends` lists what runs here; omit --backend to pick automatically";
    default:
        return {};
    }
}

void append_escaped_byte(std::string& out, unsigned char byte) {
    static constexpr char kHex[] = "0123456789abcdef";
    out += "\\x";
    out += kHex[byte >> 4];
    out += kHex[byte & 0xf];
}

}  // namespace

std::string escape_controls(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto byte = static_cast<unsigned char>(text[i]);
        const bool c0_or_delete = byte < 0x20 || byte == 0x7f;
        // U+0080..U+009F in UTF-8 (C2 80..C2 9F): the C1 controls, CSI (U+009B) among them.
        const bool c1 = byte == 0xc2 && i + 1 < text.size() &&
                        static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
                        static_cast<unsigned char>(text[i + 1]) <= 0x9f;
        if (c0_or_delete) {
            append_escaped_byte(out, byte);
        } else if (c1) {
            append_escaped_byte(out, byte);
            append_escaped_byte(out, static_cast<unsigned char>(text[++i]));
        } else {
            out += text[i];
        }
    }
    return out;
}

namespace {

// Every line warpcrypt prints on stderr passes here: control characters in it (from a file
// name, say) are shown as \xNN, so that a crafted name cannot move the cursor, rewrite what
// the terminal shows, or split one error into several lines.
void print_line(std::string_view kind, std::string_view text) {
    std::string line = "warpcrypt: ";
    line += kind;
    line += escape_controls(text);
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
