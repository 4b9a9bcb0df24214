#include "engine/registry.hpp"

#include <algorithm>
#include <initializer_list>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/error.hpp"
#include "engine/scalar/scalar.hpp"
#include "engine/arm/arm.hpp"
#include "engine/cuda/cuda.hpp"
#include "engine/x86/x86.hpp"

namespace warp {
namespace {

Availability always_usable(const CpuFeatures&) {
    return {true, "portable constant-time code, runs everywhere"};
}

// A variant runs when its kernels are compiled in (null pointers elsewhere, see
// engine/x86/x86.hpp) and the CPU and OS support every extension its kernels use.
struct Requirement {
    const char* name;  // as CpuFeatures::describe() prints it
    bool CpuFeatures::*field;
};

// Appends to a list, separated. In place: `" " + std::string(word)` trips GCC 12's -Wrestrict
// false positive at -O2.
void append_word(std::string& words, std::string_view word, std::string_view separator = " ") {
    if (!words.empty()) words += separator;
    words += word;
}

Availability needs(const CpuFeatures& cpu, bool compiled_in, const char* builds,
                   std::initializer_list<Requirement> requirements) {
    if (!compiled_in) return {false, std::string("not compiled in (") + builds + " builds only)"};
    std::string missing;
    for (const Requirement& r : requirements)
        if (!(cpu.*r.field)) append_word(missing, r.name);
    if (!missing.empty()) return {false, "CPU or OS lacks " + missing};
    std::string all;
    for (const Requirement& r : requirements) append_word(all, r.name);
    return {true, "CPU has " + all};
}

Availability probe_x86_vaes(const CpuFeatures& cpu) {
    return needs(cpu, x86::kAesGcmVaes != nullptr, "x86-64",
                 {{"avx2", &CpuFeatures::avx2},
                  {"aesni", &CpuFeatures::aesni},
                  {"pclmulqdq", &CpuFeatures::pclmulqdq},
                  {"vaes", &CpuFeatures::vaes},
                  {"vpclmulqdq", &CpuFeatures::vpclmulqdq}});
}

Availability probe_x86_aesni(const CpuFeatures& cpu) {
    return needs(cpu, x86::kAesGcmAesni != nullptr, "x86-64",
                 {{"aesni", &CpuFeatures::aesni}, {"pclmulqdq", &CpuFeatures::pclmulqdq}});
}

Availability probe_x86_avx2(const CpuFeatures& cpu) {
    return needs(cpu, x86::kChaCha20Poly1305Avx2 != nullptr, "x86-64",
                 {{"avx2", &CpuFeatures::avx2}});
}

Availability probe_arm_crypto(const CpuFeatures& cpu) {
    return needs(cpu, arm::kAesGcmCrypto != nullptr, "AArch64",
                 {{"neon", &CpuFeatures::neon},
                  {"arm_aes", &CpuFeatures::arm_aes},
                  {"arm_pmull", &CpuFeatures::arm_pmull}});
}

Availability probe_arm_neon(const CpuFeatures& cpu) {
    return needs(cpu, arm::kChaCha20Poly1305Neon != nullptr, "AArch64",
                 {{"neon", &CpuFeatures::neon}});
}

// The GPU: a file check only (CpuFeatures::cuda_driver); the device is opened by open_cuda.
Availability probe_cuda(const CpuFeatures& cpu) {
    if (cuda::kAesGcm == nullptr)
        return {false, "not compiled in (builds with the CUDA toolkit only)"};
    if (!cpu.cuda_driver) return {false, "no NVIDIA driver (/dev/nvidiactl is missing)"};
    return {true, "NVIDIA driver present; the device is opened at first use"};
}

Availability open_cuda() {
    const cuda::DeviceCheck check = cuda::open_device();
    return {check.usable, check.reason};
}

// Best first. auto picks by the cost model's predicted time (select_backend below); this order
// breaks its ties, decides alone when the model lacks an entry, and is what the built-in
// defaults (engine/cost_model.cpp) reproduce at every size.
// Built at first use (not as a constant) because the x86 tables are pointers defined in other
// translation units.
const std::vector<Backend>& backend_table() {
    static const std::vector<Backend> table = {
        Backend{"x86-vaes", "AES-GCM with VAES + VPCLMULQDQ on 256-bit vectors, ChaCha20 on AVX2",
                &probe_x86_vaes, nullptr, x86::kAesGcmVaes, x86::kChaCha20Poly1305Avx2,
                x86::kAesVaes},
        Backend{"x86-aesni", "AES-GCM with AES-NI + PCLMULQDQ on 128-bit vectors", &probe_x86_aesni,
                nullptr, x86::kAesGcmAesni, nullptr, x86::kAesAesni},
        Backend{"x86-avx2", "ChaCha20-Poly1305 on AVX2", &probe_x86_avx2, nullptr, nullptr,
                x86::kChaCha20Poly1305Avx2, nullptr},
        Backend{"arm-crypto",
                "AES-GCM with the ARMv8 crypto extensions (AES, PMULL), ChaCha20 on NEON",
                &probe_arm_crypto, nullptr, arm::kAesGcmCrypto, arm::kChaCha20Poly1305Neon,
                arm::kAesCrypto},
        Backend{"arm-neon", "ChaCha20-Poly1305 on NEON (ARMv8 without crypto extensions)",
                &probe_arm_neon, nullptr, nullptr, arm::kChaCha20Poly1305Neon, nullptr},
        Backend{"cuda", "AES-GCM on an NVIDIA GPU (batches of chunks, one thread block each)",
                &probe_cuda, &open_cuda, cuda::kAesGcm, nullptr, cuda::kAes},
        Backend{"scalar", "portable constant-time C++ (bitsliced AES)", &always_usable, nullptr,
                &scalar::kAesGcm, &scalar::kChaCha20Poly1305, &scalar::kAes},
    };
    return table;
}

}  // namespace

std::span<const Backend> all_backends() { return backend_table(); }

Availability availability(const Backend& backend) { return backend.probe(cpu_features()); }

namespace {

// What opening each device backend answered, once asked: the registry opens a device only on
// the way to using it, and afterwards must not offer one that failed.
struct OpenedDevices {
    std::mutex mutex;
    std::map<const Backend*, Availability> answers;
};
OpenedDevices& opened_devices() {
    static OpenedDevices devices;
    return devices;
}

// Opens `backend`'s device (a no-op answer for CPU backends); the first call per backend asks.
Availability open_now(const Backend& backend) {
    if (backend.open_device == nullptr) return {true, ""};
    OpenedDevices& devices = opened_devices();
    const std::lock_guard lock(devices.mutex);
    auto found = devices.answers.find(&backend);
    if (found == devices.answers.end())
        found = devices.answers.emplace(&backend, backend.open_device()).first;
    return found->second;
}

// Whether `backend`'s device was opened already and failed (never opens it).
bool known_not_to_open(const Backend& backend) {
    if (backend.open_device == nullptr) return false;
    OpenedDevices& devices = opened_devices();
    const std::lock_guard lock(devices.mutex);
    const auto found = devices.answers.find(&backend);
    return found != devices.answers.end() && !found->second.usable;
}

}  // namespace

Availability availability_opened(const Backend& backend) {
    Availability a = availability(backend);
    if (a.usable && backend.open_device != nullptr) a = open_now(backend);
    return a;
}

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
        const Availability a = availability_opened(b);
        if (!a.usable)
            throw Error(ErrorCause::backend_unavailable,
                        "backend '" + std::string(name) + "' is not usable here: " + a.reason);
        return b;
    }
    std::string known;
    for (const Backend& b : backend_table()) append_word(known, b.name, ", ");
    throw Error(ErrorCause::backend_unavailable,
                "unknown backend '" + std::string(name) + "' (known: " + known + ")");
}

