// Internal to the vector loader (vectors*.cpp): error reporting and JSON field access that
// always name the file and the line or case, so a malformed file is found at once.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "tests/support/hex.hpp"

namespace warp::test::vectors_internal {

// Throws Error(bad_input): "<file>: <where>: <what>".
[[noreturn]] void malformed(std::string_view file, std::string_view where, std::string_view what);

// The whole file; Error(bad_input) naming it when it cannot be read.
std::string read_text(const std::filesystem::path& path);

// from_hex, with a failure reported against file and where.
Bytes hex_or_throw(std::string_view hex, std::string_view file, std::string_view where,
                   std::string_view field);

// A parsed JSON document; a syntax error is reported with its line.
nlohmann::json parse_json(const std::filesystem::path& path);

// Field readers: a missing field or one of the wrong type is malformed(file, where, ...).
struct JsonContext {
    std::string_view file;
    std::string where;  // "tests[3] (id FIPS-197 C.1 AES-128)", "tcId 12", ...
};
const nlohmann::json& member(const nlohmann::json& object, std::string_view key,
                             const JsonContext& at);
const nlohmann::json& array_member(const nlohmann::json& object, std::string_view key,
                                   const JsonContext& at);
std::string string_member(const nlohmann::json& object, std::string_view key,
                          const JsonContext& at);
Bytes hex_member(const nlohmann::json& object, std::string_view key, const JsonContext& at);
std::uint64_t uint_member(const nlohmann::json& object, std::string_view key,
                          const JsonContext& at);

// Throws unless `bytes` has exactly `expected` bytes.
void expect_size(const Bytes& bytes, std::size_t expected, std::string_view field,
                 const JsonContext& at);

}  // namespace warp::test::vectors_internal
