// The one decision of what runs (docs/design.md, "One registry"): which backend, and so which
// implementation, seals or opens one payload, for a cipher (or any cipher: `--cipher auto`),
// a size (exact, or "at least N" for a stream that has not ended) and what the user forced
// (`--backend`). Every caller that runs an AEAD over data asks select() once per payload and
// hands the answer down; the answer carries its reason back up, so `-v` prints what ran and
// `warpcrypt backends` prints the same decision from the same function.
//
// The rule: among the usable (backend, AEAD) pairs the request allows, the one with the least
// predicted time under the cost model in use (engine/cost_model.hpp: built-in figures beside
// each registry row, or this machine's calibration). Equal predictions go to the earlier pair:
// table order, then AES-GCM before ChaCha20-Poly1305. When some candidate has no entry in the
// model, times cannot be compared and the first candidate wins (table order, as before there
// was a model). So the cipher follows the hardware: AES-GCM where a backend runs AES in
// hardware (AES-NI/VAES, ARMv8 crypto, a calibrated GPU that wins for the size),
// ChaCha20-Poly1305 where none does.
//
// A device backend (cuda) is opened only when it would win; if it does not open, it is
// dropped and the choice is made again among the others, so a machine whose GPU is missing
// or broken falls back silently (the reason says so).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/aead.hpp"
#include "engine/cost_model.hpp"
#include "engine/cpu_features.hpp"
#include "engine/registry.hpp"

namespace warp {

// What select() assumes of a stream known only to be at least N bytes long, for N below it:
// a stream that did not end within the look-ahead (engine/stream/lookahead.hpp) is presumed
// large.
inline constexpr std::uint64_t kAssumedStreamBytes = std::uint64_t{1} << 30;

// How much data one decision covers.
struct SizeHint {
    std::uint64_t bytes = 0;
    bool exact = true;  // false: at least `bytes`

    static constexpr SizeHint exactly(std::uint64_t n) { return {n, true}; }
    static constexpr SizeHint at_least(std::uint64_t n) { return {n, false}; }
    // The size predictions are made for.
    constexpr std::uint64_t planning_bytes() const {
        return exact || bytes >= kAssumedStreamBytes ? bytes : kAssumedStreamBytes;
    }
};

// The backends a user allows (`--backend`): none listed means auto, every usable backend.
struct BackendRequest {
    BackendRequest() = default;
    // Exactly `only` (nullptr: auto). Implicit so that options structs take a backend pointer,
    // as the tests and fuzzers pass one (also test-only backends outside the table).
    BackendRequest(const Backend* only);  // NOLINT(google-explicit-constructor)

    std::vector<const Backend*> allowed;  // best first
    std::string name;                     // as the user wrote it; empty for auto

    bool is_auto() const noexcept { return allowed.empty(); }
};

// `--backend NAME`: "auto" or empty; a backend's name; or a family ("x86": its usable
// variants, so the cipher and size choose among them). Throws Error(backend_unavailable) with
// the reason when the name is unknown or cannot run here (a device backend is opened to know).
BackendRequest request_backend(std::string_view name);

// The answer.
struct Selection {
    const Backend* backend = nullptr;
    Aead aead = Aead::aes_gcm;
    const AeadImpl* impl = nullptr;  // backend->aead(aead), never null
    // One line, for -v: who decided ("auto", "--backend x86"), what, and why, e.g. "auto:
    // AES-GCM on x86-vaes, predicted 175 us for 1048576 bytes, against 655 us for
    // ChaCha20-Poly1305 on x86-avx2".
    std::string reason;
    // The "why" part alone ("predicted 175 us ...", "the only candidate"), for reports that
    // name the pick themselves (`warpcrypt backends`).
    std::string why;
};

// cipher: the AEAD the caller needs, or nullopt for any (`--cipher auto`). Throws
// Error(backend_unavailable) when the request allows no backend that implements the cipher
// (e.g. `--backend x86-aesni` for ChaCha20-Poly1305); with auto it never fails: the scalar
// backend implements everything.
Selection select(std::optional<Aead> cipher, SizeHint size, const BackendRequest& request = {});
// The same decision for a CPU with the given features under a given model (tests mask
// features with it; nothing about this machine is consulted but opened devices).
Selection select(std::optional<Aead> cipher, SizeHint size, const BackendRequest& request,
                 const CpuFeatures& cpu, const CostModel& model);

// What the decision weighs for this size: every candidate pair the request allows, in the
// decision's order, with its predicted time (nullopt where the model has no entry).
struct Prediction {
    const Backend* backend = nullptr;
    Aead aead = Aead::aes_gcm;
    std::optional<double> ns;
};
std::vector<Prediction> predictions(std::optional<Aead> cipher, SizeHint size,
                                    const BackendRequest& request = {});

// The same decision over all sizes, as ranges: the pair wins for exact sizes from from_bytes
// up to the next range's from_bytes - 1 (the last range has no end; the first starts at 0).
// What `warpcrypt backends` and `bench --calibrate` print as crossovers, and where a stream's
// look-ahead stops. Predictions only: a device backend is counted unless opening it already
// failed, and nothing is opened here.
struct AutoRange {
    std::uint64_t from_bytes = 0;
    const Backend* backend = nullptr;
    Aead aead = Aead::aes_gcm;
};
std::vector<AutoRange> auto_ranges(std::optional<Aead> cipher,
                                   const BackendRequest& request = {});
std::vector<AutoRange> auto_ranges(std::optional<Aead> cipher, const BackendRequest& request,
                                   const CpuFeatures& cpu, const CostModel& model);

// The backend for the raw AES block entry points (ECB, the ACVP harness's CTR): the first
// usable one with AES blocks (no cost model: only tests and benchmarks call them).
const Backend& select_block_backend();

// "AES-GCM", "ChaCha20-Poly1305": how reasons name an AEAD.
std::string_view aead_display_name(Aead aead);

}  // namespace warp
