#include "engine/cpu_features.hpp"

#include <unistd.h>

#include <cstdlib>
#include <cstdint>
#include <utility>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define WARP_X86 1
#endif
#if defined(__aarch64__) && defined(__linux__)
#include <asm/hwcap.h>
#include <sys/auxv.h>
#define WARP_ARM_LINUX 1
#endif

namespace warp {
namespace {

using FeatureField = bool CpuFeatures::*;

constexpr std::pair<std::string_view, FeatureField> kFeatureNames[] = {
    {"aesni", &CpuFeatures::aesni},       {"pclmulqdq", &CpuFeatures::pclmulqdq},
    {"avx2", &CpuFeatures::avx2},         {"avx512f", &CpuFeatures::avx512f},
    {"avx512vl", &CpuFeatures::avx512vl}, {"avx512bw", &CpuFeatures::avx512bw},
    {"avx512ifma", &CpuFeatures::avx512ifma},
    {"vaes", &CpuFeatures::vaes},         {"vpclmulqdq", &CpuFeatures::vpclmulqdq},
    {"neon", &CpuFeatures::neon},         {"arm_aes", &CpuFeatures::arm_aes},
    {"arm_pmull", &CpuFeatures::arm_pmull}, {"arm_sve2", &CpuFeatures::arm_sve2},
    {"cuda", &CpuFeatures::cuda_driver},
};

#ifdef WARP_X86
std::uint64_t read_xcr0() {
    std::uint32_t eax = 0, edx = 0;
    __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
    return (std::uint64_t{edx} << 32) | eax;
}

CpuFeatures detect_x86() {
    CpuFeatures f;
    unsigned a = 0, b = 0, c = 0, d = 0;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return f;
    const bool osxsave = (c >> 27) & 1;
    const bool sse_ok = true;  // x86-64 guarantees SSE state is saved
    f.aesni = sse_ok && ((c >> 25) & 1);
    f.pclmulqdq = sse_ok && ((c >> 1) & 1);
    const std::uint64_t xcr0 = osxsave ? read_xcr0() : 0;
    const bool ymm_ok = (xcr0 & 0x6) == 0x6;             // XMM and YMM state
    const bool zmm_ok = ymm_ok && (xcr0 & 0xe0) == 0xe0;  // opmask, ZMM_Hi256, Hi16_ZMM
    if (__get_cpuid_max(0, nullptr) < 7) return f;
    __cpuid_count(7, 0, a, b, c, d);
    f.avx2 = ymm_ok && ((b >> 5) & 1);
    f.avx512f = zmm_ok && ((b >> 16) & 1);
    f.avx512bw = zmm_ok && ((b >> 30) & 1);
    f.avx512ifma = zmm_ok && ((b >> 21) & 1);
    f.avx512vl = zmm_ok && ((b >> 31) & 1);
    f.vaes = ymm_ok && ((c >> 9) & 1);
    f.vpclmulqdq = ymm_ok && ((c >> 10) & 1);
    return f;
}
#endif

CpuFeatures detect_processor() {
#if defined(WARP_X86)
    return detect_x86();
#elif defined(WARP_ARM_LINUX)
    CpuFeatures f;
    const unsigned long hwcap = getauxval(AT_HWCAP);
    f.neon = (hwcap & HWCAP_ASIMD) != 0;
    f.arm_aes = (hwcap & HWCAP_AES) != 0;
    f.arm_pmull = (hwcap & HWCAP_PMULL) != 0;
#ifdef HWCAP2_SVE2
    f.arm_sve2 = (getauxval(AT_HWCAP2) & HWCAP2_SVE2) != 0;
#endif
    return f;
#else
    return CpuFeatures{};
#endif
}

CpuFeatures detect_hardware() {
    CpuFeatures f = detect_processor();
    f.cuda_driver = access("/dev/nvidiactl", F_OK) == 0;
    return f;
}

}  // namespace

std::string CpuFeatures::describe() const {
    std::string out;
    for (const auto& [name, field] : kFeatureNames) {
        if (!(this->*field)) continue;
        if (!out.empty()) out += ' ';
        out += name;
    }
    return out.empty() ? "none" : out;
}

CpuFeatures detect_cpu_features(std::string_view mask) {
    CpuFeatures f = detect_hardware();
    for (const auto& [name, field] : kFeatureNames) {
        // Whole-word match in a comma/space separated list.
        for (std::size_t pos = mask.find(name); pos != std::string_view::npos;
             pos = mask.find(name, pos + 1)) {
            const bool starts = pos == 0 || mask[pos - 1] == ',' || mask[pos - 1] == ' ';
            const std::size_t end = pos + name.size();
            const bool ends = end == mask.size() || mask[end] == ',' || mask[end] == ' ';
            if (starts && ends) f.*field = false;
        }
    }
    return f;
}

const CpuFeatures& cpu_features() {
    static const CpuFeatures features = [] {
        const char* mask = std::getenv("WARPCRYPT_CPU_MASK");
        return detect_cpu_features(mask != nullptr ? mask : "");
    }();
    return features;
}

}  // namespace warp
