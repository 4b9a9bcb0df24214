#include "cli/auto_report.hpp"

#include "formats/file.hpp"

namespace warp::cli {

std::string describe_ranges(const std::vector<AutoRange>& ranges, bool with_cipher) {
    auto label = [&](const AutoRange& range) {
        const std::string backend(range.backend->name);
        return with_cipher ? std::string(formats::cipher_name(range.aead)) + " on " + backend
                           : backend;
    };
    if (ranges.size() == 1) return label(ranges.front()) + " at every size";
    std::string text;
    for (std::size_t i = 0; i < ranges.size(); ++i) {
        if (i > 0) text += ", ";
        text += label(ranges[i]);
        text += i + 1 < ranges.size() && ranges[i].from_bytes == 0
                    ? " below " + std::to_string(ranges[i + 1].from_bytes) + " bytes"
                    : " from " + std::to_string(ranges[i].from_bytes) + " bytes";
    }
    return text;
}

nlohmann::ordered_json ranges_json(const std::vector<AutoRange>& ranges) {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const AutoRange& range : ranges)
        list.push_back({{"from_bytes", range.from_bytes},
                        {"backend", range.backend->name},
                        {"suite", formats::cipher_name(range.aead)}});
    return list;
}

}  // namespace warp::cli
