// `warpcrypt --version`: the version CMake's project() declares, and what the build contains,
// cross-checked with what the registry says through `warpcrypt backends --json`.
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli/cli_fixture.hpp"

namespace warp::clitest {
namespace {

using nlohmann::json;

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream stream(text);
    for (std::string line; std::getline(stream, line);) lines.push_back(line);
    return lines;
}

// The line that starts with `prefix`, without the prefix; fails the test when there is none.
std::string field(const std::vector<std::string>& lines, const std::string& prefix) {
    for (const std::string& line : lines)
        if (line.starts_with(prefix)) return line.substr(prefix.size());
    ADD_FAILURE() << "no line starting with '" << prefix << "'";
    return {};
}

bool compiled_in(const json& backend) {
    return !backend.at("reason").get<std::string>().starts_with("not compiled in");
}

class VersionTest : public CliTest {
protected:
    void SetUp() override {
        CliTest::SetUp();
        const Outcome outcome = run({"--version"});
        ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
        EXPECT_TRUE(outcome.err.empty()) << outcome.err;
        lines_ = lines_of(outcome.out);
        ASSERT_FALSE(lines_.empty());
        const Outcome backends = run({"backends", "--json"});
        ASSERT_EQ(backends.exit_code, 0) << describe(backends);
        backends_ = json::parse(backends.out).at("backends");
    }

    std::vector<std::string> lines_;
    json backends_;
};

TEST_F(VersionTest, FirstLineIsTheProjectVersion) {
    EXPECT_EQ(lines_.front(), "warpcrypt " WARPCRYPT_EXPECTED_VERSION);
}

TEST_F(VersionTest, SaysHowItWasBuilt) {
    const std::string build = field(lines_, "build: ");
    EXPECT_TRUE(build.starts_with(WARPCRYPT_EXPECTED_BUILD_TYPE ", " WARPCRYPT_EXPECTED_COMPILER))
        << build;
    EXPECT_NE(build.find(", LTO "), std::string::npos) << build;
}

TEST_F(VersionTest, CudaLineAgreesWithTheRegistry) {
    const std::string cuda = field(lines_, "CUDA: ");
    bool cuda_listed = false;
    for (const json& backend : backends_) {
        if (backend.at("name") != "cuda") continue;
        cuda_listed = true;
        if (compiled_in(backend)) {
            EXPECT_TRUE(cuda.starts_with("yes, kernels for sm_")) << cuda;
        } else {
            EXPECT_EQ(cuda, "no (built without the CUDA toolkit)");
        }
    }
    EXPECT_TRUE(cuda_listed) << "no cuda entry in `warpcrypt backends --json`";
}

// The SIMD line names exactly the CPU backends that are compiled in, best first, and the
// portable line the scalar backend: the same split as the registry's "not compiled in".
TEST_F(VersionTest, BackendLinesAgreeWithTheRegistry) {
    std::string simd;
    for (const json& backend : backends_) {
        const std::string name = backend.at("name");
        if (name == "cuda" || name == "scalar" || !compiled_in(backend)) continue;
        simd += (simd.empty() ? "" : " ") + name;
    }
    EXPECT_EQ(field(lines_, "SIMD backends: "), simd.empty() ? "none" : simd);
    EXPECT_EQ(field(lines_, "portable backend: "), "scalar");
}

}  // namespace
}  // namespace warp::clitest
