// The loader's shared parts: where the vectors live, how files are named, and the error and
// JSON helpers every reader uses (vectors_internal.hpp).
#include "tests/support/vectors.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iterator>

#include "engine/error.hpp"
#include "tests/support/vectors_internal.hpp"

namespace warp::test {

std::filesystem::path vectors_dir() {
    const char* from_environment = std::getenv("WARPCRYPT_VECTORS_DIR");
    if (from_environment != nullptr && *from_environment != '\0') return from_environment;
    return std::filesystem::path(WARPCRYPT_VECTORS_DIR);
}

std::filesystem::path vector_path(std::string_view relative) {
    return vectors_dir() / std::filesystem::path(relative);
}

std::string vector_file_name(const std::filesystem::path& path) {
    std::error_code ec;
    const auto dir = std::filesystem::weakly_canonical(vectors_dir(), ec);
    const auto file = std::filesystem::weakly_canonical(path, ec);
    if (!ec) {
        const auto relative = file.lexically_relative(dir);
        if (!relative.empty() && *relative.begin() != "..") return relative.generic_string();
    }
    return path.generic_string();
}

namespace vectors_internal {

void malformed(std::string_view file, std::string_view where, std::string_view what) {
    std::string message = "malformed vector file ";
    message.append(file).append(": ").append(where).append(": ").append(what);
    throw Error(ErrorCause::bad_input, message);
}

std::string read_text(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(ErrorCause::bad_input, "cannot open vector file " + path.string());
    std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    if (in.bad()) throw Error(ErrorCause::bad_input, "cannot read vector file " + path.string());
    return text;
}

Bytes hex_or_throw(std::string_view hex, std::string_view file, std::string_view where,
                   std::string_view field) {
    try {
        return from_hex(hex);
    } catch (const Error& e) {
        malformed(file, where, std::string(field) + ": " + e.what());
    }
}

nlohmann::json parse_json(const std::filesystem::path& path) {
    const std::string text = read_text(path);
    try {
        return nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        // e.byte is 1-based; turn it into a line number a person can open the file at.
        const std::size_t end = std::min<std::size_t>(e.byte, text.size());
        const auto newlines = std::count(text.begin(), text.begin() + static_cast<long>(end), '\n');
        malformed(vector_file_name(path), "line " + std::to_string(newlines + 1), e.what());
    }
}

const nlohmann::json& member(const nlohmann::json& object, std::string_view key,
                             const JsonContext& at) {
    if (!object.is_object()) malformed(at.file, at.where, "expected a JSON object");
    const auto it = object.find(key);
    if (it == object.end()) malformed(at.file, at.where, "missing field '" + std::string(key) + "'");
    return *it;
}

const nlohmann::json& array_member(const nlohmann::json& object, std::string_view key,
                                   const JsonContext& at) {
    const nlohmann::json& value = member(object, key, at);
    if (!value.is_array())
        malformed(at.file, at.where, "field '" + std::string(key) + "' is not an array");
    return value;
}

std::string string_member(const nlohmann::json& object, std::string_view key,
                          const JsonContext& at) {
    const nlohmann::json& value = member(object, key, at);
    if (!value.is_string())
        malformed(at.file, at.where, "field '" + std::string(key) + "' is not a string");
    return value.get<std::string>();
}

Bytes hex_member(const nlohmann::json& object, std::string_view key, const JsonContext& at) {
    return hex_or_throw(string_member(object, key, at), at.file, at.where, key);
}

std::uint64_t uint_member(const nlohmann::json& object, std::string_view key,
                          const JsonContext& at) {
    const nlohmann::json& value = member(object, key, at);
    if (!value.is_number_unsigned())
        malformed(at.file, at.where,
                  "field '" + std::string(key) + "' is not a non-negative integer");
    return value.get<std::uint64_t>();
}

void expect_size(const Bytes& bytes, std::size_t expected, std::string_view field,
                 const JsonContext& at) {
    if (bytes.size() != expected)
        malformed(at.file, at.where,
                  std::string(field) + " has " + std::to_string(bytes.size()) +
                      " bytes, expected " + std::to_string(expected));
}

}  // namespace vectors_internal
}  // namespace warp::test
