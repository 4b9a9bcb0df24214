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
#include <vector>

#include "engine/aead.hpp"
#include "engine/block_cipher.hpp"
#include "engine/cost_model.hpp"
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
    // For a backend that runs on a device (cuda): opens it, once per process, and says whether
    // it can run; nullptr for CPU backends. probe stays cheap (no driver call) because every
    // run consults it; this is called only when the backend is about to be used: by
    // find_backend, and by select_backend when the backend would win (see below).
    Availability (*open_device)();
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

// Whether `backend` can run on this machine (with WARPCRYPT_CPU_MASK applied). Cheap: for a
// device backend this says whether a driver seems present, not whether the device opens.
Availability availability(const Backend& backend);
// availability(), and for a usable device backend the answer of opening the device (the first
// call opens it: for `warpcrypt backends` and --backend, never on the way to `auto`).
Availability availability_opened(const Backend& backend);

// The backends usable here, best first.
std::span<const Backend* const> usable_backends();

// The backend named `name`, or for a family name ("x86") its best usable variant; throws
// Error(backend_unavailable) with the reason when it is unknown or cannot run here (for a
// device backend, after opening the device). "auto" is not a backend name: use select_backend.
const Backend& find_backend(std::string_view name);

// `auto`: among the usable backends that implement `aead`, the one with the least predicted
// time for one call of `bytes` bytes under the installed cost model (cost_model() below).
// Equal predictions go to the earlier backend in table order. When some candidate has no entry
// in the model its time cannot be compared, so the choice falls back to table order (the first
// candidate), as before there was a model; the built-in defaults have an entry for every
// backend, so this only happens with a hand-made or partial model. Entries for backends that
// are unknown, unusable here or lack the AEAD are never consulted. Never fails: the scalar
// backend implements everything. A device backend (open_device) is opened only when it would
// win; if it cannot be opened it is dropped and the choice is made again among the others, so
// a machine whose GPU is missing or broken falls back silently.
const Backend& select_backend(Aead aead, std::uint64_t bytes);
// The same decision for a CPU with the given features (tests mask features with it).
const Backend& select_backend(Aead aead, std::uint64_t bytes, const CpuFeatures& cpu);
// ... and under a given model instead of the installed one.
const Backend& select_backend(Aead aead, std::uint64_t bytes, const CpuFeatures& cpu,
                              const CostModel& model);

// auto's choice over all sizes, as ranges: backend wins for sizes from from_bytes up to the
// next range's from_bytes - 1 (the last range has no end). The first range starts at 0. This is
// what `warpcrypt backends` and `bench --calibrate` print as crossovers. Predictions only: a
// device backend is counted unless opening it already failed, and nothing is opened here.
struct AutoRange {
    std::uint64_t from_bytes = 0;
    const Backend* backend = nullptr;
};
std::vector<AutoRange> auto_ranges(Aead aead);
std::vector<AutoRange> auto_ranges(Aead aead, const CpuFeatures& cpu, const CostModel& model);

// The cost model `auto` uses in this process; the built-in defaults until one is installed.
// Process-wide on purpose: the choice of code is made in this one place, and callers far from
// the command line (formats/, the pipeline) must not have to pass a model around. The CLI
// installs the calibrated model once at start-up, before any thread exists; after that it is
// only read. Not thread-safe against a concurrent install, and a reference from cost_model()
// is invalidated by the next install.
void install_cost_model(CostModel model);
const CostModel& cost_model();

// `auto` for the raw AES block entry points (ECB, the ACVP harness's CTR).
const Backend& select_block_backend();

}  // namespace warp
