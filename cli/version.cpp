#include "cli/version.hpp"

#include "cli/build_info.hpp"
#include "engine/registry.hpp"

namespace warp::cli {
namespace {

// A backend whose table entry has no implementation is listed by the registry but was not
// built: the registry's way of saying "not compiled in" without an #ifdef.
bool compiled_in(const Backend& backend) {
    return backend.aes_gcm != nullptr || backend.chacha20_poly1305 != nullptr ||
           backend.aes != nullptr;
}

// The registry's backends fall in three kinds: on a device (cuda: it opens one), the portable
// code every build has, and the CPU backends with vector instructions (everything else).
bool is_portable(const Backend& backend) { return backend.name == "scalar"; }
bool is_simd(const Backend& backend) {
    return backend.open_device == nullptr && !is_portable(backend);
}

// The compiled-in backends of one kind, in the registry's order (best first).
std::string names_compiled_in(bool (*kind)(const Backend&)) {
    std::string names;
    for (const Backend& backend : all_backends()) {
        if (!compiled_in(backend) || !kind(backend)) continue;
        if (!names.empty()) names += ' ';
        names += backend.name;
    }
    return names.empty() ? "none" : names;
}

std::string build_line() {
    std::string line = std::string("build: ") + build_info::kBuildType + ", " +
                       build_info::kCompiler + ", " + build_info::kProcessor + ", LTO " +
                       build_info::kLto;
    if (*build_info::kSanitizers != '\0')
        line += std::string(", sanitizers ") + build_info::kSanitizers;
    return line;
}

std::string cuda_line() {
    if (*build_info::kCudaCode == '\0') return "CUDA: no (built without the CUDA toolkit)";
    return std::string("CUDA: yes, kernels for ") + build_info::kCudaCode + " (" +
           build_info::kCudaCompiler + "); `warpcrypt backends` says whether a GPU runs them";
}

}  // namespace

std::string version_text() {
    // Appended piece by piece: GCC 12 at -O3 warns (-Wrestrict, falsely) about
    // "literal" + std::string temporaries.
    std::string text = "warpcrypt " WARPCRYPT_VERSION "\n";
    text += build_line();
    text += "\n";
    text += cuda_line();
    text += "\nSIMD backends: ";
    text += names_compiled_in(is_simd);
    text += "\nportable backend: ";
    text += names_compiled_in(is_portable);
    return text;
}

}  // namespace warp::cli
