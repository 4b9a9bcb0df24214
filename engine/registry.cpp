#include "engine/registry.hpp"

#include <initializer_list>
#include <vector>

#include "engine/error.hpp"
#include "engine/scalar/scalar.hpp"
#include "engine/x86/x86.hpp"

namespace warp {
namespace {

Availability always_usable(const CpuFeatures&) {
    return {true, "portable constant-time code, runs everywhere"};
}

// Backends whose code is not written yet are listed so that `backends` and the selection code
// see the whole picture.
Availability not_built(const CpuFeatures&) { return {false, "not in this build yet"}; }

// A variant runs when its kernels are compiled in (null pointers elsewhere, see
// engine/x86/x86.hpp) and the CPU and OS support every extension its kernels use.
struct Requirement {
    const char* name;  // as CpuFeatures::describe() prints it
    bool CpuFeatures::*field;
};

Availability needs(const CpuFeatures& cpu, bool compiled_in,
                   std::initializer_list<Requirement> requirements) {
    if (!compiled_in) return {false, "not compiled in (x86-64 builds only)"};
    std::string missing;
    for (const Requirement& r : requirements)
        if (!(cpu.*r.field)) missing += (missing.empty() ? "" : " ") + std::string(r.name);
    if (!missing.empty()) return {false, "CPU or OS lacks " + missing};
    std::string all;
    for (const Requirement& r : requirements) all += (all.empty() ? "" : " ") + std::string(r.name);
    return {true, "CPU has " + all};
}

Availability probe_x86_vaes(const CpuFeatures& cpu) {
    return needs(cpu, x86::kAesGcmVaes != nullptr,
                 {{"avx2", &CpuFeatures::avx2},
                  {"aesni", &CpuFeatures::aesni},
                  {"pclmulqdq", &CpuFeatures::pclmulqdq},
                  {"vaes", &CpuFeatures::vaes},
                  {"vpclmulqdq", &CpuFeatures::vpclmulqdq}});
}

Availability probe_x86_aesni(const CpuFeatures& cpu) {
    return needs(cpu, x86::kAesGcmAesni != nullptr,
                 {{"aesni", &CpuFeatures::aesni}, {"pclmulqdq", &CpuFeatures::pclmulqdq}});
}

Availability probe_x86_avx2(const CpuFeatures& cpu) {
    return needs(cpu, x86::kChaCha20Poly1305Avx2 != nullptr, {{"avx2", &CpuFeatures::avx2}});
}

// Best first: auto takes the first usable backend that implements the AEAD asked for.
// Built at first use (not as a constant) because the x86 tables are pointers defined in other
// translation units.
const std::vector<Backend>& backend_table() {
    static const std::vector<Backend> table = {
        Backend{"x86-vaes", "AES-GCM with VAES + VPCLMULQDQ on 256-bit vectors, ChaCha20 on AVX2",
                &probe_x86_vaes, x86::kAesGcmVaes, x86::kChaCha20Poly1305Avx2, x86::kAesVaes},
        Backend{"x86-aesni", "AES-GCM with AES-NI + PCLMULQDQ on 128-bit vectors",
                &probe_x86_aesni, x86::kAesGcmAesni, nullptr, x86::kAesAesni},
        Backend{"x86-avx2", "ChaCha20-Poly1305 on AVX2", &probe_x86_avx2, nullptr,
                x86::kChaCha20Poly1305Avx2, nullptr},
        Backend{"arm", "ARMv8 AES/PMULL crypto extensions, NEON ChaCha20", &not_built, nullptr,
                nullptr, nullptr},
        Backend{"cuda", "AES-GCM on an NVIDIA GPU", &not_built, nullptr, nullptr, nullptr},
        Backend{"scalar", "portable constant-time C++ (bitsliced AES)", &always_usable,
                &scalar::kAesGcm, &scalar::kChaCha20Poly1305, &scalar::kAes},
    };
    return table;
}

}  // namespace

std::span<const Backend> all_backends() { return backend_table(); }

Availability availability(const Backend& backend) { return backend.probe(cpu_features()); }

std::span<const Backend* const> usable_backends() {
    static const std::vector<const Backend*> usable = [] {
        std::vector<const Backend*> list;
        for (const Backend& b : backend_table())
            if (availability(b).usable) list.push_back(&b);
        return list;
    }();
    return usable;
}

// "x86" names the family: its best usable variant ("x86-vaes", "x86-aesni", ...).
static const Backend* best_of_family(std::string_view family) {
    for (const Backend* b : usable_backends())
        if (b->name.size() > family.size() && b->name.starts_with(family) &&
            b->name[family.size()] == '-')
            return b;
    return nullptr;
}

const Backend& find_backend(std::string_view name) {
    if (const Backend* b = best_of_family(name)) return *b;
    for (const Backend& b : backend_table()) {
        if (b.name != name) continue;
        Availability a = availability(b);
        if (!a.usable)
            throw Error(ErrorCause::backend_unavailable,
                        "backend '" + std::string(name) + "' is not usable here: " + a.reason);
        return b;
    }
    std::string known;
    for (const Backend& b : backend_table()) known += (known.empty() ? "" : ", ") + std::string(b.name);
    throw Error(ErrorCause::backend_unavailable,
                "unknown backend '" + std::string(name) + "' (known: " + known + ")");
}

const Backend& select_backend(Aead aead, std::uint64_t bytes, const CpuFeatures& cpu) {
    // Until the cost model exists (calibration), the best usable backend in table order that
    // implements the AEAD wins, whatever the size. The scalar backend implements everything,
    // so this never fails.
    (void)bytes;
    for (const Backend& b : backend_table())
        if (b.aead(aead) != nullptr && b.probe(cpu).usable) return b;
    throw Error(ErrorCause::backend_unavailable, "no usable backend implements this AEAD");
}

const Backend& select_backend(Aead aead, std::uint64_t bytes) {
    return select_backend(aead, bytes, cpu_features());
}

const Backend& select_block_backend() {
    for (const Backend* b : usable_backends())
        if (b->aes != nullptr) return *b;
    throw Error(ErrorCause::backend_unavailable, "no usable backend has raw AES blocks");
}

}  // namespace warp
