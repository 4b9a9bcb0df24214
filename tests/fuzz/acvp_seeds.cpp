// fuzz-acvp-seeds VECTORS_DIR OUT_DIR: writes fuzz-acvp-json's seeds, small ACVP documents cut
// from the vectors, into OUT_DIR. They are made by every build from the committed vectors
// (tests/vectors) rather than committed a second time, as cut copies.
//
// For each ACVP-* set: NAME-prompt.json, its prompt with the first test of each group (Monte
// Carlo groups included), and NAME-merged.json, its functional (AFT) groups with each first
// test merged with its expected results: one document that is both prompt and expected results,
// so that answers compare equal and the fuzzer reaches `compare`. And
// CHACHA20-POLY1305-rfc8439.json, warpcrypt's ACVP-shaped ChaCha20-Poly1305 set
// (tests/acvp/README.md) from RFC 8439 2.8.2, both directions.
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;  // keeps the vectors' field order

Json read_json(const fs::path& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot read " + path.string());
    return Json::parse(in);
}

void write_json(const fs::path& path, const Json& document) {
    std::ofstream out(path);
    out << document.dump();
    if (!out) throw std::runtime_error("cannot write " + path.string());
}

// The first test of every group.
Json first_tests(Json prompt) {
    for (Json& group : prompt["testGroups"]) group["tests"] = Json::array({group["tests"].at(0)});
    return prompt;
}

const Json& expected_test(const Json& expected, const Json& group_id, const Json& test_id) {
    for (const Json& group : expected["testGroups"]) {
        if (group["tgId"] != group_id) continue;
        for (const Json& test : group["tests"])
            if (test["tcId"] == test_id) return test;
    }
    throw std::runtime_error("no expected result for tgId " + group_id.dump() + ", tcId " +
                             test_id.dump());
}

// AFT groups only (a Monte Carlo result is 100 entries: too long for a seed), each first test
// with its expected fields added.
Json merged_first_tests(const Json& prompt, const Json& expected) {
    Json merged = prompt;
    merged["testGroups"] = Json::array();
    for (const Json& group : prompt["testGroups"]) {
        if (group["testType"] != "AFT") continue;
        Json test = group["tests"].at(0);
        const Json& results = expected_test(expected, group["tgId"], test["tcId"]);
        for (const auto& [name, value] : results.items()) test[name] = value;
        Json cut = group;
        cut["tests"] = Json::array({test});
        merged["testGroups"].push_back(cut);
    }
    return merged;
}

Json chacha_set(const Json& rfc8439) {
    const Json& v = rfc8439.at("aead_chacha20_poly1305").at(0);
    const auto bits = [](const Json& hex) { return hex.get<std::string>().size() * 4; };
    Json document = {{"vsId", 1}, {"algorithm", "CHACHA20-POLY1305"}, {"revision", "1.0"},
                     {"isSample", true}, {"testGroups", Json::array()}};
    int group_id = 1;
    for (const char* direction : {"encrypt", "decrypt"}) {
        Json test = {{"tcId", 1}, {"key", v["key"]}, {"nonce", v["nonce"]}, {"aad", v["aad"]},
                     {"pt", v["pt"]}, {"ct", v["ct"]}, {"tag", v["tag"]}};
        document["testGroups"].push_back({{"tgId", group_id++}, {"testType", "AFT"},
                                          {"direction", direction}, {"keyLen", 256},
                                          {"nonceLen", 96}, {"tagLen", 128},
                                          {"payloadLen", bits(v["pt"])},
                                          {"aadLen", bits(v["aad"])},
                                          {"tests", Json::array({test})}});
    }
    return document;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: fuzz-acvp-seeds VECTORS_DIR OUT_DIR\n");
        return 2;
    }
    try {
        const fs::path vectors = argv[1], out = argv[2];
        fs::create_directories(out);
        // A build without the vectors (the release tarball's) still builds; the vector tests
        // are what need them, and they say so when run.
        if (!fs::is_directory(vectors / "acvp")) {
            std::fprintf(stderr, "fuzz-acvp-seeds: no vectors in %s: no seeds made\n",
                         vectors.c_str());
            return 0;
        }
        int written = 0;
        for (const fs::directory_entry& set : fs::directory_iterator(vectors / "acvp")) {
            const std::string name = set.path().filename().string();
            if (!set.is_directory() || !name.starts_with("ACVP-")) continue;
            const Json prompt = read_json(set.path() / "prompt.json");
            write_json(out / (name + "-prompt.json"), first_tests(prompt));
            write_json(out / (name + "-merged.json"),
                       merged_first_tests(prompt, read_json(set.path() / "expectedResults.json")));
            written += 2;
        }
        write_json(out / "CHACHA20-POLY1305-rfc8439.json",
                   chacha_set(read_json(vectors / "rfc8439" / "rfc8439_test_vectors.json")));
        if (written == 0)
            throw std::runtime_error("no ACVP-* set in " + (vectors / "acvp").string());
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "fuzz-acvp-seeds: %s\n", e.what());
        return 1;
    }
}
