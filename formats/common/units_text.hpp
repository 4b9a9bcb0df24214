// Numbers as messages print them, so that no message retypes a constant.
#pragma once

#include <cstdint>
#include <string>

namespace warp::formats {

inline std::string bounds_text(std::uint64_t low, std::uint64_t high) {  // "1..16"
    return std::to_string(low) + ".." + std::to_string(high);
}

inline std::uint64_t mib_rounded_up(std::uint64_t kib) { return (kib + 1023) / 1024; }

inline std::string kib_text(std::uint64_t kib) {  // "8 KiB", "256 MiB", "4 GiB"
    if (kib % (1024 * 1024) == 0) return std::to_string(kib / (1024 * 1024)) + " GiB";
    if (kib % 1024 == 0) return std::to_string(kib / 1024) + " MiB";
    return std::to_string(kib) + " KiB";
}

}  // namespace warp::formats
