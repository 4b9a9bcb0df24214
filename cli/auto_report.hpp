// How `warpcrypt backends` and `warpcrypt bench --calibrate` show auto's decision: predicted
// times, and the sizes at which its pick changes. The decision itself is the registry's
// (engine/registry.hpp); this only words it.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/registry.hpp"

namespace warp::cli {

// About three significant digits in a fitting unit: "850 ns", "12.3 us", "8.07 ms", "1.20 s".
std::string format_duration(double ns);

// One line: "x86-vaes at every size", or
// "scalar below 566 bytes, x86-aesni from 566 bytes".
std::string describe_ranges(const std::vector<AutoRange>& ranges);

// [{"from_bytes": 0, "backend": "scalar"}, {"from_bytes": 566, "backend": "x86-aesni"}]
nlohmann::ordered_json ranges_json(const std::vector<AutoRange>& ranges);

}  // namespace warp::cli
