// Options of the C API (include/warpcrypt.h, "Options"): each value checked where it is set,
// against the bounds the command's flags meet (formats/file.hpp).
#include <chrono>
#include <string>

#include "engine/selection.hpp"
#include "formats/file.hpp"
#include "lib/guard.hpp"
#include "lib/handles.hpp"

using namespace warp;
using namespace warp::capi;

namespace {

std::int64_t in_range(std::int64_t value, std::int64_t low, std::int64_t high, const char* what) {
    if (value < low || value > high)
        throw Error(ErrorCause::usage, std::string(what) + " " + std::to_string(value) +
                                           " is out of range (" + std::to_string(low) + ".." +
                                           std::to_string(high) + ")");
    return value;
}

void set_option(warpcrypt_options& o, int option, std::int64_t value) {
    formats::Options& base = o.base;
    switch (option) {
    case WARPCRYPT_OPT_FORMAT:
        base.format = in_range(value, WARPCRYPT_FORMAT_WARP, WARPCRYPT_FORMAT_AGE, "format") ==
                              WARPCRYPT_FORMAT_AGE
                          ? formats::Format::age
                          : formats::Format::warp;
        return;
    case WARPCRYPT_OPT_ARMOR: base.armor = in_range(value, 0, 1, "armor") == 1; return;
    case WARPCRYPT_OPT_CIPHER:
        switch (
            in_range(value, WARPCRYPT_CIPHER_AUTO, WARPCRYPT_CIPHER_CHACHA20_POLY1305, "cipher")) {
        case WARPCRYPT_CIPHER_AES_256_GCM: base.aead = Aead::aes_gcm; return;
        case WARPCRYPT_CIPHER_CHACHA20_POLY1305: base.aead = Aead::chacha20_poly1305; return;
        default: base.aead.reset(); return;
        }
    case WARPCRYPT_OPT_THREADS:
        base.threads = static_cast<unsigned>(in_range(value, 0, 1024, "threads"));
        return;
    case WARPCRYPT_OPT_CHUNK_LOG2:
        base.chunk_log2 = static_cast<unsigned>(
            in_range(value, formats::kMinChunkLog2, formats::kMaxChunkLog2, "chunk_log2"));
        return;
    case WARPCRYPT_OPT_KDF_MAX_MEMORY_KIB:
        base.kdf_limits.max_memory_kib = static_cast<std::uint32_t>(
            in_range(value, 1, formats::kMaxKdfMemoryKib, "kdf_max_memory_kib"));
        return;
    case WARPCRYPT_OPT_KDF_MAX_WORK_KIB:
        base.kdf_limits.max_work_kib =
            static_cast<std::uint64_t>(in_range(value, 1, INT64_MAX, "kdf_max_work_kib"));
        return;
    case WARPCRYPT_OPT_PASSPHRASE_MEMORY_KIB:
        // The format checks the rest when it writes: Argon2id's bounds (warp), a power of two
        // no smaller than work factor 13 (age).
        o.passphrase_kdf.memory_kib = static_cast<std::uint32_t>(
            in_range(value, 1, formats::kMaxKdfMemoryKib, "passphrase_memory_kib"));
        return;
    case WARPCRYPT_OPT_PASSPHRASE_PASSES:
        o.passphrase_kdf.passes = static_cast<std::uint32_t>(
            in_range(value, formats::kMinKdfPasses, formats::kMaxKdfPasses, "passphrase_passes"));
        return;
    case WARPCRYPT_OPT_PLUGIN_TIMEOUT_MS:
        base.plugin_ui.silence_limit =
            std::chrono::milliseconds(in_range(value, 1, INT64_MAX / 1000, "plugin_timeout_ms"));
        return;
    default: throw Error(ErrorCause::usage, "unknown option " + std::to_string(option));
    }
}

}  // namespace

extern "C" {

int warpcrypt_options_new(warpcrypt_options** out) {
    return guarded(nullptr, [&] {
        require(out, "out");
        *out = new warpcrypt_options;
    });
}

int warpcrypt_options_set(warpcrypt_options* options, int option, int64_t value,
                          warpcrypt_error** err) {
    return guarded(err, [&] { set_option(options_of(options), option, value); });
}

int warpcrypt_options_set_backend(warpcrypt_options* options, const char* name,
                                  warpcrypt_error** err) {
    return guarded(err, [&] {
        warpcrypt_options& o = options_of(options);
        o.base.backend = request_backend(name == nullptr ? "auto" : name);
    });
}

int warpcrypt_options_set_plugin_ui(warpcrypt_options* options, const warpcrypt_plugin_ui* ui) {
    return guarded(nullptr, [&] {
        warpcrypt_options& o = options_of(options);
        o.has_plugin_ui = ui != nullptr;
        o.plugin_ui = ui != nullptr ? *ui : warpcrypt_plugin_ui{};
    });
}

int warpcrypt_options_set_progress(warpcrypt_options* options, warpcrypt_progress_fn progress,
                                   void* user) {
    return guarded(nullptr, [&] {
        warpcrypt_options& o = options_of(options);
        o.progress = progress;
        o.progress_user = user;
    });
}

void warpcrypt_options_free(warpcrypt_options* options) {
    if (options == nullptr || options->tag != HandleTag::options) return;
    options->tag = HandleTag::freed;
    delete options;
}

}  // extern "C"
