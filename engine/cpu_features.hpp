// What the CPU can do, read once (CPUID + XGETBV on x86, getauxval on Linux/ARM).
// Only engine/registry.cpp consults it: that is where every choice of code path is made.
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
    bool vaes = false;
    bool vpclmulqdq = false;
    // ARMv8
    bool neon = false;
    bool arm_aes = false;
    bool arm_pmull = false;

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
