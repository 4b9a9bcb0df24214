#include "engine/cost_model.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>

#include "engine/error.hpp"

namespace warp {
namespace {

// The largest size faster_from reports; anything beyond is "never" in practice (AES-GCM
// messages end at 2^36 bytes).
constexpr double kLargestCrossover = 9.0e18;

}  // namespace

std::string_view cost_source_name(CostSource source) {
    return source == CostSource::calibrated ? "calibrated" : "built-in";
}

std::string_view aead_name(Aead aead) {
    return aead == Aead::aes_gcm ? "aes-gcm" : "chacha20-poly1305";
}

std::optional<Aead> parse_aead_name(std::string_view name) {
    for (Aead aead : {Aead::aes_gcm, Aead::chacha20_poly1305})
        if (name == aead_name(aead)) return aead;
    return std::nullopt;
}

bool CostEntry::valid() const {
    return !backend.empty() && std::isfinite(latency_ns) && latency_ns >= 0 &&
           std::isfinite(bytes_per_ns) && bytes_per_ns > 0;
}

void CostModel::set(CostEntry entry) {
    if (!entry.valid())
        throw Error(ErrorCause::invalid_argument,
                    "cost model entry for '" + entry.backend + "' " +
                        std::string(aead_name(entry.aead)) +
                        " needs a finite latency >= 0 and a finite throughput > 0");
    for (CostEntry& existing : entries_)
        if (existing.backend == entry.backend && existing.aead == entry.aead) {
            existing = std::move(entry);
            return;
        }
    entries_.push_back(std::move(entry));
}

const CostEntry* CostModel::find(std::string_view backend, Aead aead) const {
    for (const CostEntry& entry : entries_)
        if (entry.backend == backend && entry.aead == aead) return &entry;
    return nullptr;
}

std::optional<double> CostModel::predict_ns(std::string_view backend, Aead aead,
                                            std::uint64_t bytes) const {
    const CostEntry* entry = find(backend, aead);
    if (entry == nullptr) return std::nullopt;
    return entry->predict_ns(bytes);
}

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
    // std::to_chars rather than snprintf's %f: the same digits, whatever LC_NUMERIC a host
    // program set (a library's host may use a decimal comma), and a tenth of the time (this
    // runs on every backend decision, a 1 KiB file's included).
    char buffer[64];
    const std::to_chars_result end = std::to_chars(buffer, buffer + sizeof buffer - 8, value,
                                                   std::chars_format::fixed, decimals);
    return std::string(buffer, end.ptr) + " " + unit.name;
}

std::optional<std::uint64_t> faster_from(const CostEntry& a, const CostEntry& b,
                                         bool a_wins_ties) {
    auto a_wins = [&](std::uint64_t bytes) {
        const double a_ns = a.predict_ns(bytes), b_ns = b.predict_ns(bytes);
        return a_ns < b_ns || (a_wins_ties && a_ns == b_ns);
    };
    // b(n) - a(n) = (b.latency - a.latency) + n * (1/b.throughput - 1/a.throughput): a line, so
    // a wins "from some size on" exactly when its slope is positive, i.e. a is faster per byte.
    const double gain_per_byte = 1.0 / b.bytes_per_ns - 1.0 / a.bytes_per_ns;
    if (gain_per_byte < 0) return std::nullopt;
    if (gain_per_byte == 0) return a_wins(0) ? std::optional<std::uint64_t>(0) : std::nullopt;
    if (a_wins(0)) return 0;
    const double break_even = (a.latency_ns - b.latency_ns) / gain_per_byte;
    if (!(break_even < kLargestCrossover)) return std::nullopt;
    // The first whole size past the break-even point (or at it, when a wins ties), then
    // corrected against predict_ns itself so that the answer agrees with what select()
    // (engine/selection.hpp) computes, rounding included.
    auto size = static_cast<std::uint64_t>(std::floor(break_even)) + 1;
    for (int step = 0; step < 64 && size > 0 && a_wins(size - 1); ++step) --size;
    for (int step = 0; step < 64 && !a_wins(size); ++step) ++size;
    return size;
}

}  // namespace warp
