// warpcrypt-acvp as a library: answer a NIST ACVP prompt on one backend, and compare an answer
// with NIST's expectedResults.json. main.cpp is only the command line around these; tests may
// call them in-process. See README.md for the supported algorithms and the response shape.
//
// Errors: a malformed prompt or expected file throws warp::Error(bad_input); a backend that
// lacks the algorithm throws warp::Error(backend_unavailable). Messages name the group and
// test ("tgId 3: tcId 45: missing field 'ct'") but not the file, which the caller knows.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/registry.hpp"
#include "tests/acvp/acvp_json.hpp"

namespace warp::acvp {

// The tests of a prompt or results file, by (tgId, tcId). Building it checks the tree shape
// (testGroups[].tests[] with integer ids) and that no (tgId, tcId) occurs twice.
class TestIndex {
public:
    explicit TestIndex(const Json& document);
    // The test object, or nullptr when the file has no such test.
    const Json* find(std::int64_t tg_id, std::int64_t tc_id) const;

private:
    std::map<std::pair<std::int64_t, std::int64_t>, const Json*> tests_;
};

// The backend a prompt runs on when none is named: the registry's choice for the prompt's
// algorithm (the engine's select() for the AEADs; for raw AES, the best usable backend with an AES
// block entry point).
const Backend& default_backend(const Json& prompt);

// The response to `prompt` on `backend`, shaped like NIST's expectedResults.json.
// `expected`: when given, CTR encrypt tests whose prompt carries no IV take the IV recorded
// there instead of a fresh random one, so the answer can be compared byte for byte.
Json respond(const Json& prompt, const Backend& backend, const TestIndex* expected = nullptr);

// The outcome of comparing a response with an expected file.
struct Verdict {
    std::string suite;                   // "ACVP-AES-GCM-1.0"
    std::size_t cases = 0;               // expected tests
    std::size_t matched = 0;             // of which answered exactly
    std::size_t rejected = 0;            // matched tests whose answer is "testPassed": false
    std::vector<std::string> first_mismatches;  // at most kMismatchesShown, one per test
    bool all_match() const { return matched == cases && first_mismatches.empty(); }
};

inline constexpr std::size_t kMismatchesShown = 3;

// Joins on (tgId, tcId): every expected test must be answered, every expected field equal
// (strings, i.e. hex, compared case-insensitively; arrays and objects field by field).
// Fields the response has beyond the expected ones are ignored. Throws bad_input when
// `expected` is not a results file.
Verdict compare(const Json& response, const Json& expected);

// The one-line summary, e.g.
// "ACVP-AES-GCM-1.0 (backend scalar): 60/60 cases match (10 rejected as required)".
std::string verdict_line(const Verdict& verdict, std::string_view backend_name);

}  // namespace warp::acvp
