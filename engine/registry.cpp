#include "engine/registry.hpp"

#include <array>
#include <vector>

#include "engine/error.hpp"
#include "engine/scalar/scalar.hpp"

namespace warp {
namespace {

Availability always_usable(const CpuFeatures&) {
    return {true, "portable constant-time code, runs everywhere"};
}

// Backends whose code is not written yet are listed so that `backends` and the selection code
// see the whole picture; each says what it will need.
Availability not_built(const CpuFeatures&) { return {false, "not in this build yet"}; }

constexpr std::array kBackendTable = {
    Backend{"x86", "AES-NI/VAES with (V)PCLMULQDQ, AVX2/AVX-512 ChaCha20", &not_built, nullptr,
            nullptr, nullptr},
    Backend{"arm", "ARMv8 AES/PMULL crypto extensions, NEON ChaCha20", &not_built, nullptr,
            nullptr, nullptr},
    Backend{"cuda", "AES-GCM on an NVIDIA GPU", &not_built, nullptr, nullptr, nullptr},
    Backend{"scalar", "portable constant-time C++ (bitsliced AES)", &always_usable,
            &scalar::kAesGcm, &scalar::kChaCha20Poly1305, &scalar::kAes},
};

}  // namespace

std::span<const Backend> all_backends() { return kBackendTable; }

Availability availability(const Backend& backend) { return backend.probe(cpu_features()); }

std::span<const Backend* const> usable_backends() {
    static const std::vector<const Backend*> usable = [] {
        std::vector<const Backend*> list;
        for (const Backend& b : kBackendTable)
            if (availability(b).usable) list.push_back(&b);
        return list;
    }();
    return usable;
}

const Backend& find_backend(std::string_view name) {
    for (const Backend& b : kBackendTable) {
        if (b.name != name) continue;
        Availability a = availability(b);
        if (!a.usable)
            throw Error(ErrorCause::backend_unavailable,
                        "backend '" + std::string(name) + "' is not usable here: " + a.reason);
        return b;
    }
    std::string known;
    for (const Backend& b : kBackendTable) known += (known.empty() ? "" : ", ") + std::string(b.name);
    throw Error(ErrorCause::backend_unavailable,
                "unknown backend '" + std::string(name) + "' (known: " + known + ")");
}

const Backend& select_backend(Aead aead, std::uint64_t /*bytes*/) {
    // Until the cost model exists (calibration), the best usable backend in table order that
    // implements the AEAD wins. The scalar backend implements everything, so this never fails.
    for (const Backend* b : usable_backends())
        if (b->aead(aead) != nullptr) return *b;
    throw Error(ErrorCause::backend_unavailable, "no usable backend implements this AEAD");
}

const Backend& select_block_backend() {
    for (const Backend* b : usable_backends())
        if (b->aes != nullptr) return *b;
    throw Error(ErrorCause::backend_unavailable, "no usable backend has raw AES blocks");
}

}  // namespace warp