namespace {

CostModel& installed_cost_model() {
    static CostModel model = CostModel::builtin_defaults();
    return model;
}

// The usable backends that implement `aead`, in table order, less any device that was opened
// and failed; never empty (scalar).
std::vector<const Backend*> candidates(Aead aead, const CpuFeatures& cpu) {
    std::vector<const Backend*> list;
    for (const Backend& b : backend_table())
        if (b.aead(aead) != nullptr && b.probe(cpu).usable && !known_not_to_open(b))
            list.push_back(&b);
    if (list.empty())
        throw Error(ErrorCause::backend_unavailable, "no usable backend implements this AEAD");
    return list;
}

// Each candidate's entry, or an empty list when any candidate lacks one (then table order
// decides: see select_backend in registry.hpp).
std::vector<const CostEntry*> entries_of(const std::vector<const Backend*>& list, Aead aead,
                                         const CostModel& model) {
    std::vector<const CostEntry*> entries;
    for (const Backend* b : list) {
        const CostEntry* entry = model.find(b->name, aead);
        if (entry == nullptr) return {};
        entries.push_back(entry);
    }
    return entries;
}

// The candidate with the least predicted time (table order without a full model); opens nothing.
const Backend& predicted_best(const std::vector<const Backend*>& list, Aead aead,
                              std::uint64_t bytes, const CostModel& model) {
    const std::vector<const CostEntry*> entries = entries_of(list, aead, model);
    std::size_t best = 0;
    if (!entries.empty())
        for (std::size_t i = 1; i < list.size(); ++i)  // strict <: a tie keeps the earlier one
            if (entries[i]->predict_ns(bytes) < entries[best]->predict_ns(bytes)) best = i;
    return *list[best];
}

}  // namespace

