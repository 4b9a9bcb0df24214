// Comparing a response with NIST's expectedResults.json, and the one-line verdict.
#include <algorithm>
#include <cctype>
#include <optional>

#include "tests/acvp/acvp.hpp"

namespace warp::acvp {
namespace {

constexpr std::size_t kShownValueChars = 40;  // long hex values are cut in messages

std::string shown(const Json& value) {
    std::string text = value.is_string() ? value.get<std::string>() : value.dump();
    if (text.empty()) return "\"\"";
    if (text.size() > kShownValueChars) text = text.substr(0, kShownValueChars) + "...";
    return text;
}

bool equal_ignoring_case(const std::string& a, const std::string& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
        return std::toupper(static_cast<unsigned char>(x)) ==
               std::toupper(static_cast<unsigned char>(y));
    });
}

std::string join(const std::string& path, const std::string& part) {
    return path.empty() ? part : path + "." + part;
}

// The first place where `got` differs from `want`, described; nullopt when they agree.
// Only the fields `want` has are looked at.
std::optional<std::string> first_difference(const Json& got, const Json& want,
                                            const std::string& path) {
    const std::string where = path.empty() ? "" : path + ": ";
    if (want.is_object()) {
        if (!got.is_object()) return where + "not an object";
        for (const auto& [name, value] : want.items()) {
            if (!got.contains(name)) return join(path, name) + ": missing";
            if (auto d = first_difference(got[name], value, join(path, name))) return d;
        }
        return std::nullopt;
    }
    if (want.is_array()) {
        if (!got.is_array() || got.size() != want.size())
            return where + "got " + std::to_string(got.is_array() ? got.size() : 0) +
                   " entries, want " + std::to_string(want.size());
        for (std::size_t i = 0; i < want.size(); ++i)
            if (auto d = first_difference(got[i], want[i], path + "[" + std::to_string(i) + "]"))
                return d;
        return std::nullopt;
    }
    const bool same = want.is_string()
                          ? got.is_string() && equal_ignoring_case(got.get<std::string>(),
                                                                   want.get<std::string>())
                          : got == want;
    if (same) return std::nullopt;
    return where + "got " + shown(got) + ", want " + shown(want);
}

bool rejected(const Json& test) {
    return test.contains("testPassed") && test["testPassed"] == false;
}

std::optional<std::string> test_difference(const Json* got, const Json& want) {
    if (got == nullptr) return "not answered";
    if (rejected(want) && !rejected(*got)) return "accepted, want testPassed false";
    if (rejected(*got) && !rejected(want)) return "rejected, want it accepted";
    return first_difference(*got, want, "");
}

std::string suite_of(const Json& document) {
    return string_field(document, "algorithm") + "-" + string_field(document, "revision");
}

}  // namespace

Verdict compare(const Json& response, const Json& expected) {
    Verdict verdict;
    verdict.suite = suite_of(response);
    if (const std::string theirs = suite_of(expected); theirs != verdict.suite)
        malformed("the expected results are for " + theirs + ", the prompt for " + verdict.suite);

    const TestIndex answers(response);
    for (const Json& group : array_field(expected, "testGroups")) {
        const std::int64_t tg_id = integer_field(group, "tgId");
        for (const Json& want : array_field(group, "tests")) {
            const std::int64_t tc_id = integer_field(want, "tcId");
            ++verdict.cases;
            const auto difference = test_difference(answers.find(tg_id, tc_id), want);
            if (!difference) {
                ++verdict.matched;
                if (rejected(want)) ++verdict.rejected;
            } else if (verdict.first_mismatches.size() < kMismatchesShown) {
                verdict.first_mismatches.push_back("tgId " + std::to_string(tg_id) + " tcId " +
                                                   std::to_string(tc_id) + ": " + *difference);
            }
        }
    }
    if (verdict.cases == 0) malformed("the expected results hold no tests");
    return verdict;
}

std::string verdict_line(const Verdict& verdict, std::string_view backend_name) {
    std::string line = verdict.suite + " (backend " + std::string(backend_name) + "): ";
    const std::string of = std::to_string(verdict.matched) + "/" + std::to_string(verdict.cases);
    if (verdict.all_match()) {
        line += of + " cases match";
        if (verdict.rejected != 0)
            line += " (" + std::to_string(verdict.rejected) + " rejected as required)";
        return line;
    }
    const std::size_t mismatches = verdict.cases - verdict.matched;
    line += std::to_string(mismatches) + (mismatches == 1 ? " mismatch" : " mismatches") + " (" +
            of + " cases match); first: ";
    for (std::size_t i = 0; i < verdict.first_mismatches.size(); ++i)
        line += (i == 0 ? "" : "; ") + verdict.first_mismatches[i];
    return line;
}

}  // namespace warp::acvp
