// What exists and what can run (docs/design.md, "One registry"): the table of every backend
// warpcrypt knows, best first, with its implementations and built-in costs; whether each can
// run here; the cost model in use. A backend that is not compiled in, or that this CPU cannot
// run, is still listed with the reason, so callers never need an #ifdef.
//
// Which of them runs for a given payload is decided in one place, engine/selection.hpp, from
// this table.
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
    Availability (*probe)(const CpuFeatures&) = nullptr;
    // For a backend that runs on a device (cuda): opens it, once per process, and says whether
    // it can run; nullptr for CPU backends. probe stays cheap (no driver call) because every
    // run consults it; this is called only when the backend is about to be used: by
    // find_backend, and by select() (engine/selection.hpp) when the backend would win.
    Availability (*open_device)() = nullptr;
    // Implementations; nullptr where the backend does not provide that algorithm.
    const AeadImpl* aes_gcm = nullptr;
    const AeadImpl* chacha20_poly1305 = nullptr;
    const BlockCipherImpl* aes = nullptr;

    // The built-in cost of each AEAD above (engine/cost_model.hpp): rough orders of magnitude
    // for a current core, one thread, so that `auto` chooses sensibly before any calibration.
    // Beside the row on purpose: a new backend states its figures where it is listed.
    CostFigures aes_gcm_cost{};
    CostFigures chacha20_poly1305_cost{};

    const AeadImpl* aead(Aead which) const {
        return which == Aead::aes_gcm ? aes_gcm : chacha20_poly1305;
    }
    const CostFigures& cost(Aead which) const {
        return which == Aead::aes_gcm ? aes_gcm_cost : chacha20_poly1305_cost;
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

// The backend named `name`; throws Error(backend_unavailable) with the reason when it is
// unknown or cannot run here (for a device backend, after opening the device). "auto" and
// family names ("x86") are requests, not backends: see request_backend (engine/selection.hpp).
const Backend& find_backend(std::string_view name);

// The usable variants of a family ("x86": "x86-vaes", "x86-aesni", ...), best first; empty
// when `family` names none.
std::vector<const Backend*> family_members(std::string_view family);

// The cost model `auto` uses in this process; the built-in defaults until one is installed.
// Process-wide on purpose: the choice of code is made in this one place, and callers far from
// the command line (formats/, the pipeline) must not have to pass a model around. The CLI
// installs the calibrated model once at start-up, before any thread exists; after that it is
// only read. Not thread-safe against a concurrent install, and a reference from cost_model()
// is invalidated by the next install.
void install_cost_model(CostModel model);
const CostModel& cost_model();

// The built-in cost model: the figures beside each row of the table (registry.cpp), for every
// backend and AEAD the table lists, compiled in or not.
CostModel builtin_cost_model();

// Opens `backend`'s device once per process and returns that first answer ever after (usable
// with an empty reason for a CPU backend). Thread-safe.
Availability open_device_once(const Backend& backend);
// Whether `backend`'s device was opened already and failed (never opens it).
bool failed_to_open(const Backend& backend);

}  // namespace warp
