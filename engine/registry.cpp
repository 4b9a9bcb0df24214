#include "engine/registry.hpp"

#include <algorithm>
#include <initializer_list>
#include <map>
#include <mutex>
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

Availability probe_x86_avx512(const CpuFeatures& cpu) {
    return needs(cpu, x86::kAesGcmAvx512 != nullptr, "x86-64",
                 {{"avx512f", &CpuFeatures::avx512f},
                  {"avx512bw", &CpuFeatures::avx512bw},
                  {"avx512vl", &CpuFeatures::avx512vl},
                  {"avx512ifma", &CpuFeatures::avx512ifma},
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

Availability probe_arm_sve2(const CpuFeatures& cpu) {
    return needs(cpu, arm::kChaCha20Poly1305Sve2 != nullptr, "AArch64",
                 {{"neon", &CpuFeatures::neon}, {"arm_sve2", &CpuFeatures::arm_sve2}});
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

// Built-in cost figures: ROUGH ORDERS OF MAGNITUDE for a current x86-64 core, one thread, not
// measurements of this machine. They exist so that `auto` makes a sensible choice before any
// calibration, and for each AEAD they reproduce the table's order at every size: down the
// table, latency never decreases and throughput never increases, so an earlier backend is
// never predicted slower than a later one (tests/unit/cost_model_test.cpp checks it).
// `warpcrypt bench --calibrate` replaces all of them with this machine's numbers.
//
// Across AEADs they encode the public AES-vs-ChaCha measurements: where some backend runs AES
// in hardware, AES-GCM is predicted faster than ChaCha20-Poly1305; where none does, the
// bitsliced AES is far slower than ChaCha20, so `--cipher auto` picks ChaCha20-Poly1305.
//
// The one deliberate exception to the order is the device backend (cuda): its per-call
// latency (launch and transfers) is far above the CPU backends', so scalar, later in the
// table, beats it on short messages; that is the point of the model. Its throughput is set
// BELOW every CPU backend with AES instructions on purpose, so that an uncalibrated machine
// never moves work to the GPU when its CPU has AES (the public experiment: AES-NI ~80-170x
// faster than a small GPU at 4-16 KB), yet above the bitsliced scalar code, which a GPU does
// beat (6-14x there). Only `bench --calibrate`, which measures the real device, can make the
// GPU win over AES instructions. Its open-device cost is excluded: paid once per run.
//
// Throughputs in GB/s, which is bytes per ns, the unit of CostFigures::bytes_per_ns. Per-call
// latencies in ns: what a short message costs beyond its bytes (argument checks, key-state
// loads, the tail); the bitsliced AES works on several blocks at once even for a short
// message, hence its higher figure.
constexpr double kVectorCallNs = 100;
// 32 blocks per iteration: 1.35x x86-vaes at 16 KiB to 1 MiB on an Intel Xeon with AVX-512
// (docs/backends.md). A CPU that executes zmm as two 256-bit halves (Zen 4) gains less or
// nothing: there `bench --calibrate` measures both, and `auto` follows the measurement.
constexpr CostFigures kAvx512AesGcm{kVectorCallNs, 8.0};
constexpr CostFigures kVaesAesGcm{kVectorCallNs, 6.0};    // 16 blocks per iteration
constexpr CostFigures kAesniAesGcm{kVectorCallNs, 3.5};   // 8 blocks per iteration
// 16 blocks per step with the IFMA MAC beside them: 1.9x x86-avx2 at 64 KiB on an Intel Xeon
// with AVX-512 (docs/backends.md).
constexpr CostFigures kAvx512ChaCha{kVectorCallNs, 4.0};
constexpr CostFigures kAvx2ChaCha{kVectorCallNs, 2.2};    // stitched: 2.2-2.3 GB/s on Zen 3
constexpr CostFigures kArmAesGcm{kVectorCallNs, 3.0};     // a Neoverse-class core
// SVE2's XAR: about 0.6x the instructions per byte of arm-neon's seal (docs/backends.md, "ARM
// kernels: instructions per byte").
constexpr CostFigures kSve2ChaCha{kVectorCallNs, 1.4};
constexpr CostFigures kNeonChaCha{kVectorCallNs, 1.0};
constexpr CostFigures kCudaAesGcm{50'000, 2.0};
constexpr CostFigures kScalarAesGcm{300, 0.13};          // bitsliced AES, constant-time GHASH
// Its latency ties x86-avx2's: the table decides between them on short messages.
constexpr CostFigures kScalarChaCha{kVectorCallNs, 0.7};

// Best first: the order breaks the cost model's ties and decides alone when the model lacks
// an entry (engine/selection.cpp). Each backend implements what its own folder holds; the
// ChaCha20-Poly1305 of an AES backend's machine is its sibling's (x86-avx2, arm-neon), which
// the selection finds by itself.
// Built at first use (not as a constant) because the kernel tables are pointers defined in
// other translation units.
const std::vector<Backend>& backend_table() {
    static const std::vector<Backend> table = {
        {.name = "x86-avx512",
         .summary = "AES-GCM with VAES + VPCLMULQDQ, ChaCha20-Poly1305 with IFMA, on 512-bit "
                    "vectors (AVX-512)",
         .probe = &probe_x86_avx512, .aes_gcm = x86::kAesGcmAvx512,
         .chacha20_poly1305 = x86::kChaCha20Poly1305Avx512, .aes_gcm_cost = kAvx512AesGcm,
         .chacha20_poly1305_cost = kAvx512ChaCha},
        {.name = "x86-vaes", .summary = "AES-GCM with VAES + VPCLMULQDQ on 256-bit vectors",
         .probe = &probe_x86_vaes, .aes_gcm = x86::kAesGcmVaes, .aes = x86::kAesVaes,
         .aes_gcm_cost = kVaesAesGcm},
        {.name = "x86-aesni", .summary = "AES-GCM with AES-NI + PCLMULQDQ on 128-bit vectors",
         .probe = &probe_x86_aesni, .aes_gcm = x86::kAesGcmAesni, .aes = x86::kAesAesni,
         .aes_gcm_cost = kAesniAesGcm},
        {.name = "x86-avx2", .summary = "ChaCha20-Poly1305 on AVX2", .probe = &probe_x86_avx2,
         .chacha20_poly1305 = x86::kChaCha20Poly1305Avx2, .chacha20_poly1305_cost = kAvx2ChaCha},
        {.name = "arm-crypto", .summary = "AES-GCM with the ARMv8 crypto extensions (AES, PMULL)",
         .probe = &probe_arm_crypto, .aes_gcm = arm::kAesGcmCrypto, .aes = arm::kAesCrypto,
         .aes_gcm_cost = kArmAesGcm},
        {.name = "arm-sve2", .summary = "ChaCha20-Poly1305 on NEON with SVE2 rotates (XAR)",
         .probe = &probe_arm_sve2, .chacha20_poly1305 = arm::kChaCha20Poly1305Sve2,
         .chacha20_poly1305_cost = kSve2ChaCha},
        {.name = "arm-neon", .summary = "ChaCha20-Poly1305 on NEON", .probe = &probe_arm_neon,
         .chacha20_poly1305 = arm::kChaCha20Poly1305Neon, .chacha20_poly1305_cost = kNeonChaCha},
        {.name = "cuda",
         .summary = "AES-GCM on an NVIDIA GPU (batches of chunks, one thread block each)",
         .probe = &probe_cuda, .open_device = &open_cuda, .aes_gcm = cuda::kAesGcm,
         .aes = cuda::kAes, .aes_gcm_cost = kCudaAesGcm},
        {.name = "scalar", .summary = "portable constant-time C++ (bitsliced AES)",
         .probe = &always_usable, .aes_gcm = &scalar::kAesGcm,
         .chacha20_poly1305 = &scalar::kChaCha20Poly1305, .aes = &scalar::kAes,
         .aes_gcm_cost = kScalarAesGcm, .chacha20_poly1305_cost = kScalarChaCha},
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

}  // namespace

Availability open_device_once(const Backend& backend) {
    if (backend.open_device == nullptr) return {true, ""};
    OpenedDevices& devices = opened_devices();
    const std::lock_guard lock(devices.mutex);
    auto found = devices.answers.find(&backend);
    if (found == devices.answers.end())
        found = devices.answers.emplace(&backend, backend.open_device()).first;
    return found->second;
}

bool failed_to_open(const Backend& backend) {
    if (backend.open_device == nullptr) return false;
    OpenedDevices& devices = opened_devices();
    const std::lock_guard lock(devices.mutex);
    const auto found = devices.answers.find(&backend);
    return found != devices.answers.end() && !found->second.usable;
}

Availability availability_opened(const Backend& backend) {
    Availability a = availability(backend);
    if (a.usable && backend.open_device != nullptr) a = open_device_once(backend);
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

std::vector<const Backend*> family_members(std::string_view family) {
    std::vector<const Backend*> members;
    for (const Backend* b : usable_backends())
        if (b->name.size() > family.size() && b->name.starts_with(family) &&
            b->name[family.size()] == '-')
            members.push_back(b);
    return members;
}

const Backend& find_backend(std::string_view name) {
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
    static CostModel model = builtin_cost_model();
    return model;
}

}  // namespace

CostModel builtin_cost_model() {
    CostModel model;
    for (const Backend& b : backend_table())
        for (Aead aead : {Aead::aes_gcm, Aead::chacha20_poly1305})
            if (b.cost(aead).bytes_per_ns > 0)
                model.set({std::string(b.name), aead, b.cost(aead).latency_ns,
                           b.cost(aead).bytes_per_ns, CostSource::builtin});
    return model;
}

void install_cost_model(CostModel model) { installed_cost_model() = std::move(model); }

const CostModel& cost_model() { return installed_cost_model(); }

}  // namespace warp
