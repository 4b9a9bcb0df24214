// The one place that names ARM instruction-set targets (docs/design.md, "Backends": ISA target
// attributes in one header, no per-file -m flags). Baseline AArch64 (ARMv8-A) always has NEON
// (Advanced SIMD), so NEON code needs no attribute; the crypto extensions (AES, PMULL) are optional
// and a kernel using them carries WARP_TARGET_ARM_CRYPTO. The registry only hands such a kernel out
// after cpu_features() saw HWCAP_AES and HWCAP_PMULL. SVE2 (ARMv9-A; Neoverse N2/V2, Cortex-A710
// and later) is optional too: a kernel using it carries WARP_TARGET_ARM_SVE2 and runs only
// after cpu_features() saw HWCAP2_SVE2.
#pragma once

#if defined(__aarch64__)
#define WARP_TARGET_ARM_CRYPTO __attribute__((target("+crypto")))
#define WARP_TARGET_ARM_SVE2 __attribute__((target("+sve2")))
#endif
