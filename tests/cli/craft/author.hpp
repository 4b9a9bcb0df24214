// What the test-only authors of crafted files share (craft_*.cpp): their inputs, and the file
// key they keep, which a writer draws first from its randomness (SPEC 9; age.cpp likewise).
// Test code only: never installed.
#pragma once

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <iterator>
#include <span>
#include <string>
#include <vector>

#include "formats/common/kdf.hpp"
#include "formats/keys/key_kind.hpp"
#include "formats/options.hpp"

namespace warp::craft {

// The recipients of a recipients file, one per line.
inline std::vector<formats::Secret> recipients_in(const char* path) {
    std::ifstream list(path);
    return formats::decode_recipients_file_text(
        std::string((std::istreambuf_iterator<char>(list)), {}));
}

inline std::string all_of_stdin() {
    return std::string((std::istreambuf_iterator<char>(std::cin)), {});
}

// Randomness whose first draw of `key`'s size gives `key`, and the system's after that.
inline formats::RandomFn drawing_first(std::span<const std::uint8_t> key) {
    return [key = std::vector<std::uint8_t>(key.begin(), key.end()), first = true](
               std::uint8_t* out, std::size_t len) mutable {
        if (first && len == key.size()) std::copy(key.begin(), key.end(), out);
        else formats::system_random(out, len);
        first = false;
    };
}

}  // namespace warp::craft
