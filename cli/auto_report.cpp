#include "cli/auto_report.hpp"

#include <cstdio>

namespace warp::cli {

std::string format_duration(double ns) {
    struct Unit {
        double ns;
        const char* name;
    };
    constexpr Unit kUnits[] = {{1e9, "s"}, {1e6, "ms"}, {1e3, "us"}, {1, "ns"}};
    Unit unit = kUnits[3];
    for (const Unit& candidate : kUnits)
        if (ns >= candidate.ns) {
            unit = candidate;
            break;
        }
    const double value = ns / unit.ns;
    const int decimals = unit.ns == 1 || value >= 100 ? 0 : value >= 10 ? 1 : 2;
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f %s", decimals, value, unit.name);
    return buffer;
}

std::string describe_ranges(const std::vector<AutoRange>& ranges) {
    if (ranges.size() == 1) return std::string(ranges.front().backend->name) + " at every size";
    std::string text;
    for (std::size_t i = 0; i < ranges.size(); ++i) {
        if (i > 0) text += ", ";
        text += std::string(ranges[i].backend->name);
        text += i + 1 < ranges.size() && ranges[i].from_bytes == 0
                    ? " below " + std::to_string(ranges[i + 1].from_bytes) + " bytes"
                    : " from " + std::to_string(ranges[i].from_bytes) + " bytes";
    }
    return text;
}

nlohmann::ordered_json ranges_json(const std::vector<AutoRange>& ranges) {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const AutoRange& range : ranges)
        list.push_back({{"from_bytes", range.from_bytes}, {"backend", range.backend->name}});
    return list;
}

}  // namespace warp::cli
