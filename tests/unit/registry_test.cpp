// The registry: what exists and can run here, and the decisions these tests pin.
#include <gtest/gtest.h>

#include "engine/cpu_features.hpp"
#include "engine/error.hpp"
#include "engine/registry.hpp"
#include "engine/selection.hpp"
#include "engine/x86/x86.hpp"

namespace warp {
namespace {

// The backend the one decision picks for a fixed AEAD (engine/selection.hpp).
std::string_view picked(Aead aead, std::uint64_t bytes, const CpuFeatures& cpu,
                        const CostModel& model) {
    return select(aead, SizeHint::exactly(bytes), {}, cpu, model).backend->name;
}

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

TEST(Registry, AutoPicksTheWidestVariantTheCpuAllows) {
    // The decision for hypothetical CPUs, whatever this machine has (BoringSSL's
    // impl_dispatch_test idea: assert which code runs).
    CpuFeatures modern;
    modern.aesni = modern.pclmulqdq = modern.avx2 = modern.vaes = modern.vpclmulqdq = true;
    CpuFeatures westmere;
    westmere.aesni = westmere.pclmulqdq = true;
    CpuFeatures haswell = westmere;
    haswell.avx2 = true;
    const CpuFeatures nothing;

    const bool x86_built = x86::kAesGcmVaes != nullptr && x86::kAesGcmAesni != nullptr &&
                           x86::kChaCha20Poly1305Avx2 != nullptr;
    if (x86_built) {
        EXPECT_EQ(picked(Aead::aes_gcm, 1 << 20, modern, cost_model()), "x86-vaes");
        EXPECT_EQ(picked(Aead::chacha20_poly1305, 1 << 20, modern, cost_model()), "x86-avx2");
        EXPECT_EQ(picked(Aead::aes_gcm, 1 << 20, westmere, cost_model()), "x86-aesni");
        EXPECT_EQ(picked(Aead::chacha20_poly1305, 1 << 20, westmere, cost_model()), "scalar");
        EXPECT_EQ(picked(Aead::aes_gcm, 1 << 20, haswell, cost_model()), "x86-aesni");
        EXPECT_EQ(picked(Aead::chacha20_poly1305, 1 << 20, haswell, cost_model()), "x86-avx2");
    }
    for (Aead aead : {Aead::aes_gcm, Aead::chacha20_poly1305})
        EXPECT_EQ(picked(aead, 100, nothing, cost_model()), "scalar");
}

TEST(Registry, AFamilyNameMeansItsUsableVariants) {
    for (const Backend* b : usable_backends()) {
        if (!b->name.starts_with("x86-")) continue;
        const BackendRequest family = request_backend("x86");
        ASSERT_FALSE(family.allowed.empty());
        for (const Backend* member : family.allowed) EXPECT_TRUE(member->name.starts_with("x86-"));
        // The decision then picks among them, per cipher.
        for (Aead aead : {Aead::aes_gcm, Aead::chacha20_poly1305})
            EXPECT_TRUE(select(aead, SizeHint::exactly(1 << 20), family)
                            .backend->name.starts_with("x86-"));
        return;
    }
    EXPECT_THROW(request_backend("x86"), Error);
}

TEST(CpuFeatures, MaskRemovesNamedFeaturesOnly) {
    const CpuFeatures all = detect_cpu_features("");
    const CpuFeatures masked = detect_cpu_features("aesni, avx2");
    EXPECT_FALSE(masked.aesni);
    EXPECT_FALSE(masked.avx2);
    EXPECT_EQ(masked.pclmulqdq, all.pclmulqdq);
    // "avx" is not a feature name and must not strip avx2 or avx512f by prefix.
    EXPECT_EQ(detect_cpu_features("avx").avx2, all.avx2);
    EXPECT_FALSE(detect_cpu_features("cuda").cuda_driver);
    EXPECT_EQ(detect_cpu_features("cuda").aesni, all.aesni);
}

// The GPU backend is always listed; without its toolkit in the build or without a driver it
// says which, and asking for it by name fails with that reason (never a crash, never a
// fallback to another backend).
TEST(Registry, TheGpuBackendSaysWhyItCannotRun) {
    const Backend* cuda = nullptr;
    for (const Backend& b : all_backends())
        if (b.name == "cuda") cuda = &b;
    ASSERT_NE(cuda, nullptr);
    ASSERT_NE(cuda->open_device, nullptr);
    CpuFeatures no_driver = cpu_features();
    no_driver.cuda_driver = false;
    const Availability without = cuda->probe(no_driver);
    EXPECT_FALSE(without.usable);
    EXPECT_FALSE(without.reason.empty());
    if (!availability_opened(*cuda).usable) {
        try {
            find_backend("cuda");
            ADD_FAILURE() << "find_backend(\"cuda\") succeeded without a usable device";
        } catch (const Error& error) {
            EXPECT_NE(std::string(error.what()).find(availability_opened(*cuda).reason),
                      std::string::npos)
                << error.what();
        }
        // auto never lands on it, at any size.
        for (std::uint64_t size : {std::uint64_t{0}, std::uint64_t{1} << 30})
            EXPECT_NE(select(Aead::aes_gcm, SizeHint::exactly(size)).backend->name, "cuda");
    }
}

}  // namespace
}  // namespace warp
