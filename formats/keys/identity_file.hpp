// What `keygen --identity` writes, as age-keygen writes it, for an identity of any kind:
// "# created: <created>", "# public key: <recipient>", then the identity and a newline.
#pragma once

#include <string>
#include <string_view>

namespace warp::formats {

// `identity` is the secret's text: it is wiped here. The result holds the secret: wipe it.
std::string identity_file_text(std::string_view created, std::string_view recipient,
                               std::string& identity);

}  // namespace warp::formats
