// How warpcrypt talks to its user on stderr (docs/design.md, "cli/"):
// - errors: one line `warpcrypt: error: <what, naming the file>`, then, only when there is
//   something useful to do, `warpcrypt: hint: <what to do>`;
// - warnings: one line `warpcrypt: warning: <what>; <what to do>`, for something that works
//   but should not be so (a key file others can read); not an error, and not silenced;
// - notes (-v, verify's verdict): `warpcrypt: <text>`, silenced by --quiet.
// Everything goes to stderr: stdout carries only data (plaintext, ciphertext, info, key files).
#pragma once

#include <string>
#include <string_view>

#include "engine/error.hpp"

namespace warp::cli {

// The errors cli/ code throws: a warp::Error, whose hint line names the command's flags.
// Errors from formats/ and engine/ without a hint get one from their cause (report.cpp).
class CliError : public Error {
public:
    using Error::Error;
};

// Shorthands for the most common refusal: a usage error (exit 2) with a hint.
[[noreturn]] void usage_error(const std::string& message, std::string hint = {});

// Rethrows `error` with `name: ` in front of its message, so that errors from formats/ (which
// know nothing of file names) name the file. I/O errors already name their file and pass
// through unchanged. Keeps the hint, or adds the cause's default one.
[[noreturn]] void rethrow_naming(const Error& error, const std::string& name);

// Prints the error (and its hint) to stderr.
void print_error(const std::string& message, const std::string& hint = {});
void print_error(const Error& error);

// `warpcrypt: warning: <text>` on stderr.
void print_warning(const std::string& text);

// `warpcrypt: <text>` on stderr.
void print_note(const std::string& text);

// The one escaping of everything warpcrypt prints that came from outside it (a file name, a
// file's bytes, a key, a plugin's words, the environment, a cache file): what every message
// line, prompt and text listing goes through before it reaches a terminal. Valid UTF-8 passes,
// except what steers a terminal instead of being shown, written as \xNN byte by byte: C0
// controls and DEL; C1 controls, UTF-8-encoded or raw bytes (an 8-bit terminal takes a raw
// 0x9b for CSI, 0x9d for OSC); the bidirectional formatting characters (U+202A..U+202E,
// U+2066..U+2069), which reorder what is shown; and every byte that is not part of valid UTF-8.
// The result is one line: a line feed is \x0a.
std::string escape_controls(std::string_view text);
// The same for text of several lines (info's and backends' listings): each line escaped, the
// line feeds kept.
std::string escape_lines(std::string_view text);

// A JSON document (nlohmann's) as the commands print it: indented by 2, ASCII alone (\uXXXX
// for the rest, so that no C1 control reaches a terminal raw), and a string's bytes that are
// not UTF-8 replaced by U+FFFD rather than no output at all; a final line feed.
template <typename Json>
std::string json_text(const Json& document) {
    return document.dump(2, ' ', true, Json::error_handler_t::replace) + "\n";
}

// The name messages use for a path argument: "stdin"/"stdout" for `-`.
std::string display_name(const std::string& path, bool is_output);

}  // namespace warp::cli
