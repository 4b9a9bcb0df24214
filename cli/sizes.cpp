#include "cli/sizes.hpp"

#include <array>
#include <limits>
#include <string_view>

#include "cli/report.hpp"

namespace warp::cli {
namespace {

struct Suffix {
    std::string_view text;
    unsigned shift;
};
constexpr std::array kSuffixes = {
    Suffix{"", 0},     Suffix{"B", 0},     Suffix{"K", 10},   Suffix{"KiB", 10},
    Suffix{"k", 10},   Suffix{"M", 20},    Suffix{"MiB", 20}, Suffix{"G", 30},
    Suffix{"GiB", 30}, Suffix{"T", 40},    Suffix{"TiB", 40},
};

}  // namespace

std::uint64_t parse_size(const std::string& text, const std::string& flag) {
    constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
    auto bad = [&] {
        usage_error(flag + ": '" + text + "' is not a size",
                    "give a number of bytes, optionally with K, M, G or T (powers of 1024)");
    };
    std::size_t pos = 0;
    std::uint64_t value = 0;
    for (; pos < text.size() && text[pos] >= '0' && text[pos] <= '9'; ++pos) {
        auto digit = static_cast<std::uint64_t>(text[pos] - '0');
        if (value > (kMax - digit) / 10) bad();
        value = value * 10 + digit;
    }
    if (pos == 0) bad();
    std::string_view suffix = std::string_view(text).substr(pos);
    for (const Suffix& s : kSuffixes) {
        if (s.text != suffix) continue;
        if (s.shift != 0 && value > (kMax >> s.shift)) bad();
        return value << s.shift;
    }
    bad();
    return 0;
}

}  // namespace warp::cli
