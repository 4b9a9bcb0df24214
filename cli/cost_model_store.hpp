// Where the calibrated cost model lives between runs: a small JSON file in the user's cache
// directory, written by `warpcrypt bench --calibrate` and read at start-up by every command
// that lets `auto` choose a backend. (The model itself: engine/cost_model.hpp.)
//
// Location, first that applies:
//   $WARPCRYPT_COST_MODEL                      (any path; the tests point it at a temp dir)
//   $XDG_CACHE_HOME/warpcrypt/cost-model.json
//   $HOME/.cache/warpcrypt/cost-model.json
//
// The file (format 1):
//   {"format": 1, "warpcrypt_version": "0.1.0",
//    "cpu": {"features": "aesni pclmulqdq avx2 ...", "model": "AMD EPYC ..."},
//    "date": "2025-01-31T12:00:00Z",
//    "entries": [{"backend": "x86-vaes", "aead": "aes-gcm",
//                 "latency_ns": 95.0, "bytes_per_ns": 5.8}, ...]}
//
// Loading never fails: a missing, unreadable, malformed or stale file (written by another
// warpcrypt version, or for other CPU features or another CPU model: the numbers would describe
// other code or another machine) means the built-in defaults, with a note saying why. A cache
// must not be able to stop `encrypt` or `decrypt`.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <string_view>

#include "engine/cost_model.hpp"

namespace warp::cli {

inline constexpr int kCostModelFormat = 1;

// The machine the numbers hold for.
struct CpuIdentity {
    std::string features;  // CpuFeatures::describe() (after WARPCRYPT_CPU_MASK)
    std::string model;     // "model name" from /proc/cpuinfo; empty where there is none

    bool operator==(const CpuIdentity&) const = default;
};

// This machine's identity: cpu_features() and the first "model name" line of /proc/cpuinfo.
CpuIdentity this_cpu();

// The file's location (see the top of this file); empty when none of the three variables is
// set (no home directory).
std::filesystem::path cost_model_path();

// What the file holds.
struct StoredCostModel {
    std::string warpcrypt_version;
    CpuIdentity cpu;
    std::string date;  // ISO 8601, UTC, when it was measured
    CostModel model;   // calibrated entries
};

std::string to_json_text(const StoredCostModel& stored);
// Throws Error(bad_input) naming what is wrong when `text` is not a format-1 file: not JSON,
// another format, a field missing or of the wrong type, an unknown AEAD, a number out of range.
// Backend names are not checked: an entry for a backend this build lacks is harmless.
StoredCostModel parse_cost_model_text(std::string_view text);

// Where the model in use came from, for `warpcrypt backends`, -v notes and the calibrate report.
struct CostModelOrigin {
    std::filesystem::path path;  // the file looked for (empty: no cache location)
    bool calibrated = false;     // its numbers are in use; false: the built-in defaults
    std::string date;            // when calibrated: when it was measured
    std::string why_defaults;    // when not calibrated: why ("no file", "stale: ...")

    // One line: "calibrated 2025-01-31T12:00:00Z (/home/u/.cache/warpcrypt/cost-model.json)"
    // or "built-in defaults (no calibration at /home/...: ...)".
    std::string describe() const;
};

struct LoadedCostModel {
    CostModel model;  // the file's entries, or builtin_cost_model()
    CostModelOrigin origin;
};

// Reads and checks the file at `path` against this machine and this version. Never throws
// anything but std::bad_alloc: every failure gives the defaults and says why in origin.
// `identify_cpu` is called only when there is a file to check: every command that selects a
// backend loads the model at start-up, and most machines have no calibration file, so they
// never read /proc/cpuinfo.
LoadedCostModel load_cost_model(const std::filesystem::path& path,
                                const std::function<CpuIdentity()>& identify_cpu,
                                std::string_view warpcrypt_version);

// Creates the directory the file goes in, with its parents, when missing; throws Error(io)
// naming it. save_cost_model does this too; calibration calls it first, so that a location
// that cannot be written fails before the measuring starts.
void create_cost_model_directory(const std::filesystem::path& path);

// Writes the file atomically: a temporary file in the same directory, fsync, rename over
// `path`; mode 0644; missing parent directories are created. Throws Error(io) naming the path.
void save_cost_model(const std::filesystem::path& path, const StoredCostModel& stored);

}  // namespace warp::cli
