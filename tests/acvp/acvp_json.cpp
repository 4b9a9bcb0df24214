#include "tests/acvp/acvp_json.hpp"

#include <exception>

#include "engine/error.hpp"

namespace warp::acvp {

void malformed(const std::string& what) { throw Error(ErrorCause::bad_input, what); }

bool has_member(const Json& object, std::string_view name) {
    return object.is_object() && object.contains(std::string(name));
}

const Json& member(const Json& object, std::string_view name) {
    if (!object.is_object()) malformed("expected a JSON object holding '" + std::string(name) + "'");
    const auto it = object.find(std::string(name));
    if (it == object.end()) malformed("missing field '" + std::string(name) + "'");
    return *it;
}

std::int64_t integer_field(const Json& object, std::string_view name) {
    const Json& value = member(object, name);
    if (!value.is_number_integer())
        malformed("field '" + std::string(name) + "' is not an integer");
    return value.get<std::int64_t>();
}

std::string string_field(const Json& object, std::string_view name) {
    const Json& value = member(object, name);
    if (!value.is_string()) malformed("field '" + std::string(name) + "' is not a string");
    return value.get<std::string>();
}

const Json& array_field(const Json& object, std::string_view name) {
    const Json& value = member(object, name);
    if (!value.is_array()) malformed("field '" + std::string(name) + "' is not an array");
    return value;
}

Direction direction_field(const Json& group) {
    const std::string direction = string_field(group, "direction");
    if (direction == "encrypt") return Direction::encrypt;
    if (direction == "decrypt") return Direction::decrypt;
    malformed("direction '" + direction + "' is neither encrypt nor decrypt");
}

Bytes hex_field(const Json& object, std::string_view name) {
    const std::string text = string_field(object, name);
    try {
        return test::from_hex(text);
    } catch (const Error&) {
        malformed("field '" + std::string(name) + "' is not hex");
    }
}

Bytes hex_field_bits(const Json& object, std::string_view name, std::int64_t bits) {
    const std::size_t bytes = whole_bytes(bits, name);
    Bytes value = hex_field(object, name);
    if (value.size() != bytes)
        malformed("field '" + std::string(name) + "' holds " + std::to_string(value.size() * 8) +
                  " bits, not " + std::to_string(bits));
    return value;
}

std::size_t whole_bytes(std::int64_t bits, std::string_view what) {
    if (bits < 0 || bits % 8 != 0)
        malformed("length of '" + std::string(what) + "' is " + std::to_string(bits) +
                  " bits, not a whole number of bytes");
    return static_cast<std::size_t>(bits / 8);
}

std::string hex_upper(std::span<const std::uint8_t> bytes) { return test::to_hex(bytes, true); }

Json answer_for(const Json& test) {
    Json answer = Json::object();
    answer["tcId"] = integer_field(test, "tcId");
    return answer;
}

[[noreturn]] void rethrow_with_context(const std::string& context) {
    try {
        throw;
    } catch (const Error& e) {
        throw Error(e.cause(), context + ": " + e.what());
    } catch (const Json::exception& e) {
        throw Error(ErrorCause::bad_input, context + ": " + e.what());
    }
}

}  // namespace warp::acvp
