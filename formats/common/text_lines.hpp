// Text files of keys, one reading of their lines: SPEC 8's key files, and age's identity and
// recipients files (formats/keys/).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "engine/error.hpp"

namespace warp::formats {

// Whether leading spaces and tabs are cut from a line: age's files allow an indent; a key
// file's line must start with its prefix.
enum class Indent { kept, trimmed };

// Calls `each(line, number)` for every line of `text` that is neither blank nor a "#"
// comment, with its end (CR, spaces, tabs) cut off; numbers count from 1.
template <typename Each>
void for_each_entry(std::string_view text, Indent indent, Each&& each) {
    auto is_blank = [](char c) { return c == ' ' || c == '\t'; };
    std::size_t number = 0;
    while (!text.empty()) {
        const std::size_t end = text.find('\n');
        std::string_view line = text.substr(0, end);
        text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
        ++number;
        while (!line.empty() && (line.back() == '\r' || is_blank(line.back())))
            line.remove_suffix(1);
        if (indent == Indent::trimmed)
            while (!line.empty() && is_blank(line.front())) line.remove_prefix(1);
        if (line.empty() || line.front() == '#') continue;
        each(line, number);
    }
}

// Every entry of a file of keys, decoded with `decode` (indent trimmed, as age allows); an
// error names the line. At least one entry, else Error(usage, `none`).
template <typename Decode>
auto decode_lines(std::string_view text, Decode&& decode, const char* none) {
    std::vector<decltype(decode(text))> keys;
    for_each_entry(text, Indent::trimmed, [&](std::string_view line, std::size_t number) {
        try {
            keys.push_back(decode(line));
        } catch (const Error& error) {
            throw Error(ErrorCause::usage, "line " + std::to_string(number) + ": " + error.what());
        }
    });
    if (keys.empty()) throw Error(ErrorCause::usage, none);
    return keys;
}

}  // namespace warp::formats
