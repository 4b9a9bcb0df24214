// The cost model behind `auto` (docs/design.md, "One registry"): how long one AEAD call of a given
// size takes on each backend, predicted from two numbers per (backend, AEAD):
//
//     predicted time (ns) = latency_ns + bytes / bytes_per_ns
//
// latency_ns is what a call costs whatever its size (argument checks, key-state loads, tail
// handling; for a GPU, the launch and the transfers' set-up); bytes_per_ns is the throughput
// once running (1 byte/ns = 1 GB/s). Two numbers are enough to say "this backend wins only
// above N bytes", which is the whole question when a backend with a large per-call cost and a
// huge throughput (CUDA) sits next to CPU code.
//
// This file is data only: no file I/O, no measurement, no global state. The built-in figures
// stand beside each backend's row in engine/registry.cpp; `warpcrypt bench --calibrate`
// measures this machine and the CLI stores and loads the result (cli/cost_model_store.*).
// engine/selection.cpp makes the choice.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/aead.hpp"

namespace warp {

// Where an entry's numbers came from.
enum class CostSource : std::uint8_t {
    builtin,     // the defaults below: rough orders of magnitude, the same on every machine
    calibrated,  // measured on this machine by `warpcrypt bench --calibrate`
};

std::string_view cost_source_name(CostSource source);  // "built-in", "calibrated"

// The names the cost-model file and `warpcrypt backends --json` use for an engine AEAD:
// "aes-gcm" (any key size) and "chacha20-poly1305".
std::string_view aead_name(Aead aead);
std::optional<Aead> parse_aead_name(std::string_view name);

// The two numbers of one (backend, AEAD), as a registry row states its built-in figures.
// bytes_per_ns == 0: the row has no figure (it does not implement that AEAD).
struct CostFigures {
    double latency_ns = 0;
    double bytes_per_ns = 0;
};

struct CostEntry {
    std::string backend;  // a Backend::name; entries naming no known backend are never consulted
    Aead aead = Aead::aes_gcm;
    double latency_ns = 0;    // per call, >= 0
    double bytes_per_ns = 1;  // > 0; numerically equal to GB/s
    CostSource source = CostSource::builtin;

    // Finite numbers in range: what CostModel::set accepts.
    bool valid() const;
    double predict_ns(std::uint64_t bytes) const {
        return latency_ns + static_cast<double>(bytes) / bytes_per_ns;
    }
};

// At most one entry per (backend, AEAD). Small (a dozen entries): lookups are linear.
class CostModel {
public:
    // Adds `entry`, replacing an earlier one for the same backend and AEAD. Throws
    // Error(invalid_argument) when !entry.valid(): a model never holds a negative latency or a
    // zero throughput, so predictions are always finite.
    void set(CostEntry entry);

    const CostEntry* find(std::string_view backend, Aead aead) const;
    // nullopt when the model has no entry for the pair.
    std::optional<double> predict_ns(std::string_view backend, Aead aead,
                                     std::uint64_t bytes) const;
    const std::vector<CostEntry>& entries() const { return entries_; }

private:
    std::vector<CostEntry> entries_;
};

// A predicted time in about three significant digits and a fitting unit: "850 ns", "12.3 us",
// "8.07 ms", "1.20 s" (what reasons and reports print).
std::string format_duration(double ns);

// The smallest message size from which `a` is predicted strictly faster than `b` at that size
// and at every larger one; 0 when `a` is faster everywhere; nullopt when there is no such size
// (`a` is not faster per byte, so large messages always favour `b` or tie). This is the
// "the GPU wins only above N bytes" number. With a_wins_ties, "at least as fast" instead of
// "strictly faster" (for a that comes first in the registry's table, which wins ties).
std::optional<std::uint64_t> faster_from(const CostEntry& a, const CostEntry& b,
                                         bool a_wins_ties = false);

}  // namespace warp
