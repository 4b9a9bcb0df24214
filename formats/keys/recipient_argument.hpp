// A recipient as a user hands it over (the command's -r, the C API's
// warpcrypt_recipient_parse): its text decoded, and a secret given by mistake refused without
// being quoted, wherever in the text it starts.
#pragma once

#include <string_view>

#include "formats/keys/key.hpp"

namespace warp::formats {

// One recipient of any kind; Error(usage) with a hint saying what is wrong, `option` (what
// the caller calls the argument: "-r") first. The text is quoted only when it plausibly is a
// recipient, never when it holds an identity or key, or is of no recipient's form.
Secret parse_recipient_text(std::string_view text, std::string_view option);

}  // namespace warp::formats
