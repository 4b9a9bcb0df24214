// Text files of keys, one reading of their lines: SPEC 8's key files, and age's identity and
// recipients files (formats/x25519_keys.hpp).
#pragma once

#include <cstddef>
#include <string_view>

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

}  // namespace warp::formats
