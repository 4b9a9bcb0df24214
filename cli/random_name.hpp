// Random letters and digits for the hidden name of a file being written, beside the file that
// will take its place (output_file.cpp's temporary, cost_model_store.cpp's): unpredictable, so
// that nobody can plant the name first; the file is created with O_EXCL all the same.
#pragma once

#include <sys/random.h>

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <string>

#include "engine/error.hpp"

namespace warp::cli {

inline constexpr std::size_t kRandomNameChars = 6;

// kRandomNameChars characters of [a-zA-Z0-9]; Error(io) naming `name` (the file the temporary
// is for) when the kernel gives no random bytes.
inline std::string random_name_chars(const std::string& name) {
    static constexpr char kAlphabet[] =
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    unsigned char random[kRandomNameChars];
    if (::getrandom(random, sizeof random, 0) != static_cast<ssize_t>(sizeof random))
        throw Error(ErrorCause::io, name + ": cannot get random bytes for a temporary name: " +
                                        std::strerror(errno));
    std::string chars;
    for (const unsigned char r : random) chars += kAlphabet[r % (sizeof kAlphabet - 1)];
    return chars;
}

}  // namespace warp::cli
