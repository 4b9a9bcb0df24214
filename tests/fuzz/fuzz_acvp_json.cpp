// fuzz-acvp-json: warpcrypt-acvp's reading of a prompt (tests/acvp: acvp_json.cpp's typed
// field access, the dispatch on algorithm and revision, each algorithm's group and test
// readers) and of an expected-results file (TestIndex, compare), on arbitrary bytes.
//
// The input is parsed as JSON (nlohmann; what it rejects ends there, as in main.cpp) and used
// as both the prompt and the expected results, as `warpcrypt-acvp --expected F F` would: the
// prompt is answered on the registry's backend for its algorithm, then the answer is compared
// with the same document. Seeds are small real prompts of each algorithm.
//
// Invariant (acvp_json.hpp, acvp.hpp): a malformed document is refused with Error(bad_input),
// or invalid_argument when its lengths break the engine's contracts (main.cpp reports both as
// input errors); nothing else escapes, no JSON exception included.
#include <nlohmann/json.hpp>

#include <string_view>

#include "engine/error.hpp"
#include "tests/acvp/acvp.hpp"
#include "tests/fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace warp::acvp;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const Json document = Json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (document.is_discarded()) return 0;
    try {
        const TestIndex expected(document);
        const warp::Backend& backend = default_backend(document);
        const Json response = respond(document, backend, &expected);
        const Verdict verdict = compare(response, document);
        warp::fuzz::check(verdict.matched <= verdict.cases,
                          "compare counted more matches than cases");
        (void)verdict_line(verdict, backend.name);
    } catch (const warp::Error& e) {
        warp::fuzz::check(e.cause() == warp::ErrorCause::bad_input ||
                              e.cause() == warp::ErrorCause::invalid_argument,
                          "an ACVP document was refused with a cause other than bad input");
    }
    return 0;
}
