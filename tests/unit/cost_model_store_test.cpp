// The calibrated cost model's file (cli/cost_model_store.hpp): it round-trips, and anything
// wrong with it (missing, malformed, stale) quietly means the built-in defaults.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include "cli/cost_model_store.hpp"
#include "engine/cpu_features.hpp"
#include "engine/error.hpp"
#include "engine/registry.hpp"

namespace warp::cli {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kVersion = "9.8.7";

const CpuIdentity kCpu{"aesni pclmulqdq avx2", "Example CPU @ 3.00GHz"};
CpuIdentity cpu_identity() { return kCpu; }

StoredCostModel sample() {
    StoredCostModel stored{std::string(kVersion), kCpu, "2025-01-31T12:00:00Z", {}};
    stored.model.set({"scalar", Aead::aes_gcm, 310.5, 0.125, CostSource::calibrated});
    stored.model.set({"scalar", Aead::chacha20_poly1305, 95, 0.75, CostSource::calibrated});
    stored.model.set({"x86-aesni", Aead::aes_gcm, 120, 3.25, CostSource::calibrated});
    return stored;
}

class CostModelStore : public ::testing::Test {
protected:
    void SetUp() override {
        const char* base = std::getenv("TMPDIR");
        std::string templ = std::string(base != nullptr && *base != '\0' ? base : "/tmp") +
                            "/warpcrypt-cost-model-XXXXXX";
        ASSERT_NE(::mkdtemp(templ.data()), nullptr);
        dir_ = templ;
    }
    void TearDown() override {
        std::error_code ignored;
        fs::remove_all(dir_, ignored);
    }

    fs::path write(std::string_view name, const std::string& text) const {
        const fs::path file = dir_ / name;
        std::ofstream(file, std::ios::binary) << text;
        return file;
    }

