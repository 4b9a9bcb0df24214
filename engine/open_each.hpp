// The loop of every CPU backend's AeadImpl::open (engine/aead.hpp), written once: each chunk
// on its own, `open_one(chunk)` authenticating the whole chunk and decrypting it only when it
// is authentic, returning that verdict. The verdicts and the failure count are kept here; a
// failed chunk's output is left as it is, for AeadKey::open wipes it (one place for every
// backend). Verdicts are public: branching on them leaks nothing secret.
#pragma once

#include <cstddef>
#include <span>

#include "engine/aead.hpp"

namespace warp {

template <typename OpenOne>
std::size_t open_each(std::span<const AeadChunk> chunks, bool* ok, OpenOne&& open_one) {
    std::size_t failures = 0;
    for (std::size_t i = 0; i < chunks.size(); ++i) {
        ok[i] = open_one(chunks[i]);
        failures += ok[i] ? 0 : 1;
    }
    return failures;
}

}  // namespace warp
