// How `warpcrypt backends` and `warpcrypt bench --calibrate` show auto's decision: predicted
// times, and the sizes at which its pick changes. The decision itself is the engine's
// (engine/selection.hpp); this only words it.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/selection.hpp"

namespace warp::cli {

// One line: "x86-vaes at every size", or
// "scalar below 566 bytes, x86-aesni from 566 bytes"; with_cipher names the suite too
// ("aes-256-gcm on x86-vaes at every size"), for the decision with the cipher open.
std::string describe_ranges(const std::vector<AutoRange>& ranges, bool with_cipher = false);

// [{"from_bytes": 0, "backend": "scalar", "suite": "aes-256-gcm"}, ...]
nlohmann::ordered_json ranges_json(const std::vector<AutoRange>& ranges);

}  // namespace warp::cli
