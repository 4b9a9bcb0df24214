// Texts the C API hands out: into the caller's buffer, NUL-terminated, with the size needed.
#pragma once

#include <cstddef>
#include <cstring>
#include <string_view>

#include "engine/error.hpp"

namespace warp::capi {

// Writes `text` and a NUL into `buf` when `cap` holds both; `*need` (when not NULL) is that
// size either way. Too small a buffer is Error(usage), with nothing written: the caller
// retries with `*need` bytes (or asks first with `buf` NULL and `cap` 0).
inline void write_text(std::string_view text, char* buf, std::size_t cap, std::size_t* need) {
    if (need != nullptr) *need = text.size() + 1;
    if (buf == nullptr && cap == 0 && need != nullptr) return;  // a question of size
    if (buf == nullptr || cap < text.size() + 1)
        throw Error(ErrorCause::usage, "the buffer holds " + std::to_string(cap) +
                                           " bytes, and the text needs " +
                                           std::to_string(text.size() + 1));
    std::memcpy(buf, text.data(), text.size());
    buf[text.size()] = '\0';
}

}  // namespace warp::capi
