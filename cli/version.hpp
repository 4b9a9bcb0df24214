// What `warpcrypt --version` prints: the version, then what this build contains (build type,
// compiler, CUDA kernels, SIMD backends), so a bug report says which code could have run.
#pragma once

#include <string>

namespace warp::cli {

std::string version_text();

}  // namespace warp::cli
