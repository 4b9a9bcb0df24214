#include "cli/report.hpp"

#include <algorithm>
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

// The length of the well-formed UTF-8 sequence at the front of `text` (RFC 3629: no overlong
// form, no surrogate, nothing past U+10FFFF) and its code point; 0 when there is none.
std::size_t utf8_sequence(std::string_view text, char32_t& code_point) {
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
    const unsigned char lead = byte(0);
    if (lead < 0x80) {
        code_point = lead;
        return 1;
    }
    std::size_t length = 0;
    unsigned char low = 0x80, high = 0xbf;  // the second byte's range
    if (lead >= 0xc2 && lead <= 0xdf) length = 2;
    else if (lead >= 0xe0 && lead <= 0xef) length = 3;
    else if (lead >= 0xf0 && lead <= 0xf4) length = 4;
    else return 0;
    if (lead == 0xe0) low = 0xa0;
    if (lead == 0xed) high = 0x9f;
    if (lead == 0xf0) low = 0x90;
    if (lead == 0xf4) high = 0x8f;
    if (text.size() < length || byte(1) < low || byte(1) > high) return 0;
    code_point = lead & (0x7f >> length);
    for (std::size_t i = 1; i < length; ++i) {
        if (i > 1 && (byte(i) & 0xc0) != 0x80) return 0;
        code_point = code_point << 6 | (byte(i) & 0x3f);
    }
    return length;
}

// Characters that steer a terminal or what it shows rather than being shown.
bool steers_the_terminal(char32_t c) {
    return c < 0x20 || c == 0x7f ||          // C0 controls, DEL
           (c >= 0x80 && c <= 0x9f) ||       // C1 controls: CSI (U+009B), OSC (U+009D), ...
           (c >= 0x202a && c <= 0x202e) ||   // bidirectional embeddings and overrides
           (c >= 0x2066 && c <= 0x2069);     // bidirectional isolates
}

}  // namespace

std::string escape_controls(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    while (!text.empty()) {
        char32_t code_point = 0;
        const std::size_t length = utf8_sequence(text, code_point);
        if (length == 0) {
            append_escaped_byte(out, static_cast<unsigned char>(text.front()));  // not UTF-8
            text.remove_prefix(1);
            continue;
        }
        if (steers_the_terminal(code_point))
            for (std::size_t i = 0; i < length; ++i)
                append_escaped_byte(out, static_cast<unsigned char>(text[i]));
        else
            out.append(text.substr(0, length));
        text.remove_prefix(length);
    }
    return out;
}

std::string escape_lines(std::string_view text) {
    std::string out;
    for (std::size_t start = 0; start <= text.size();) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        out += escape_controls(text.substr(start, end - start));
        if (end == text.size()) break;
        out += '\n';
        start = end + 1;
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
    std::string hint = error.hint();
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
    std::string hint = error.hint();
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