    fs::path dir_;
};

void expect_defaults(const LoadedCostModel& loaded, std::string_view why) {
    EXPECT_FALSE(loaded.origin.calibrated);
    EXPECT_NE(loaded.origin.why_defaults.find(why), std::string::npos)
        << "why_defaults: " << loaded.origin.why_defaults;
    EXPECT_NE(loaded.origin.describe().find("built-in defaults"), std::string::npos);
    const CostModel defaults = builtin_cost_model();
    ASSERT_EQ(loaded.model.entries().size(), defaults.entries().size());
    for (const CostEntry& entry : loaded.model.entries())
        EXPECT_EQ(entry.source, CostSource::builtin) << entry.backend;
}

TEST_F(CostModelStore, SavedFileLoadsBackAsTheSameModel) {
    const fs::path file = dir_ / "deeper" / "still" / "cost-model.json";  // directories made
    save_cost_model(file, sample());

    struct stat info {};
    ASSERT_EQ(::stat(file.c_str(), &info), 0);
    EXPECT_EQ(info.st_mode & 0777, 0644u);
    EXPECT_EQ(fs::directory_iterator(file.parent_path())->path(), file)
        << "a temporary file was left behind";

    const LoadedCostModel loaded = load_cost_model(file, cpu_identity, kVersion);
    EXPECT_TRUE(loaded.origin.calibrated) << loaded.origin.why_defaults;
    EXPECT_EQ(loaded.origin.path, file);
    EXPECT_EQ(loaded.origin.date, "2025-01-31T12:00:00Z");
    EXPECT_NE(loaded.origin.describe().find(file.string()), std::string::npos);
    const StoredCostModel expected = sample();
    ASSERT_EQ(loaded.model.entries().size(), expected.model.entries().size());
    for (const CostEntry& want : expected.model.entries()) {
        const CostEntry* got = loaded.model.find(want.backend, want.aead);
        ASSERT_NE(got, nullptr) << want.backend;
        EXPECT_DOUBLE_EQ(got->latency_ns, want.latency_ns);
        EXPECT_DOUBLE_EQ(got->bytes_per_ns, want.bytes_per_ns);
        EXPECT_EQ(got->source, CostSource::calibrated);
    }
}

TEST_F(CostModelStore, SavingReplacesAnEarlierFile) {
    const fs::path file = write("cost-model.json", "old contents");
    save_cost_model(file, sample());
    EXPECT_TRUE(load_cost_model(file, cpu_identity, kVersion).origin.calibrated);
}

TEST_F(CostModelStore, TextRoundTripKeepsEveryField) {
    const StoredCostModel parsed = parse_cost_model_text(to_json_text(sample()));
    EXPECT_EQ(parsed.warpcrypt_version, kVersion);
    EXPECT_EQ(parsed.cpu, kCpu);
    EXPECT_EQ(parsed.date, "2025-01-31T12:00:00Z");
    EXPECT_EQ(parsed.model.entries().size(), 3u);
}

TEST_F(CostModelStore, MissingFileMeansDefaults) {
    expect_defaults(load_cost_model(dir_ / "none.json", cpu_identity, kVersion), "no calibration");
    expect_defaults(load_cost_model("/dev/null/cost-model.json", cpu_identity, kVersion),
                    "no calibration");
    expect_defaults(load_cost_model({}, cpu_identity, kVersion), "no cache directory");
}

TEST_F(CostModelStore, NoFileNeverAsksForTheCpuIdentity) {
    int asked = 0;
    const auto identify = [&] {
        ++asked;
        return kCpu;
    };
    load_cost_model(dir_ / "none.json", identify, kVersion);
    load_cost_model({}, identify, kVersion);
    EXPECT_EQ(asked, 0);
}

TEST_F(CostModelStore, UnreadableFileMeansDefaults) {
    // A directory where the file should be: open works, read fails with EISDIR.
    fs::create_directory(dir_ / "cost-model.json");
    expect_defaults(load_cost_model(dir_ / "cost-model.json", cpu_identity, kVersion), "");
}

TEST_F(CostModelStore, MalformedFilesMeanDefaults) {
    const std::string good = to_json_text(sample());
    auto replaced = [&](const std::string& from, const std::string& to) {
        std::string text = good;
        const std::size_t at = text.find(from);
        EXPECT_NE(at, std::string::npos) << from;
        return text.replace(at, from.size(), to);
    };
    const std::string cases[] = {
        "",
        "not json",
        "[1, 2]",
        good.substr(0, good.size() / 2),  // cut short
        replaced("\"format\": 1", "\"format\": 2"),
        replaced("\"format\": 1", "\"format\": \"1\""),
        replaced("\"date\"", "\"when\""),
        replaced("\"latency_ns\": 310.5", "\"latency_ns\": -1"),
        replaced("\"bytes_per_ns\": 0.125", "\"bytes_per_ns\": 0"),
        replaced("\"bytes_per_ns\": 0.125", "\"bytes_per_ns\": \"fast\""),
        replaced("\"aead\": \"aes-gcm\"", "\"aead\": \"rot13\""),
        replaced("\"backend\": \"scalar\"", "\"backend\": 7"),
    };
    int index = 0;
    for (const std::string& text : cases) {
        SCOPED_TRACE(text);
        const fs::path file = write("case" + std::to_string(index++) + ".json", text);
        expect_defaults(load_cost_model(file, cpu_identity, kVersion), "malformed");
    }
    StoredCostModel empty = sample();
    empty.model = CostModel();
    expect_defaults(load_cost_model(write("empty.json", to_json_text(empty)), cpu_identity, kVersion),
                    "no entries");
}

TEST_F(CostModelStore, StaleFilesMeanDefaults) {
    const fs::path file = dir_ / "cost-model.json";
    save_cost_model(file, sample());
    const auto on = [](CpuIdentity cpu) { return [cpu] { return cpu; }; };
    expect_defaults(load_cost_model(file, cpu_identity, "9.8.8"), "stale");
    expect_defaults(load_cost_model(file, on({"aesni pclmulqdq", kCpu.model}), kVersion), "stale");
    expect_defaults(load_cost_model(file, on({kCpu.features, "Another CPU"}), kVersion), "stale");
    // Not every platform names its CPU: an unnamed side is not a mismatch.
    EXPECT_TRUE(load_cost_model(file, on({kCpu.features, ""}), kVersion).origin.calibrated);
}

TEST_F(CostModelStore, EntriesForUnknownBackendsAreKeptHarmlessly) {
    StoredCostModel stored = sample();
    stored.model.set({"quantum", Aead::aes_gcm, 1, 1000, CostSource::calibrated});
    const fs::path file = dir_ / "cost-model.json";
    save_cost_model(file, stored);
    const LoadedCostModel loaded = load_cost_model(file, cpu_identity, kVersion);
    EXPECT_TRUE(loaded.origin.calibrated) << loaded.origin.why_defaults;
    EXPECT_NE(loaded.model.find("quantum", Aead::aes_gcm), nullptr);
}

TEST_F(CostModelStore, SaveFailureIsAnIoErrorNamingThePath) {
    const fs::path blocker = write("file", "x");
    try {
        save_cost_model(blocker / "cost-model.json", sample());
        FAIL() << "expected an error";
    } catch (const Error& error) {
        EXPECT_EQ(error.cause(), ErrorCause::io);
        EXPECT_NE(std::string(error.what()).find(blocker.string()), std::string::npos)
            << error.what();
    }
    EXPECT_THROW(save_cost_model({}, sample()), Error);
}

// Sets an environment variable for the life of the object, then restores it.
class ScopedEnv {
public:
    ScopedEnv(const char* name, std::optional<std::string> value) : name_(name) {
        if (const char* old = std::getenv(name)) old_ = old;
        if (value) ::setenv(name, value->c_str(), 1);
        else ::unsetenv(name);
    }
    ~ScopedEnv() {
        if (old_) ::setenv(name_, old_->c_str(), 1);
        else ::unsetenv(name_);
    }

private:
    const char* name_;
    std::optional<std::string> old_;
};

TEST(CostModelPath, OverrideThenXdgCacheThenHome) {
    ScopedEnv override_path("WARPCRYPT_COST_MODEL", "/some/where.json");
    ScopedEnv cache("XDG_CACHE_HOME", "/xdg");
    ScopedEnv home("HOME", "/home/u");
    EXPECT_EQ(cost_model_path(), "/some/where.json");
    {
        ScopedEnv no_override("WARPCRYPT_COST_MODEL", std::nullopt);
        EXPECT_EQ(cost_model_path(), "/xdg/warpcrypt/cost-model.json");
        {
            ScopedEnv relative_cache("XDG_CACHE_HOME", "relative");  // invalid per XDG: ignored
            EXPECT_EQ(cost_model_path(), "/home/u/.cache/warpcrypt/cost-model.json");
        }
        {
            ScopedEnv no_cache("XDG_CACHE_HOME", std::nullopt);
            EXPECT_EQ(cost_model_path(), "/home/u/.cache/warpcrypt/cost-model.json");
            ScopedEnv no_home("HOME", std::nullopt);
            EXPECT_TRUE(cost_model_path().empty());
        }
    }
}

TEST(CostModelPath, ThisCpuReportsTheFeaturesInUse) {
    EXPECT_EQ(this_cpu().features, cpu_features().describe());
}

}  // namespace
}  // namespace warp::cli
