#include "engine/cost_model.hpp"

#include <cmath>

#include "engine/error.hpp"

namespace warp {
namespace {

// Built-in defaults: ROUGH ORDERS OF MAGNITUDE for a current x86-64 core, one thread, not
// measurements of this machine. They exist so that `auto` makes a sensible choice before any
// calibration, and they are chosen to reproduce the registry's table order at every size: along
// the table, latency never decreases and throughput never increases, so an earlier backend is
// never predicted slower than a later one. `warpcrypt bench --calibrate` replaces all of them
// with this machine's numbers. A new backend adds its own line here (the unit tests check that
// every backend with an implementation has one).
//
// The one deliberate exception is a device backend (cuda): its per-call latency (launch and
// transfers) is far above the CPU backends', so scalar, later in the table, beats it on short
// messages; that is the point of the model.
//
// Throughputs in GB/s, which is bytes per ns, the unit of CostEntry::bytes_per_ns.
constexpr double kScalarAesGcmGBps = 0.13;  // bitsliced AES + constant-time GHASH
constexpr double kAesniAesGcmGBps = 3.5;    // AES-NI + PCLMULQDQ, 8 blocks per iteration
constexpr double kVaesAesGcmGBps = 6.0;     // VAES + VPCLMULQDQ, 16 blocks per iteration
constexpr double kScalarChaChaGBps = 0.7;
constexpr double kAvx2ChaChaGBps = 1.6;  // x86-avx2's kernels; x86-vaes runs the same ones
constexpr double kArmAesGcmGBps = 3.0;    // AES + PMULL on a Neoverse-class core
constexpr double kNeonChaChaGBps = 1.0;   // arm-neon's kernels; arm-crypto runs the same ones
// The GPU, end to end (host memory to host memory) before any calibration: set BELOW every CPU
// backend with AES instructions on purpose, so that an uncalibrated machine never moves work to
// the GPU when its CPU has AES (the public experiment: AES-NI ~80-170x faster than a small GPU
// at 4-16 KB), yet above the bitsliced scalar code, which a GPU does beat (6-14x there). Only
// `warpcrypt bench --calibrate`, which measures the real device, can make the GPU win over AES
// instructions.
constexpr double kCudaAesGcmGBps = 2.0;
constexpr double kCudaCallLatencyNs = 50'000;  // open-device cost excluded: paid once per run

// Per-call latencies in ns: what a short message costs beyond its bytes (argument checks,
// key-state loads, the tail). The bitsliced scalar AES works on several blocks at once even for
// a short message, hence its higher figure.
constexpr double kVectorCallLatencyNs = 100;
constexpr double kScalarAesGcmLatencyNs = 300;
constexpr double kScalarChaChaLatencyNs = 100;  // equal to x86-avx2's: the tie goes to the table

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

CostModel CostModel::builtin_defaults() {
    CostModel model;
    auto add = [&](std::string_view backend, Aead aead, double latency_ns, double gbps) {
        model.set({std::string(backend), aead, latency_ns, gbps, CostSource::builtin});
    };
    add("x86-vaes", Aead::aes_gcm, kVectorCallLatencyNs, kVaesAesGcmGBps);
    add("x86-vaes", Aead::chacha20_poly1305, kVectorCallLatencyNs, kAvx2ChaChaGBps);
    add("x86-aesni", Aead::aes_gcm, kVectorCallLatencyNs, kAesniAesGcmGBps);
    add("x86-avx2", Aead::chacha20_poly1305, kVectorCallLatencyNs, kAvx2ChaChaGBps);
    add("arm-crypto", Aead::aes_gcm, kVectorCallLatencyNs, kArmAesGcmGBps);
    add("arm-crypto", Aead::chacha20_poly1305, kVectorCallLatencyNs, kNeonChaChaGBps);
    add("arm-neon", Aead::chacha20_poly1305, kVectorCallLatencyNs, kNeonChaChaGBps);
    add("cuda", Aead::aes_gcm, kCudaCallLatencyNs, kCudaAesGcmGBps);
    add("scalar", Aead::aes_gcm, kScalarAesGcmLatencyNs, kScalarAesGcmGBps);
    add("scalar", Aead::chacha20_poly1305, kScalarChaChaLatencyNs, kScalarChaChaGBps);
    return model;
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
    // corrected against predict_ns itself so that the answer agrees with what select_backend
    // computes, rounding included.
    auto size = static_cast<std::uint64_t>(std::floor(break_even)) + 1;
    for (int step = 0; step < 64 && size > 0 && a_wins(size - 1); ++step) --size;
    for (int step = 0; step < 64 && !a_wins(size); ++step) ++size;
    return size;
}

}  // namespace warp
