// Reading ACVP JSON: typed field access that turns every malformed prompt into one
// warp::Error(bad_input) naming the field, so the harness never indexes a missing member or
// trusts a length it did not check.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "tests/support/hex.hpp"

namespace warp::acvp {

// Ordered, so that a response keeps NIST's field order (vsId, algorithm, revision, ...).
using Json = nlohmann::ordered_json;
using test::Bytes;

enum class Direction { encrypt, decrypt };

[[noreturn]] void malformed(const std::string& what);

// The member `name` of `object`; throws when `object` is not an object or lacks it.
const Json& member(const Json& object, std::string_view name);
bool has_member(const Json& object, std::string_view name);

std::int64_t integer_field(const Json& object, std::string_view name);
std::string string_field(const Json& object, std::string_view name);
const Json& array_field(const Json& object, std::string_view name);
Direction direction_field(const Json& group);

// A hex field as bytes (either case accepted).
Bytes hex_field(const Json& object, std::string_view name);
// A hex field that must hold exactly `bits` bits, a whole number of bytes.
Bytes hex_field_bits(const Json& object, std::string_view name, std::int64_t bits);

// `bits` as a byte count; throws unless it is a non-negative multiple of 8.
std::size_t whole_bytes(std::int64_t bits, std::string_view what);

// Upper-case hex, as NIST writes it.
std::string hex_upper(std::span<const std::uint8_t> bytes);

// A response test object {tcId} to which the caller adds its outputs.
Json answer_for(const Json& test);

// Re-throws the exception being handled with "context: " before its message (warp::Error and
// JSON errors; any other exception passes unchanged). Call only from a catch block.
[[noreturn]] void rethrow_with_context(const std::string& context);

// Calls answer(test) for every test of `group` and collects the answers into an array.
// An error thrown while answering one test is re-thrown prefixed with "tcId N: ".
template <class AnswerOne>
Json answer_each_test(const Json& group, AnswerOne&& answer) {
    Json answers = Json::array();
    for (const Json& test : array_field(group, "tests")) {
        try {
            answers.push_back(answer(test));
        } catch (...) {
            std::string context = "test";
            if (test.is_object() && test.contains("tcId"))
                context = "tcId " + test["tcId"].dump();
            rethrow_with_context(context);
        }
    }
    return answers;
}

}  // namespace warp::acvp
