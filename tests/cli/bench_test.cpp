// `warpcrypt bench`: the JSON has one row per usable backend, suite, direction and size, each
// with a positive throughput; bad options are usage errors. It checks the shape of the output,
// never the speed: benchmarks are not pass/fail tests (docs/design.md).
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <tuple>

#include "tests/cli/cli_fixture.hpp"

namespace warp::clitest {
namespace {

using nlohmann::json;

// backend, suite, direction, size
using RowKey = std::tuple<std::string, std::string, std::string, std::uint64_t>;

const std::vector<std::string> kQuickRun = {"bench",   "--json",    "--sizes",
                                            "100,1K",  "--seconds", "0.01"};

// The rows `bench --cipher all` must produce, from what `warpcrypt backends --json` says runs
// here and what each backend implements.
std::set<RowKey> expected_rows(const std::vector<std::uint64_t>& sizes) {
    auto outcome = run({"backends", "--json"});
    EXPECT_EQ(outcome.exit_code, 0) << describe(outcome);
    const json doc = json::parse(outcome.out);
    std::set<RowKey> rows;
    auto add = [&](const std::string& backend, const std::string& suite, const char* forward,
                   const char* backward) {
        for (std::uint64_t size : sizes)
            for (const char* direction : {forward, backward})
                rows.emplace(backend, suite, direction, size);
    };
    for (const json& backend : doc.at("backends")) {
        if (!backend.at("usable").get<bool>()) continue;
        const auto name = backend.at("name").get<std::string>();
        if (backend.at("aes_256_gcm").get<bool>()) {
            add(name, "aes-128-gcm", "seal", "open");
            add(name, "aes-256-gcm", "seal", "open");
        }
        if (backend.at("chacha20_poly1305").get<bool>())
            add(name, "chacha20-poly1305", "seal", "open");
        if (backend.at("aes_blocks").get<bool>())
            for (const char* suite : {"aes-128-ecb", "aes-192-ecb", "aes-256-ecb"})
                add(name, suite, "encrypt", "decrypt");
    }
    return rows;
}

TEST(BenchCommand, JsonHasEveryUsableBackendSuiteDirectionAndSize) {
    auto outcome = run(kQuickRun);
    ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
    const json doc = json::parse(outcome.out);
    ASSERT_TRUE(doc.is_array());

    std::set<RowKey> seen;
    for (const json& row : doc) {
        const RowKey key{row.at("backend").get<std::string>(), row.at("suite").get<std::string>(),
                         row.at("direction").get<std::string>(), row.at("size").get<std::uint64_t>()};
        EXPECT_TRUE(seen.insert(key).second) << "duplicate row " << row.dump();
        EXPECT_GT(row.at("bytes_per_second").get<double>(), 0) << row.dump();
        EXPECT_GT(row.at("ns_per_call").get<double>(), 0) << row.dump();
    }
    EXPECT_EQ(seen, expected_rows({100, 1024}));
}

TEST(BenchCommand, NarrowsToTheBackendCipherAndSizesAsked) {
    auto outcome = run({"bench", "--json", "--backend", "scalar", "--cipher",
                        "chacha20-poly1305,aes-128-ecb", "--sizes", "64", "--seconds", "0.01"});
    ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
    std::set<RowKey> seen;
    for (const json& row : json::parse(outcome.out))
        seen.emplace(row.at("backend").get<std::string>(), row.at("suite").get<std::string>(),
                     row.at("direction").get<std::string>(), row.at("size").get<std::uint64_t>());
    const std::set<RowKey> expected = {{"scalar", "chacha20-poly1305", "seal", 64},
                                       {"scalar", "chacha20-poly1305", "open", 64},
                                       {"scalar", "aes-128-ecb", "encrypt", 64},
                                       {"scalar", "aes-128-ecb", "decrypt", 64}};
    EXPECT_EQ(seen, expected);
}

TEST(BenchCommand, TextOutputIsATablePerUnit) {
    auto outcome = run({"bench", "--backend", "scalar", "--cipher", "aes-256-gcm", "--sizes",
                        "100,4K", "--seconds", "0.01"});
    ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
    EXPECT_NE(outcome.out.find("MB/s"), std::string::npos) << outcome.out;
    EXPECT_NE(outcome.out.find("ns"), std::string::npos) << outcome.out;
    EXPECT_NE(outcome.out.find("4K"), std::string::npos) << outcome.out;
    EXPECT_NE(outcome.out.find("aes-256-gcm"), std::string::npos) << outcome.out;
}

TEST(BenchCommand, UnknownBackendIsAUsageError) {
    auto outcome = run({"bench", "--backend", "no-such-backend", "--seconds", "0.01"});
    EXPECT_EQ(outcome.exit_code, 2) << describe(outcome);
    EXPECT_NE(outcome.err.find("no-such-backend"), std::string::npos) << outcome.err;
    EXPECT_TRUE(outcome.out.empty()) << outcome.out;
}

TEST(BenchCommand, BadOptionsAreUsageErrors) {
    for (const std::vector<std::string>& bad :
         {std::vector<std::string>{"bench", "--cipher", "rot13"},
          {"bench", "--sizes", "1K,,4K"},
          {"bench", "--sizes", "8"},
          {"bench", "--sizes", "lots"},
          {"bench", "--seconds", "0"},
          {"bench", "--seconds", "soon"},
          {"bench", "--backend", "auto"}}) {
        auto outcome = run(bad);
        EXPECT_EQ(outcome.exit_code, 2) << describe(outcome);
        EXPECT_TRUE(outcome.out.empty()) << outcome.out;
    }
}

TEST(BenchCommand, HelpDocumentsTheMethod) {
    auto outcome = run({"bench", "--help"});
    ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
    for (const char* word : {"--backend", "--cipher", "--sizes", "--seconds", "--json", "MB/s"})
        EXPECT_NE(outcome.out.find(word), std::string::npos) << word << "\n" << outcome.out;
}

}  // namespace
}  // namespace warp::clitest
