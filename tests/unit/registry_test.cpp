// The registry is the one place that decides what runs: these tests pin its decisions.
#include <gtest/gtest.h>

#include "engine/cpu_features.hpp"
#include "engine/error.hpp"
#include "engine/registry.hpp"

namespace warp {
namespace {

TEST(Registry, ScalarIsAlwaysUsableAndComplete) {
    const Backend& scalar = find_backend("scalar");
    EXPECT_TRUE(availability(scalar).usable);
    EXPECT_NE(scalar.aes_gcm, nullptr);
    EXPECT_NE(scalar.chacha20_poly1305, nullptr);
    EXPECT_NE(scalar.aes, nullptr);
}

TEST(Registry, EveryBackendIsListedWithAReason) {
    for (const Backend& b : all_backends()) {
        EXPECT_FALSE(b.name.empty());
        EXPECT_FALSE(availability(b).reason.empty()) << b.name;
    }
}

TEST(Registry, UnknownBackendIsAnErrorNamingTheKnownOnes) {
    try {
        find_backend("nonesuch");
        FAIL() << "expected an error";
    } catch (const Error& e) {
        EXPECT_EQ(e.cause(), ErrorCause::backend_unavailable);
        EXPECT_NE(std::string(e.what()).find("scalar"), std::string::npos);
    }
}

TEST(Registry, AutoPicksTheBestUsableBackendForEachAead) {
    // Today only the scalar backend is built, so auto must pick it for every size.
    for (Aead aead : {Aead::aes_gcm, Aead::chacha20_poly1305})
        for (std::uint64_t bytes : {0ull, 100ull, 1ull << 20})
            EXPECT_EQ(select_backend(aead, bytes).name, "scalar");
}

TEST(CpuFeatures, MaskRemovesNamedFeaturesOnly) {
    const CpuFeatures all = detect_cpu_features("");
    const CpuFeatures masked = detect_cpu_features("aesni, avx2");
    EXPECT_FALSE(masked.aesni);
    EXPECT_FALSE(masked.avx2);
    EXPECT_EQ(masked.pclmulqdq, all.pclmulqdq);
    // "avx" is not a feature name and must not strip avx2 or avx512f by prefix.
    EXPECT_EQ(detect_cpu_features("avx").avx2, all.avx2);
}

}  // namespace
}  // namespace warp
