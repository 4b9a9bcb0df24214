// SPEC 3: suites.
#include "formats/suite.hpp"

#include <string>

#include "engine/error.hpp"

namespace warp::formats {

std::string_view suite_name(Suite suite) {
    switch (suite) {
        case Suite::aes_256_gcm: return "aes-256-gcm";
        case Suite::chacha20_poly1305: return "chacha20-poly1305";
    }
    return "unknown";
}

std::optional<Suite> parse_suite_name(std::string_view name) {
    for (Suite s : {Suite::aes_256_gcm, Suite::chacha20_poly1305})
        if (name == suite_name(s)) return s;
    return std::nullopt;
}

const AeadImpl& resolve_aead(const Backend* backend, Suite suite, std::uint64_t bytes) {
    const Backend& chosen = backend != nullptr ? *backend : select_backend(aead_of(suite), bytes);
    const AeadImpl* impl = chosen.aead(aead_of(suite));
    if (impl == nullptr)
        throw Error(ErrorCause::backend_unavailable, "backend " + std::string(chosen.name) +
                                                         " does not implement " +
                                                         std::string(suite_name(suite)));
    return *impl;
}

}  // namespace warp::formats
