// Telling the formats apart (detect.hpp): the one place that knows both formats' first bytes.
#include "formats/detect.hpp"

#include <string_view>

#include "formats/age/constants.hpp"
#include "formats/warp/constants.hpp"

namespace warp::formats {

Format detect(std::span<const std::uint8_t> first_bytes) {
    const std::string_view text(reinterpret_cast<const char*>(first_bytes.data()),
                                first_bytes.size());
    const std::string_view magic(reinterpret_cast<const char*>(warp_format::kMagic.data()),
                                 warp_format::kMagic.size());
    if (text.starts_with(magic)) return Format::warp;
    if (text.starts_with(age::kIntro)) return Format::age;
    // Armor, or what was meant as armor (a line before it, spaces inside its BEGIN line): the
    // armor reader's strict rules then say what is wrong, rather than "bad magic".
    const std::size_t start = text.find_first_not_of(" \t\r\n");
    if (start != std::string_view::npos && text.substr(start).starts_with("-----BEGIN"))
        return Format::age_armored;
    if (text.find(age::kArmorLabel) != std::string_view::npos) return Format::age_armored;
    return Format::unknown;
}

}  // namespace warp::formats
