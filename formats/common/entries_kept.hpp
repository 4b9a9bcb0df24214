// What both formats' rekey does first: which of a header's entries (key slots, stanzas) stay
// once options.remove is taken out, refused before any key is tried.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/error.hpp"

namespace warp::formats {

// `word` is the format's name for an entry ("key slot", "stanza"). Throws Error(usage) for an
// index past the last entry or one given twice.
inline std::vector<bool> entries_kept(std::size_t count, std::span<const std::size_t> remove,
                                      std::string_view word) {
    const auto counted = [&](std::size_t n) {
        return std::to_string(n) + " " + std::string(word) + (n == 1 ? "" : "s");
    };
    std::vector<bool> kept(count, true);
    for (const std::size_t index : remove) {
        const std::string entry = std::string(word) + " " + std::to_string(index + 1);
        if (index >= count)
            throw Error(ErrorCause::usage,
                        "there is no " + entry + ": the file has " + counted(count));
        if (!kept[index]) throw Error(ErrorCause::usage, entry + " is removed twice");
        kept[index] = false;
    }
    return kept;
}

}  // namespace warp::formats
