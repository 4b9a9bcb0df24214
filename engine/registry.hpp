// The one place that decides which code runs (DESIGN.md, "One registry").
//
// kBackends below lists every backend warpcrypt knows, best first. A backend that is not
// compiled in, or that this CPU cannot run, is still listed with the reason, so callers never
// need an #ifdef: they ask the registry.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "engine/aead.hpp"
#include "engine/block_cipher.hpp"
#include "engine/cpu_features.hpp"

namespace warp {

struct Availability {
    bool usable = false;
    std::string reason;  // why it is or is not usable, one line
};

struct Backend {
    std::string_view name;     // the --backend word, the folder name, what `backends` prints
    std::string_view summary;  // one line for `warpcrypt backends`
    Availability (*probe)(const CpuFeatures&);
    // Implementations; nullptr where the backend does not provide that algorithm.
    const AeadImpl* aes_gcm;
    const AeadImpl* chacha20_poly1305;
    const BlockCipherImpl* aes;

    const AeadImpl* aead(Aead which) const {
        return which == Aead::aes_gcm ? aes_gcm : chacha20_poly1305;
    }
};

// Every known backend, best first.
std::span<const Backend> all_backends();

// Whether `backend` can run on this machine (with WARPCRYPT_CPU_MASK applied).
Availability availability(const Backend& backend);

// The backends usable here, best first.
std::span<const Backend* const> usable_backends();

// The backend named `name`, or for a family name ("x86") its best usable variant; throws
// Error(backend_unavailable) with the reason when it is unknown or cannot run here. "auto" is
// not a backend name: use select_backend.
const Backend& find_backend(std::string_view name);

// `auto`: the best usable backend for `aead` and a message of `bytes` bytes.
const Backend& select_backend(Aead aead, std::uint64_t bytes);
// The same decision for a CPU with the given features (tests mask features with it).
const Backend& select_backend(Aead aead, std::uint64_t bytes, const CpuFeatures& cpu);

// `auto` for the raw AES block entry points (ECB, the ACVP harness's CTR).
const Backend& select_block_backend();

}  // namespace warp
