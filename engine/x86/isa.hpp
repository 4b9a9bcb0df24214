// The one place that names x86 instruction-set targets (docs/design.md, "Backends": ISA target
// attributes in one header, no per-file -m flags). A kernel function carries one of these
// attributes; code without one is baseline x86-64 and safe to call on any CPU. The registry
// (engine/registry.cpp) only hands out a kernel after cpu_features() confirmed every extension its
// target names.
#pragma once

#if defined(__x86_64__)
#define WARP_TARGET_AESNI __attribute__((target("sse4.1,ssse3,aes,pclmul")))
#define WARP_TARGET_VAES_AVX2 __attribute__((target("avx2,aes,pclmul,vaes,vpclmulqdq")))
#define WARP_TARGET_AVX2 __attribute__((target("avx2")))
// 512-bit VAES + VPCLMULQDQ: what the x86-avx512 backend's AES-GCM needs (the registry checks
// avx512f/bw/vl, and that XCR0 says the OS saves the opmask and zmm state).
#define WARP_TARGET_VAES_AVX512 \
    __attribute__((target("avx512f,avx512bw,avx512vl,avx2,aes,pclmul,vaes,vpclmulqdq")))
// ChaCha20 on 512-bit vectors with Poly1305 on IFMA (vpmadd52luq/huq): the x86-avx512
// backend's ChaCha20-Poly1305 (the registry checks avx512ifma too).
#define WARP_TARGET_AVX512_IFMA \
    __attribute__((target("avx512f,avx512bw,avx512vl,avx512ifma,avx2")))
#endif
