// The cost model (engine/cost_model.hpp) and how the registry's `auto` uses it: predictions,
// crossovers, the built-in defaults keeping table order, and a model that flips the choice.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "engine/cost_model.hpp"
#include "engine/cpu_features.hpp"
#include "engine/error.hpp"
#include "engine/registry.hpp"
#include "engine/selection.hpp"
#include "engine/x86/x86.hpp"

namespace warp {
namespace {

constexpr std::uint64_t kSizes[] = {0, 1, 16, 64, 1000, 4096, 65536, 1 << 20, 4u << 20,
                                    std::uint64_t{1} << 36};

CpuFeatures modern_cpu() {
    CpuFeatures cpu;
    cpu.aesni = cpu.pclmulqdq = cpu.avx2 = cpu.vaes = cpu.vpclmulqdq = true;
    return cpu;
}

CpuFeatures westmere_cpu() {
    CpuFeatures cpu;
    cpu.aesni = cpu.pclmulqdq = true;
    return cpu;
}

bool x86_built() {
    return x86::kAesGcmVaes != nullptr && x86::kAesGcmAesni != nullptr &&
           x86::kChaCha20Poly1305Avx2 != nullptr;
}

// The first CPU backend in table order that implements `aead` and runs on `cpu`: auto's choice
// before there was a cost model. Device backends (cuda) are left out: with the defaults they
// win only against the scalar code and only on large inputs (DefaultsPutTheGpuBetweenScalar...).
const Backend& first_in_table(Aead aead, const CpuFeatures& cpu) {
    for (const Backend& b : all_backends())
        if (b.aead(aead) != nullptr && b.open_device == nullptr && b.probe(cpu).usable) return b;
    throw std::logic_error("no backend");
}

// The backend the one decision picks for a fixed AEAD (engine/selection.hpp).
std::string_view picked(Aead aead, std::uint64_t bytes, const CpuFeatures& cpu,
                        const CostModel& model) {
    return select(aead, SizeHint::exactly(bytes), {}, cpu, model).backend->name;
}

CostEntry entry(std::string backend, Aead aead, double latency_ns, double bytes_per_ns) {
    return {std::move(backend), aead, latency_ns, bytes_per_ns, CostSource::calibrated};
}

// Restores the built-in defaults when a test that installs a model ends, however it ends.
struct InstalledModelGuard {
    ~InstalledModelGuard() { install_cost_model(builtin_cost_model()); }
};

TEST(CostModel, PredictsLatencyPlusBytesOverThroughput) {
    CostModel model;
    model.set(entry("scalar", Aead::aes_gcm, 250, 0.5));
    EXPECT_DOUBLE_EQ(*model.predict_ns("scalar", Aead::aes_gcm, 0), 250);
    EXPECT_DOUBLE_EQ(*model.predict_ns("scalar", Aead::aes_gcm, 1000), 2250);
    EXPECT_FALSE(model.predict_ns("scalar", Aead::chacha20_poly1305, 1000));
    EXPECT_FALSE(model.predict_ns("x86-aesni", Aead::aes_gcm, 1000));
}

TEST(CostModel, SetReplacesTheEntryForTheSamePair) {
    CostModel model;
    model.set(entry("scalar", Aead::aes_gcm, 250, 0.5));
    model.set(entry("scalar", Aead::chacha20_poly1305, 100, 0.7));
    model.set(entry("scalar", Aead::aes_gcm, 10, 2));
    ASSERT_EQ(model.entries().size(), 2u);
    EXPECT_DOUBLE_EQ(model.find("scalar", Aead::aes_gcm)->latency_ns, 10);
}

TEST(CostModel, RejectsNumbersThatCannotPredict) {
    CostModel model;
    for (const CostEntry& bad :
         {entry("scalar", Aead::aes_gcm, -1, 1), entry("scalar", Aead::aes_gcm, 0, 0),
          entry("scalar", Aead::aes_gcm, 0, -2), entry("", Aead::aes_gcm, 0, 1),
          entry("scalar", Aead::aes_gcm, std::numeric_limits<double>::infinity(), 1),
          entry("scalar", Aead::aes_gcm, 0, std::numeric_limits<double>::quiet_NaN())}) {
        EXPECT_FALSE(bad.valid());
        EXPECT_THROW(model.set(bad), Error);
    }
    EXPECT_TRUE(model.entries().empty());
}

TEST(CostModel, AeadNamesRoundTrip) {
    for (Aead aead : {Aead::aes_gcm, Aead::chacha20_poly1305})
        EXPECT_EQ(parse_aead_name(aead_name(aead)), aead);
    EXPECT_FALSE(parse_aead_name("aes-256-gcm"));
}

TEST(CostModel, FasterFromIsTheCrossover) {
    // slow start, fast per byte vs quick start, slow per byte:
    // 1000 + n/4 < 10 + n/0.5  <=>  n > 990 / 1.75 = 565.7
    const CostEntry big = entry("big", Aead::aes_gcm, 1000, 4);
    const CostEntry small = entry("small", Aead::aes_gcm, 10, 0.5);
    EXPECT_EQ(faster_from(big, small), 566u);
    EXPECT_LT(big.predict_ns(566), small.predict_ns(566));
    EXPECT_GE(big.predict_ns(565), small.predict_ns(565));
    EXPECT_FALSE(faster_from(small, big)) << "slower per byte never wins for good";

    const CostEntry better = entry("better", Aead::aes_gcm, 5, 8);
    EXPECT_EQ(faster_from(better, small), 0u);
    const CostEntry same_speed_quicker = entry("same", Aead::aes_gcm, 5, 0.5);
    EXPECT_EQ(faster_from(same_speed_quicker, small), 0u);
    EXPECT_FALSE(faster_from(small, small)) << "a tie is not a win";
    EXPECT_EQ(faster_from(small, small, /*a_wins_ties=*/true), 0u);

    // 5000 + n/8 vs 500 + n/2: equal at exactly n = 12000.
    const CostEntry wide = entry("wide", Aead::aes_gcm, 5000, 8);
    const CostEntry narrow = entry("narrow", Aead::aes_gcm, 500, 2);
    EXPECT_DOUBLE_EQ(wide.predict_ns(12000), narrow.predict_ns(12000));
    EXPECT_EQ(faster_from(wide, narrow), 12001u);
    EXPECT_EQ(faster_from(wide, narrow, /*a_wins_ties=*/true), 12000u);
}

TEST(CostModel, DefaultsCoverEveryImplementedBackend) {
    const CostModel defaults = builtin_cost_model();
    for (const Backend& b : all_backends())
        for (Aead aead : {Aead::aes_gcm, Aead::chacha20_poly1305})
            if (b.aead(aead) != nullptr) {
                EXPECT_NE(defaults.find(b.name, aead), nullptr)
                    << b.name << " " << aead_name(aead) << " has no built-in cost";
            }
    for (const CostEntry& e : defaults.entries()) EXPECT_EQ(e.source, CostSource::builtin);
}

// With the defaults, no backend later in the table is predicted faster than an earlier one at
// any size: the defaults keep the registry's order of preference.
TEST(CostModel, DefaultsKeepTableOrderAtEverySize) {
    const CostModel defaults = builtin_cost_model();
    const auto backends = all_backends();
    for (Aead aead : {Aead::aes_gcm, Aead::chacha20_poly1305})
        for (std::size_t i = 0; i < backends.size(); ++i)
            for (std::size_t j = i + 1; j < backends.size(); ++j) {
                if (backends[i].open_device != nullptr || backends[j].open_device != nullptr)
                    continue;  // the device backend's place is checked below
                const CostEntry* earlier = defaults.find(backends[i].name, aead);
                const CostEntry* later = defaults.find(backends[j].name, aead);
                if (earlier == nullptr || later == nullptr) continue;
                EXPECT_FALSE(faster_from(*later, *earlier))
                    << backends[j].name << " overtakes " << backends[i].name;
                EXPECT_GE(earlier->bytes_per_ns, later->bytes_per_ns);
                EXPECT_LE(earlier->latency_ns, later->latency_ns);
            }

    for (const CpuFeatures& cpu : {modern_cpu(), westmere_cpu(), CpuFeatures{}})
        for (Aead aead : {Aead::aes_gcm, Aead::chacha20_poly1305}) {
            for (std::uint64_t size : kSizes)
                EXPECT_EQ(picked(aead, size, cpu, defaults),
                          first_in_table(aead, cpu).name)
                    << aead_name(aead) << " at " << size << " bytes";
            const std::vector<AutoRange> ranges = auto_ranges(aead, {}, cpu, defaults);
            ASSERT_EQ(ranges.size(), 1u);
            EXPECT_EQ(ranges[0].backend->name, first_in_table(aead, cpu).name);
        }
}

// Before calibration the GPU must never take work from a CPU with AES instructions, but it
// does beat the bitsliced scalar code on inputs of a few chunks and more.
TEST(CostModel, DefaultsPutTheGpuBetweenScalarAndAesInstructions) {
    const CostModel defaults = builtin_cost_model();
    const CostEntry* gpu = defaults.find("cuda", Aead::aes_gcm);
    ASSERT_NE(gpu, nullptr);
    for (const char* cpu_backend : {"x86-vaes", "x86-aesni", "arm-crypto"}) {
        const CostEntry* cpu = defaults.find(cpu_backend, Aead::aes_gcm);
        ASSERT_NE(cpu, nullptr) << cpu_backend;
        EXPECT_FALSE(faster_from(*gpu, *cpu)) << "cuda overtakes " << cpu_backend;
    }
    const std::optional<std::uint64_t> over_scalar =
        faster_from(*gpu, *defaults.find("scalar", Aead::aes_gcm));
    ASSERT_TRUE(over_scalar.has_value());
    EXPECT_GT(*over_scalar, std::uint64_t{4} << 10);
    EXPECT_LT(*over_scalar, std::uint64_t{64} << 10);
}

// A model in which scalar starts quicker and x86-aesni runs faster per byte: auto switches at
// the predicted crossover, and auto_ranges says where.
TEST(AutoSelection, FlipsAtThePredictedCrossover) {
    if (!x86_built()) return;  // needs a second AES-GCM backend (x86-64 builds)
    CostModel model;
    model.set(entry("scalar", Aead::aes_gcm, 10, 0.5));
    model.set(entry("x86-aesni", Aead::aes_gcm, 1000, 4));
    const CpuFeatures cpu = westmere_cpu();
    const std::uint64_t crossover = *faster_from(*model.find("x86-aesni", Aead::aes_gcm),
                                                 *model.find("scalar", Aead::aes_gcm));
    EXPECT_EQ(crossover, 566u);
    EXPECT_EQ(picked(Aead::aes_gcm, 0, cpu, model), "scalar");
    EXPECT_EQ(picked(Aead::aes_gcm, crossover - 1, cpu, model), "scalar");
    EXPECT_EQ(picked(Aead::aes_gcm, crossover, cpu, model), "x86-aesni");
    EXPECT_EQ(picked(Aead::aes_gcm, 1 << 20, cpu, model), "x86-aesni");

    const std::vector<AutoRange> ranges = auto_ranges(Aead::aes_gcm, {}, cpu, model);
    ASSERT_EQ(ranges.size(), 2u);
    EXPECT_EQ(ranges[0].from_bytes, 0u);
    EXPECT_EQ(ranges[0].backend->name, "scalar");
    EXPECT_EQ(ranges[1].from_bytes, crossover);
    EXPECT_EQ(ranges[1].backend->name, "x86-aesni");
}

// Three candidates, each best in one size band: the ranges follow the lower envelope.
TEST(AutoSelection, RangesFollowEachChangeOfWinner) {
    if (!x86_built()) return;
    CostModel model;
    model.set(entry("scalar", Aead::aes_gcm, 10, 0.5));
    model.set(entry("x86-aesni", Aead::aes_gcm, 500, 2));
    model.set(entry("x86-vaes", Aead::aes_gcm, 5000, 8));
    const CpuFeatures cpu = modern_cpu();
    const std::vector<AutoRange> ranges = auto_ranges(Aead::aes_gcm, {}, cpu, model);
    ASSERT_EQ(ranges.size(), 3u);
    EXPECT_EQ(ranges[0].backend->name, "scalar");
    EXPECT_EQ(ranges[1].backend->name, "x86-aesni");
    EXPECT_EQ(ranges[2].backend->name, "x86-vaes");
    // x86-aesni and x86-vaes tie at exactly 12000 bytes; the tie goes to x86-vaes, first in the
    // table, so its range starts there.
    EXPECT_EQ(ranges[2].from_bytes, 12000u);
    for (std::size_t i = 1; i < ranges.size(); ++i) {
        EXPECT_EQ(picked(Aead::aes_gcm, ranges[i].from_bytes - 1, cpu, model),
                  ranges[i - 1].backend->name);
        EXPECT_EQ(picked(Aead::aes_gcm, ranges[i].from_bytes, cpu, model),
                  ranges[i].backend->name);
    }
}

TEST(AutoSelection, NeverPicksAnUnusableBackend) {
    CostModel model = builtin_cost_model();
    // Absurdly fast entries for every backend but scalar, on a CPU that runs none of them.
    for (const Backend& b : all_backends())
        for (Aead aead : {Aead::aes_gcm, Aead::chacha20_poly1305})
            if (b.name != "scalar") model.set(entry(std::string(b.name), aead, 0, 1e6));
    const CpuFeatures nothing;
    for (Aead aead : {Aead::aes_gcm, Aead::chacha20_poly1305}) {
        for (std::uint64_t size : kSizes)
            EXPECT_EQ(picked(aead, size, nothing, model), "scalar") << size;
        const std::vector<AutoRange> ranges = auto_ranges(aead, {}, nothing, model);
        ASSERT_EQ(ranges.size(), 1u);
        EXPECT_EQ(ranges[0].backend->name, "scalar");
    }
}

TEST(AutoSelection, IgnoresEntriesForUnknownBackends) {
    CostModel model = builtin_cost_model();
    model.set(entry("nonesuch", Aead::aes_gcm, 0, 1e9));
    model.set(entry("nonesuch", Aead::chacha20_poly1305, 0, 1e9));
    for (const CpuFeatures& cpu : {modern_cpu(), westmere_cpu(), CpuFeatures{}})
        for (Aead aead : {Aead::aes_gcm, Aead::chacha20_poly1305})
            for (std::uint64_t size : kSizes)
                EXPECT_EQ(picked(aead, size, cpu, model),
                          first_in_table(aead, cpu).name);
}

TEST(AutoSelection, AMissingEntryFallsBackToTableOrder) {
    // Only scalar is known to the model: the other candidates cannot be compared with it.
    CostModel model;
    model.set(entry("scalar", Aead::aes_gcm, 0, 1e6));
    model.set(entry("scalar", Aead::chacha20_poly1305, 0, 1e6));
    for (const CpuFeatures& cpu : {modern_cpu(), westmere_cpu(), CpuFeatures{}})
        for (Aead aead : {Aead::aes_gcm, Aead::chacha20_poly1305}) {
            for (std::uint64_t size : kSizes)
                EXPECT_EQ(picked(aead, size, cpu, model),
                          first_in_table(aead, cpu).name);
            EXPECT_EQ(auto_ranges(aead, {}, cpu, model).size(), 1u);
        }
}

TEST(AutoSelection, UsesTheInstalledModel) {
    InstalledModelGuard restore;
    const CpuFeatures nothing;
    EXPECT_NE(cost_model().find("scalar", Aead::aes_gcm), nullptr);
    EXPECT_EQ(cost_model().find("scalar", Aead::aes_gcm)->source, CostSource::builtin);

    CostModel model;
    model.set(entry("scalar", Aead::aes_gcm, 42, 1));
    install_cost_model(model);
    EXPECT_DOUBLE_EQ(cost_model().find("scalar", Aead::aes_gcm)->latency_ns, 42);
    EXPECT_EQ(picked(Aead::aes_gcm, 100, nothing, cost_model()), "scalar");
    if (!x86_built()) return;
    // With scalar 1000x faster than anything else, an x86 CPU now gets scalar.
    model = builtin_cost_model();
    model.set(entry("scalar", Aead::aes_gcm, 0, 1000));
    install_cost_model(model);
    EXPECT_EQ(picked(Aead::aes_gcm, 1 << 20, modern_cpu(), cost_model()), "scalar");
}

}  // namespace
}  // namespace warp
