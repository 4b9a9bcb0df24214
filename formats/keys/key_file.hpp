// Key files (warp SPEC section 8): "warpcrypt-key-v1:" and 64 hex digits of a 32-byte secret,
// "#" comment lines and blank lines around it. A key kind of the warp format only (age has no
// symmetric recipient), kept with the others so that the CLI reads every key one way.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "engine/secure_memory.hpp"

namespace warp::formats {

inline constexpr std::string_view kKeyFilePrefix = "warpcrypt-key-v1:";
inline constexpr std::size_t kKeyFileSecretSize = 32;

SecretBytes generate_key_secret();                       // 32 random bytes
std::string encode_key_file(const SecretBytes& secret);  // the file's text: wipe it
SecretBytes decode_key_file(std::string_view text);      // throws Error(usage)

}  // namespace warp::formats