void install_cost_model(CostModel model) { installed_cost_model() = std::move(model); }

const CostModel& cost_model() { return installed_cost_model(); }

const Backend& select_backend(Aead aead, std::uint64_t bytes, const CpuFeatures& cpu,
                              const CostModel& model) {
    std::vector<const Backend*> list = candidates(aead, cpu);
    for (;;) {
        const Backend& winner = predicted_best(list, aead, bytes, model);
        // Only now, with a device backend about to be used, is its device opened; one that
        // does not open is dropped (a CPU backend always remains: scalar).
        if (open_now(winner).usable) return winner;
        list.erase(std::find(list.begin(), list.end(), &winner));
    }
}

const Backend& select_backend(Aead aead, std::uint64_t bytes, const CpuFeatures& cpu) {
    return select_backend(aead, bytes, cpu, cost_model());
}

const Backend& select_backend(Aead aead, std::uint64_t bytes) {
    return select_backend(aead, bytes, cpu_features(), cost_model());
}

std::vector<AutoRange> auto_ranges(Aead aead, const CpuFeatures& cpu, const CostModel& model) {
    const std::vector<const Backend*> list = candidates(aead, cpu);
    const std::vector<const CostEntry*> entries = entries_of(list, aead, model);
    // Predictions only: nothing is opened here (a device that already failed to open is not
    // among the candidates).
    std::vector<AutoRange> ranges{{0, &predicted_best(list, aead, 0, model)}};
    if (entries.empty()) return ranges;
    // Predicted times are lines in the size, so the winner changes only to a backend that is
    // faster per byte, at most once per candidate: from the current winner, the next change is
    // the earliest size from which some other candidate is faster.
    // A candidate earlier in the table than the winner takes over on a tie already.
    for (std::size_t changes = 0; changes < list.size(); ++changes) {
        const Backend* winner = ranges.back().backend;
        std::size_t winner_index = 0;
        while (list[winner_index] != winner) ++winner_index;
        std::optional<std::uint64_t> next;
        for (std::size_t i = 0; i < list.size(); ++i) {
            const std::optional<std::uint64_t> from =
                faster_from(*entries[i], *entries[winner_index], i < winner_index);
            if (from && *from > ranges.back().from_bytes && (!next || *from < *next)) next = from;
        }
        if (!next) break;
        ranges.push_back({*next, &predicted_best(list, aead, *next, model)});
    }
    return ranges;
}

std::vector<AutoRange> auto_ranges(Aead aead) {
    return auto_ranges(aead, cpu_features(), cost_model());
}

const Backend& select_block_backend() {
    for (const Backend* b : usable_backends())
        if (b->aes != nullptr && open_now(*b).usable) return *b;
    throw Error(ErrorCause::backend_unavailable, "no usable backend has raw AES blocks");
}

}  // namespace warp
