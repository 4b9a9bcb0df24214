// What rekey does with a payload in both formats: copies the rest of the input as it is, in
// blocks, and returns its size.
#pragma once

#include <cstdint>
#include <memory>

#include "engine/io.hpp"

namespace warp::formats {

inline std::uint64_t copy_rest(ByteSource& in, ByteSink& out) {
    constexpr std::size_t kBlock = std::size_t{1} << 20;
    const std::unique_ptr<std::uint8_t[]> buffer(new std::uint8_t[kBlock]);
    std::uint64_t total = 0;
    for (;;) {
        const std::size_t got = in.read(buffer.get(), kBlock);
        if (got == 0) return total;
        out.write(buffer.get(), got);
        total += got;
    }
}

}  // namespace warp::formats
