// What the CPU can do, read once (CPUID + XGETBV on x86, getauxval on Linux/ARM), and whether
// an NVIDIA driver is present.
// Only the registry (engine/registry.cpp: what can run) and the one decision of what runs
// (engine/selection.cpp) consult it.
#pragma once

#include <string>
#include <string_view>

namespace warp {

struct CpuFeatures {
    // x86: an instruction set counts only when the OS also saves the registers it uses.
    bool aesni = false;
    bool pclmulqdq = false;
    bool avx2 = false;
    bool avx512f = false;
    bool avx512vl = false;
    bool avx512bw = false;
    bool avx512ifma = false;  // vpmadd52luq/huq
    bool vaes = false;
    bool vpclmulqdq = false;
    // ARMv8
    bool neon = false;
    bool arm_aes = false;
    bool arm_pmull = false;
    bool arm_sve2 = false;  // SVE2 (ARMv9-A), whatever the vector length
    // An NVIDIA driver's control device exists (/dev/nvidiactl): the machine may have a GPU.
    // A file check only: whether a device opens is the cuda backend's question, asked late
    // (engine/cuda/cuda.hpp). Listed here so one mask (WARPCRYPT_CPU_MASK=cuda) and one probe
    // signature serve every backend.
    bool cuda_driver = false;

    // Space-separated names of the features present, e.g. "aesni pclmulqdq avx2".
    std::string describe() const;
};

// The features of this machine, less any named in the environment variable
// WARPCRYPT_CPU_MASK (comma- or space-separated feature names, as describe() prints them), so
// tests can run narrower code paths on a wider machine.
const CpuFeatures& cpu_features();

// The features detected, with `mask` removed; exposed for tests.
CpuFeatures detect_cpu_features(std::string_view mask);

}  // namespace warp
