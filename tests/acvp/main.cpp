// warpcrypt-acvp: answers a NIST ACVP prompt on one backend and, with --expected, checks the
// answer against NIST's expected results. README.md has the usage and the exit codes.
#include <CLI/CLI.hpp>

#include <exception>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>

#include "engine/error.hpp"
#include "engine/registry.hpp"
#include "tests/acvp/acvp.hpp"
#include "tests/support/backends_under_test.hpp"

namespace {

constexpr int kExitMatch = 0;     // all cases match, or nothing to compare with
constexpr int kExitMismatch = 1;  // at least one answer differs from the expected results
constexpr int kExitUsage = 2;     // bad command line, unusable backend, malformed input

// An error that names the file it is about.
struct FileError {
    std::string file;
    std::string what;
};

void report(const std::string& message) { std::cerr << "warpcrypt-acvp: " << message << '\n'; }

warp::acvp::Json read_json(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw FileError{path, "cannot be opened"};
    try {
        return warp::acvp::Json::parse(in);
    } catch (const warp::acvp::Json::parse_error& e) {
        throw FileError{path, std::string("not valid JSON: ") + e.what()};
    }
}

// Runs `step`, naming `path` in any error its contents cause: malformed input, or parameters
// the engine's contracts refuse (AeadKey's invalid_argument, e.g. a 5-byte GCM tag).
template <class Step>
decltype(auto) about_file(const std::string& path, Step&& step) {
    try {
        return step();
    } catch (const warp::Error& e) {
        if (e.cause() != warp::ErrorCause::bad_input &&
            e.cause() != warp::ErrorCause::invalid_argument)
            throw;
        throw FileError{path, e.what()};
    }
}

int run(const std::string& prompt_path, const std::string& backend_name,
        const std::string& expected_path) {
    using namespace warp::acvp;
    const Json prompt = read_json(prompt_path);
    std::optional<Json> expected;
    std::optional<TestIndex> expected_index;
    if (!expected_path.empty()) {
        expected = read_json(expected_path);
        expected_index.emplace(about_file(expected_path, [&] { return TestIndex(*expected); }));
    }

    const bool registry_picks = backend_name.empty() || backend_name == "auto";
    const warp::Backend& backend = registry_picks
                                       ? about_file(prompt_path, [&]() -> const warp::Backend& {
                                             return default_backend(prompt);
                                         })
                                       // The registry's names, plus the test-only
                                       // "cuda-emulated" (backends_under_test.hpp).
                                       : warp::test::find_backend_under_test(backend_name);
    const Json response = about_file(prompt_path, [&] {
        return respond(prompt, backend, expected_index ? &*expected_index : nullptr);
    });
    std::cout << response.dump(2) << '\n' << std::flush;
    if (!std::cout) throw warp::Error(warp::ErrorCause::io, "cannot write the response");
    if (!expected) return kExitMatch;

    const Verdict verdict = about_file(expected_path, [&] { return compare(response, *expected); });
    report(verdict_line(verdict, backend.name));
    return verdict.all_match() ? kExitMatch : kExitMismatch;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"Answer a NIST ACVP prompt with a warpcrypt backend; with --expected, check the "
                 "answers against NIST's expected results.",
                 "warpcrypt-acvp"};
    std::string backend_name;
    std::string expected_path;
    std::string prompt_path;
    app.add_option("--backend", backend_name,
                   "Backend to test; auto (the default): the engine's choice for the algorithm");
    app.add_option("--expected", expected_path,
                   "expectedResults.json to compare with (exit 1 on any mismatch)");
    bool list_backends = false;
    app.add_flag("--list-backends", list_backends,
                 "Print the backends usable on this machine, one per line, and exit");
    app.add_option("prompt", prompt_path, "ACVP prompt.json");
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) return app.exit(e);
        report(std::string("error: ") + e.what() + " (see --help)");
        return kExitUsage;
    }

    if (list_backends) {
        for (const warp::Backend* b : warp::usable_backends()) std::cout << b->name << '\n';
        return kExitMatch;
    }
    if (prompt_path.empty()) {
        report("error: prompt is required (see --help)");
        return kExitUsage;
    }
    try {
        return run(prompt_path, backend_name, expected_path);
    } catch (const FileError& e) {
        report("error: " + e.file + ": " + e.what);
    } catch (const std::exception& e) {
        report(std::string("error: ") + e.what());
    }
    return kExitUsage;
}
