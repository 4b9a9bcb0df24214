#include "cli/commands/calibrate.hpp"

#include <time.h>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/auto_report.hpp"
#include "cli/bench_measure.hpp"
#include "cli/commands/common.hpp"
#include "cli/cost_model_store.hpp"
#include "cli/report.hpp"
#include "cli/text_columns.hpp"
#include "engine/error.hpp"
#include "engine/stream/chunk_pipeline.hpp"
#include "formats/file.hpp"

namespace warp::cli {
namespace {

// The two points of the fit bracket what warpcrypt does with an AEAD:
// - a short message in a call of its own (a key slot, a tiny file): nearly all per-call cost;
// - a pipeline batch in ONE call: as many chunks of the default chunk size as the chunk
//   pipeline puts in a batch (engine/stream/chunk_pipeline.hpp): nearly all throughput.
// Two points fix the line  t(bytes) = latency + bytes / throughput:
//   throughput = (large - small) / (t_large - t_small)
//   latency    = max(0, t_small - small / throughput)
constexpr std::size_t kSmallBytes = 64;
constexpr std::size_t kBatchChunkBytes = std::size_t{1} << formats::kDefaultChunkLog2;
constexpr std::size_t kBatchChunks =
    stream::layout_for(kBatchChunkBytes, 0, std::nullopt).chunks_per_batch;
constexpr std::size_t kLargeBytes = kBatchChunks * kBatchChunkBytes;
static_assert(kLargeBytes > 1000 * kSmallBytes, "the large call must be throughput-bound");
// Per cell: 20 ms of warm-up, then 80 ms measured. With a handful of backends and two AEADs
// the whole calibration takes a second or two of CPU time (the slowest cell, scalar AES-GCM on
// a batch, overshoots by at most one call: under 10 ms a MiB).
constexpr BenchTiming kCellTiming{0.08, 0.02};

struct CalibrationSuite {
    std::string_view name;  // as the output spells it
    Aead aead;
    std::size_t key_len;
};

// The file suites, at the key sizes files use.
constexpr CalibrationSuite kCalibrationSuites[] = {
    {"aes-256-gcm", Aead::aes_gcm, 32},
    {"chacha20-poly1305", Aead::chacha20_poly1305, 32},
};

struct Measured {
    const Backend* backend;
    const CalibrationSuite* suite;
    double small_ns;  // one call of kSmallBytes
    double large_ns;  // one call of batch_chunks(backend's AEAD) x kBatchChunkBytes
    CostEntry entry;  // the fit
};

// Chunks in the large call: a pipeline batch, by the pipeline's own layout rule at the size
// the backend asks for (a GPU wants bigger batches: AeadImpl::batch_bytes), so that its
// throughput is measured as the pipeline will see it.
std::size_t batch_chunks(const AeadImpl& impl) {
    return stream::layout_for(kBatchChunkBytes, impl.batch_bytes, std::nullopt).chunks_per_batch;
}

CostEntry fit(const Backend& backend, Aead aead, double small_ns, double large_ns,
              std::size_t large_bytes) {
    constexpr auto small = static_cast<double>(kSmallBytes);
    const auto large = static_cast<double>(large_bytes);
    // Noise can make the large call look no slower than the small one only on an absurdly fast
    // backend; the large call alone then bounds the throughput.
    const double bytes_per_ns =
        large_ns > small_ns ? (large - small) / (large_ns - small_ns) : large / large_ns;
    const double latency_ns = std::max(0.0, small_ns - small / bytes_per_ns);
    return {std::string(backend.name), aead, latency_ns, bytes_per_ns, CostSource::calibrated};
}

std::vector<Measured> measure_all() {
    std::vector<Measured> results;
    for (const Backend* backend : usable_backends())
        for (const CalibrationSuite& suite : kCalibrationSuites) {
            const AeadImpl* impl = backend->aead(suite.aead);
            if (impl == nullptr) continue;
            // A GPU whose device does not open is left out (and so left to its defaults,
            // which auto drops anyway when the device does not open).
            if (!open_device_once(*backend).usable) continue;
            const double small_ns =
                measure_aead_seal_batch(*impl, suite.key_len, 1, kSmallBytes, kCellTiming)
                    .ns_per_call();
            const std::size_t chunks = batch_chunks(*impl);
            const double large_ns = measure_aead_seal_batch(*impl, suite.key_len, chunks,
                                                            kBatchChunkBytes, kCellTiming)
                                        .ns_per_call();
            results.push_back({backend, &suite, small_ns, large_ns,
                               fit(*backend, suite.aead, small_ns, large_ns,
                                   chunks * kBatchChunkBytes)});
        }
    return results;
}

// Now, in UTC: "2025-01-31T12:00:00Z".
std::string utc_timestamp() {
    const time_t now = ::time(nullptr);
    tm utc{};
    ::gmtime_r(&now, &utc);
    char buffer[32];
    std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return buffer;
}

// 64 -> "64 B", 65536 -> "64 KiB", 1048576 -> "1 MiB"
std::string size_with_unit(std::size_t bytes) {
    if (bytes % (std::size_t{1} << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
    if (bytes % (std::size_t{1} << 10) == 0) return std::to_string(bytes >> 10) + " KiB";
    return std::to_string(bytes) + " B";
}

std::string fixed(double value, int decimals) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
    return buffer;
}

std::string to_text(const std::vector<Measured>& results, const CostModelOrigin& origin) {
    std::size_t name_width = std::string_view("backend").size();
    for (const Measured& m : results) name_width = std::max(name_width, m.backend->name.size());
    name_width += 2;
    constexpr std::size_t kColumn = 14;
    std::string text = "Calibration: seal time per call, one thread: " + size_with_unit(kSmallBytes) +
                       " in one call, and a pipeline batch (" + std::to_string(kBatchChunks) +
                       " chunks of " + size_with_unit(kBatchChunkBytes) + ") in one call.\n\n";
    text += pad_right("backend", name_width) + pad_right("suite", kSuiteColumnWidth) +
            pad_left(size_with_unit(kSmallBytes), kColumn) +
            pad_left(size_with_unit(kLargeBytes), kColumn) +
            pad_left("latency", kColumn) + pad_left("GB/s", kColumn) + "\n";
    for (const Measured& m : results)
        text += pad_right(std::string(m.backend->name), name_width) +
                pad_right(std::string(m.suite->name), kSuiteColumnWidth) +
                pad_left(format_duration(m.small_ns), kColumn) +
                pad_left(format_duration(m.large_ns), kColumn) +
                pad_left(format_duration(m.entry.latency_ns), kColumn) +
                pad_left(fixed(m.entry.bytes_per_ns, 2), kColumn) +
                (batch_chunks(*m.backend->aead(m.suite->aead)) != kBatchChunks
                     ? "  (batch: " + size_with_unit(batch_chunks(*m.backend->aead(m.suite->aead)) *
                                                 kBatchChunkBytes) + ", its preferred size)"
                     : "") +
                "\n";
    text += "\nCost model written to " + origin.path.string() + "\n";
    text += "auto now picks, by message size:\n";
    for (const CalibrationSuite& suite : kCalibrationSuites)
        text += "  " + pad_right(std::string(suite.name), kSuiteColumnWidth) +
                describe_ranges(auto_ranges(suite.aead)) + "\n";
    text += "  " + pad_right("cipher auto", kSuiteColumnWidth) +
            describe_ranges(auto_ranges(std::nullopt), true) + "\n";
    return text;
}

nlohmann::ordered_json to_json(const std::vector<Measured>& results, const CostModelOrigin& origin,
                               const CpuIdentity& cpu) {
    nlohmann::ordered_json measurements = nlohmann::ordered_json::array();
    for (const Measured& m : results)
        measurements.push_back({{"backend", m.backend->name},
                                {"suite", m.suite->name},
                                {"aead", aead_name(m.suite->aead)},
                                {"small_bytes", kSmallBytes},
                                {"small_ns", m.small_ns},
                                {"large_bytes", batch_chunks(*m.backend->aead(m.suite->aead)) *
                                                    kBatchChunkBytes},
                                {"large_ns", m.large_ns},
                                {"latency_ns", m.entry.latency_ns},
                                {"bytes_per_ns", m.entry.bytes_per_ns}});
    nlohmann::ordered_json picks = nlohmann::ordered_json::object();
    for (const CalibrationSuite& suite : kCalibrationSuites)
        picks[std::string(suite.name)] = ranges_json(auto_ranges(suite.aead));
    picks["cipher_auto"] = ranges_json(auto_ranges(std::nullopt));  // each range names its suite
    return {{"path", origin.path.string()},
            {"date", origin.date},
            {"cpu", {{"features", cpu.features}, {"model", cpu.model}}},
            {"measurements", measurements},
            {"auto", picks}};
}

}  // namespace

void run_calibration(bool json) {
    // Where it goes is settled first, so that a location that cannot be written fails at once,
    // not after the measuring.
    const std::filesystem::path path = cost_model_path();
    if (path.empty())
        throw CliError(ErrorCause::io, "nowhere to store the cost model: HOME is not set",
                       "set WARPCRYPT_COST_MODEL to the file to write");
    create_cost_model_directory(path);
    const CpuIdentity cpu = this_cpu();
    const std::vector<Measured> results = measure_all();

    StoredCostModel stored{std::string(warpcrypt_version()), cpu, utc_timestamp(), {}};
    for (const Measured& m : results) stored.model.set(m.entry);
    save_cost_model(path, stored);
    CostModelOrigin origin{path, true, stored.date, {}};
    install_cost_model_from(stored.model, origin);

    // The path comes from the environment and the CPU's name from /proc: escaped as every
    // text from outside is.
    const std::string text = json ? json_text(to_json(results, origin, cpu))
                                  : escape_lines(to_text(results, origin));
    if (std::fputs(text.c_str(), stdout) < 0 || std::fflush(stdout) != 0)
        throw Error(ErrorCause::io, "stdout: write error");
}

}  // namespace warp::cli
