// What `warpcrypt --version` prints: the version, then what this build contains.
#pragma once

#include <string>

namespace warp::cli {

std::string version_text();

}  // namespace warp::cli
