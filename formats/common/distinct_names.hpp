// The distinct names of a file's key slots or stanzas (their types), for a one-line message.
// A crafted header can hold a thousand stanzas of a thousand types, each up to a line long:
// names are collected in a set (linear time, a name that is part of another one still
// counts), and the message shows a few of them, cut short, then how many more there are.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace warp::formats {

class DistinctNames {
public:
    static constexpr std::size_t kShown = 4;       // names a message lists
    static constexpr std::size_t kMaxChars = 32;   // of each, then "..."

    void add(std::string_view name) {
        if (seen_.emplace(name).second) order_.emplace_back(name);
    }
    std::size_t size() const noexcept { return order_.size(); }

    // "a, b, c, d and 95 more", first seen first.
    std::string text() const {
        std::string out;
        const std::size_t shown = order_.size() <= kShown + 1 ? order_.size() : kShown;
        for (std::size_t i = 0; i < shown; ++i) {
            if (i != 0) out += i + 1 == order_.size() ? " and " : ", ";
            const std::string& name = order_[i];
            out += name.size() <= kMaxChars ? name : name.substr(0, kMaxChars) + "...";
        }
        if (shown < order_.size())
            out += " and " + std::to_string(order_.size() - shown) + " more";
        return out;
    }

private:
    std::unordered_set<std::string> seen_;
    std::vector<std::string> order_;
};

}  // namespace warp::formats
