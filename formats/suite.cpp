// SPEC 3: suites.
#include "formats/suite.hpp"


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

}  // namespace warp::formats
