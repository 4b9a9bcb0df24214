// `warpcrypt bench --calibrate` and the cost model it stores: the file is written where
// WARPCRYPT_COST_MODEL says and parses; `backends` then names it; a damaged file never stops
// encryption. Timing figures are never checked (docs/design.md: benchmarks are not pass/fail).
#include <sys/stat.h>

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "tests/cli/cli_fixture.hpp"

namespace warp::clitest {
namespace {

using nlohmann::json;

class CalibrateTest : public CliTest {
protected:
    // The model file of this test, in a directory calibration has to create.
    fs::path model_file() const { return path("cache") / "warpcrypt" / "cost-model.json"; }

    Outcome run_with_model(std::vector<std::string> arguments) const {
        Command command;
        command.args = std::move(arguments);
        command.env["WARPCRYPT_COST_MODEL"] = model_file().string();
        return run(command);
    }
};

TEST_F(CalibrateTest, WritesTheModelThatBackendsThenUses) {
    const Outcome calibrated = run_with_model({"bench", "--calibrate"});
    ASSERT_EQ(calibrated.exit_code, 0) << describe(calibrated);
    EXPECT_NE(calibrated.out.find(model_file().string()), std::string::npos) << calibrated.out;
    EXPECT_NE(calibrated.out.find("aes-256-gcm"), std::string::npos) << calibrated.out;
    EXPECT_NE(calibrated.out.find("chacha20-poly1305"), std::string::npos) << calibrated.out;

    ASSERT_TRUE(fs::exists(model_file()));
    struct stat info {};
    ASSERT_EQ(::stat(model_file().c_str(), &info), 0);
    EXPECT_EQ(info.st_mode & 0777, 0644u);
    json doc;
    ASSERT_NO_THROW(doc = json::parse(read_file(model_file())));
    EXPECT_EQ(doc.at("format"), 1);
    EXPECT_FALSE(doc.at("warpcrypt_version").get<std::string>().empty());
    EXPECT_TRUE(doc.at("cpu").at("features").is_string());
    EXPECT_FALSE(doc.at("date").get<std::string>().empty());
    bool scalar_aes = false, scalar_chacha = false;
    for (const json& entry : doc.at("entries")) {
        EXPECT_GE(entry.at("latency_ns").get<double>(), 0) << entry.dump();
        EXPECT_GT(entry.at("bytes_per_ns").get<double>(), 0) << entry.dump();
        if (entry.at("backend") == "scalar") {
            scalar_aes = scalar_aes || entry.at("aead") == "aes-gcm";
            scalar_chacha = scalar_chacha || entry.at("aead") == "chacha20-poly1305";
        }
    }
    EXPECT_TRUE(scalar_aes && scalar_chacha) << doc.dump(2);

    const Outcome text = run_with_model({"backends", "--size", "100"});
    ASSERT_EQ(text.exit_code, 0) << describe(text);
    EXPECT_NE(text.out.find("Cost model: calibrated"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find(model_file().string()), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("auto picks, for 100 bytes"), std::string::npos) << text.out;

    const Outcome machine = run_with_model({"backends", "--json", "--size", "100"});
    ASSERT_EQ(machine.exit_code, 0) << describe(machine);
    const json backends = json::parse(machine.out);
    EXPECT_EQ(backends.at("cost_model").at("source"), "calibrated");
    EXPECT_EQ(backends.at("cost_model").at("path"), model_file().string());
    EXPECT_EQ(backends.at("cost_model").at("date"), doc.at("date"));
    const json& predicted = backends.at("auto").at("predicted_ns").at("aes-256-gcm");
    EXPECT_TRUE(predicted.contains("scalar")) << predicted.dump();
    for (const auto& [name, ns] : predicted.items()) EXPECT_GT(ns.get<double>(), 0) << name;

    // Encryption under the calibrated model works, whatever it picks.
    const fs::path key = make_key("k");
    Command seal;
    seal.args = {"encrypt", "-k", key.string(), "--cipher", "aes-256-gcm"};
    seal.env["WARPCRYPT_COST_MODEL"] = model_file().string();
    seal.stdin_bytes = pattern(5000);
    const Outcome sealed = run(seal);
    ASSERT_EQ(sealed.exit_code, 0) << describe(sealed);
    Command open = seal;
    open.args = {"decrypt", "-k", key.string()};
    open.stdin_bytes = sealed.out;
    const Outcome opened = run(open);
    ASSERT_EQ(opened.exit_code, 0) << describe(opened);
    EXPECT_TRUE(opened.out == *seal.stdin_bytes);
}

TEST_F(CalibrateTest, JsonReportsMeasurementsPathAndPicks) {
    const Outcome outcome = run_with_model({"bench", "--calibrate", "--json"});
    ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
    json doc;
    ASSERT_NO_THROW(doc = json::parse(outcome.out)) << outcome.out;
    EXPECT_EQ(doc.at("path"), model_file().string());
    EXPECT_FALSE(doc.at("measurements").empty());
    for (const json& m : doc.at("measurements")) {
        EXPECT_GT(m.at("large_ns").get<double>(), 0) << m.dump();
        EXPECT_GT(m.at("bytes_per_ns").get<double>(), 0) << m.dump();
    }
    for (const char* suite : {"aes-256-gcm", "chacha20-poly1305"}) {
        const json& ranges = doc.at("auto").at(suite);
        ASSERT_FALSE(ranges.empty()) << suite;
        EXPECT_EQ(ranges.front().at("from_bytes"), 0) << suite;
    }
    EXPECT_TRUE(fs::exists(model_file()));
}

TEST_F(CalibrateTest, DamagedModelMeansDefaultsAndNeverStopsEncryption) {
    fs::create_directories(model_file().parent_path());
    const fs::path key = make_key("k");
    for (const std::string& damage : {std::string("{not json"), std::string("{\"format\": 99}")}) {
        write_file(model_file(), damage);
        const Outcome listed = run_with_model({"backends"});
        ASSERT_EQ(listed.exit_code, 0) << describe(listed);
        EXPECT_NE(listed.out.find("Cost model: built-in defaults"), std::string::npos)
            << listed.out;
        EXPECT_NE(listed.out.find("malformed"), std::string::npos) << listed.out;
        EXPECT_TRUE(listed.err.empty()) << listed.err;

        Command seal;
        seal.args = {"encrypt", "-k", key.string()};
        seal.env["WARPCRYPT_COST_MODEL"] = model_file().string();
        seal.stdin_bytes = "hello";
        const Outcome sealed = run(seal);
        ASSERT_EQ(sealed.exit_code, 0) << describe(sealed);
        EXPECT_TRUE(sealed.err.empty()) << sealed.err;
        Command open = seal;
        open.args = {"decrypt", "-k", key.string()};
        open.stdin_bytes = sealed.out;
        const Outcome opened = run(open);
        ASSERT_EQ(opened.exit_code, 0) << describe(opened);
        EXPECT_EQ(opened.out, "hello");
    }
}

TEST_F(CalibrateTest, VerboseEncryptionNamesTheCostModel) {
    const fs::path key = make_key("k");
    Command seal;
    seal.args = {"encrypt", "-v", "-k", key.string()};
    seal.stdin_bytes = "hello";
    const Outcome sealed = run(seal);
    ASSERT_EQ(sealed.exit_code, 0) << describe(sealed);
    EXPECT_NE(sealed.err.find("cost model: built-in defaults"), std::string::npos) << sealed.err;
}

// The harness points every child at a model file that cannot exist, so a developer's own
// calibration never changes what a test sees.
TEST_F(CalibrateTest, TestsRunWithTheBuiltInDefaults) {
    const Outcome outcome = run({"backends"});
    ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
    EXPECT_NE(outcome.out.find("Cost model: built-in defaults"), std::string::npos) << outcome.out;
}

TEST_F(CalibrateTest, CalibrateRefusesTheMeasurementOptions) {
    const std::pair<std::string, std::string> options[] = {
        {"--sizes", "64"}, {"--cipher", "aes-256-gcm"}, {"--backend", "scalar"},
        {"--seconds", "1"}};
    for (const auto& [option, value] : options) {
        const Outcome outcome = run_with_model({"bench", "--calibrate", option, value});
        EXPECT_EQ(outcome.exit_code, 2) << option << ": " << describe(outcome);
        EXPECT_TRUE(outcome.out.empty()) << option;
    }
    EXPECT_FALSE(fs::exists(model_file()));
}

TEST_F(CalibrateTest, UnwritableLocationIsAnIoError) {
    const fs::path blocker = make_file("blocker", "x");
    Command command;
    command.args = {"bench", "--calibrate"};
    command.env["WARPCRYPT_COST_MODEL"] = (blocker / "cost-model.json").string();
    const Outcome outcome = run(command);
    EXPECT_EQ(outcome.exit_code, 7) << describe(outcome);
    EXPECT_NE(outcome.err.find(blocker.string()), std::string::npos) << outcome.err;
}

}  // namespace
}  // namespace warp::clitest
