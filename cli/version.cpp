#include "cli/version.hpp"

#include "engine/registry.hpp"

namespace warp::cli {

std::string version_text() {
    std::string text = "warpcrypt " WARPCRYPT_VERSION "\n";
    text += "CUDA toolchain: ";
    text += WARPCRYPT_HAVE_CUDA ? "yes" : "no";
    text += "\nbackends compiled in:";
    // A backend without any implementation in its table entry is listed by the registry but
    // not built: that is the registry's way of saying "not compiled in" without an #ifdef.
    for (const Backend& backend : all_backends())
        if (backend.aes_gcm != nullptr || backend.chacha20_poly1305 != nullptr || backend.aes != nullptr)
            text += " " + std::string(backend.name);
    return text;
}

}  // namespace warp::cli
