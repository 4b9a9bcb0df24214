// The one decision of what runs (engine/selection.hpp), pinned by data: for a table of CPUs
// (their features), ciphers (or auto) and sizes, which backend and which cipher it picks
// under the built-in cost model. BoringSSL's impl_dispatch_test is the model: assert which
// code runs, not only that the answer is right. Rows for an architecture run in builds for it
// (x86-64 natively, AArch64 under qemu: scripts/test-arm64.sh).
#include <gtest/gtest.h>

#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/arm/arm.hpp"
#include "engine/cpu_features.hpp"
#include "engine/error.hpp"
#include "engine/registry.hpp"
#include "engine/selection.hpp"
#include "engine/x86/x86.hpp"

namespace warp {
namespace {

enum class Arch { x86, arm, any };

struct DispatchRow {
    Arch arch;
    std::string_view features;  // present, as CpuFeatures::describe() names them
    std::optional<Aead> cipher;  // nullopt: --cipher auto
    std::uint64_t bytes;
    std::string_view backend;  // what runs
    Aead aead;                 // with which cipher
};

constexpr std::optional<Aead> kAuto = std::nullopt;
constexpr Aead kAes = Aead::aes_gcm;
constexpr Aead kChaCha = Aead::chacha20_poly1305;
constexpr std::uint64_t kMiB = 1 << 20;

constexpr std::string_view kZen = "aesni pclmulqdq avx2 vaes vpclmulqdq";  // Zen 3+, Ice Lake+
constexpr std::string_view kHaswell = "aesni pclmulqdq avx2";
// Sapphire Rapids, Zen 4: AVX-512 with IFMA, VAES and VPCLMULQDQ.
constexpr std::string_view kAvx512 =
    "aesni pclmulqdq avx2 avx512f avx512vl avx512bw avx512ifma vaes vpclmulqdq";
constexpr std::string_view kSkylakeX = "aesni pclmulqdq avx2 avx512f avx512vl avx512bw";
constexpr std::string_view kWestmere = "aesni pclmulqdq";
constexpr std::string_view kAvx2Only = "avx2";  // AES masked: an old Atom-like core
constexpr std::string_view kNeoverse = "neon arm_aes arm_pmull";  // N1: no SVE2
constexpr std::string_view kNeoverseV2 = "neon arm_aes arm_pmull arm_sve2";
constexpr std::string_view kRaspberryPi4 = "neon";  // Cortex-A72 without the crypto extensions

constexpr DispatchRow kRows[] = {
    // x86: AES where the CPU has AES instructions, at every size; ChaCha where it has not.
    {Arch::x86, kZen, kAuto, 0, "x86-vaes", kAes},
    {Arch::x86, kZen, kAuto, 100, "x86-vaes", kAes},
    {Arch::x86, kZen, kAuto, kMiB, "x86-vaes", kAes},
    {Arch::x86, kZen, kAes, 16, "x86-vaes", kAes},
    {Arch::x86, kZen, kChaCha, kMiB, "x86-avx2", kChaCha},
    // AVX-512 with IFMA: x86-avx512 for both ciphers, at every size (ties go to the earlier row).
    {Arch::x86, kAvx512, kAuto, 0, "x86-avx512", kAes},
    {Arch::x86, kAvx512, kAuto, kMiB, "x86-avx512", kAes},
    {Arch::x86, kAvx512, kChaCha, 100, "x86-avx512", kChaCha},
    {Arch::x86, kAvx512, kChaCha, kMiB, "x86-avx512", kChaCha},
    // AVX-512 without VAES and IFMA (Skylake-X), or without IFMA: the 256-bit backends.
    {Arch::x86, kSkylakeX, kAuto, kMiB, "x86-aesni", kAes},
    {Arch::x86, kSkylakeX, kChaCha, kMiB, "x86-avx2", kChaCha},
    {Arch::x86, "aesni pclmulqdq avx2 avx512f avx512vl avx512bw vaes vpclmulqdq", kAuto, kMiB,
     "x86-vaes", kAes},
    {Arch::x86, kHaswell, kAuto, 64 << 10, "x86-aesni", kAes},
    {Arch::x86, kHaswell, kChaCha, 64 << 10, "x86-avx2", kChaCha},
    {Arch::x86, kWestmere, kAuto, kMiB, "x86-aesni", kAes},
    {Arch::x86, kWestmere, kChaCha, kMiB, "scalar", kChaCha},
    {Arch::x86, kAvx2Only, kAuto, 0, "x86-avx2", kChaCha},
    {Arch::x86, kAvx2Only, kAuto, 100, "x86-avx2", kChaCha},
    {Arch::x86, kAvx2Only, kAuto, kMiB, "x86-avx2", kChaCha},
    {Arch::x86, kAvx2Only, kAes, kMiB, "scalar", kAes},
    {Arch::x86, "aesni avx2", kAuto, kMiB, "x86-avx2", kChaCha},  // no PCLMULQDQ: no fast GHASH
    {Arch::x86, "avx2 vaes vpclmulqdq", kAuto, kMiB, "x86-avx2", kChaCha},  // VAES needs AES-NI
    // AArch64: the crypto extensions decide the same way.
    {Arch::arm, kNeoverse, kAuto, 0, "arm-crypto", kAes},
    {Arch::arm, kNeoverse, kAuto, kMiB, "arm-crypto", kAes},
    {Arch::arm, kNeoverse, kChaCha, kMiB, "arm-neon", kChaCha},
    {Arch::arm, kNeoverseV2, kAuto, kMiB, "arm-crypto", kAes},
    {Arch::arm, kNeoverseV2, kChaCha, kMiB, "arm-sve2", kChaCha},
    {Arch::arm, kNeoverseV2, kChaCha, 100, "arm-sve2", kChaCha},
    {Arch::arm, "neon arm_sve2", kAuto, kMiB, "arm-sve2", kChaCha},  // no AES: ChaCha, with XAR
    {Arch::arm, kRaspberryPi4, kAuto, kMiB, "arm-neon", kChaCha},
    {Arch::arm, kRaspberryPi4, kAuto, 100, "arm-neon", kChaCha},
    {Arch::arm, kRaspberryPi4, kAes, kMiB, "scalar", kAes},
    {Arch::arm, "neon arm_aes", kAuto, kMiB, "arm-neon", kChaCha},  // no PMULL: no fast GHASH
    // No SIMD at all: the bitsliced AES is far slower than scalar ChaCha20.
    {Arch::any, "", kAuto, 0, "scalar", kChaCha},
    {Arch::any, "", kAuto, kMiB, "scalar", kChaCha},
    {Arch::any, "", kAes, kMiB, "scalar", kAes},
};

bool built_for(Arch arch) {
    switch (arch) {
        case Arch::x86:
            return x86::kAesGcmVaes != nullptr && x86::kAesGcmAesni != nullptr &&
                   x86::kChaCha20Poly1305Avx2 != nullptr;
        case Arch::arm:
            return arm::kAesGcmCrypto != nullptr && arm::kChaCha20Poly1305Neon != nullptr &&
                   arm::kChaCha20Poly1305Sve2 != nullptr;
        case Arch::any: return true;
    }
    return false;
}

// The CPU with exactly these features (and no GPU driver).
CpuFeatures cpu_with(std::string_view names) {
    constexpr std::pair<std::string_view, bool CpuFeatures::*> kFields[] = {
        {"aesni", &CpuFeatures::aesni},         {"pclmulqdq", &CpuFeatures::pclmulqdq},
        {"avx2", &CpuFeatures::avx2},           {"vaes", &CpuFeatures::vaes},
        {"avx512f", &CpuFeatures::avx512f},     {"avx512vl", &CpuFeatures::avx512vl},
        {"avx512bw", &CpuFeatures::avx512bw},   {"avx512ifma", &CpuFeatures::avx512ifma},
        {"vpclmulqdq", &CpuFeatures::vpclmulqdq}, {"neon", &CpuFeatures::neon},
        {"arm_aes", &CpuFeatures::arm_aes},     {"arm_pmull", &CpuFeatures::arm_pmull},
        {"arm_sve2", &CpuFeatures::arm_sve2},
    };
    CpuFeatures cpu;
    std::istringstream words{std::string(names)};
    for (std::string word; words >> word;) {
        bool known = false;
        for (const auto& [name, field] : kFields)
            if (word == name) {
                cpu.*field = true;
                known = true;
            }
        EXPECT_TRUE(known) << "unknown feature in the table: " << word;
    }
    // The names are CpuFeatures::describe()'s, so a row reads like `warpcrypt backends`.
    EXPECT_EQ(cpu.describe(), names.empty() ? "none" : std::string(names));
    return cpu;
}

std::string describe(const DispatchRow& row) {
    return "features '" + std::string(row.features) + "', cipher " +
           (row.cipher ? std::string(aead_display_name(*row.cipher)) : std::string("auto")) + ", " +
           std::to_string(row.bytes) + " bytes";
}

TEST(Dispatch, EachRowOfTheTablePicksItsBackendAndCipher) {
    const CostModel defaults = builtin_cost_model();
    std::size_t checked = 0;
    for (const DispatchRow& row : kRows) {
        if (!built_for(row.arch)) continue;
        const Selection pick =
            select(row.cipher, SizeHint::exactly(row.bytes), {}, cpu_with(row.features), defaults);
        EXPECT_EQ(pick.backend->name, row.backend) << describe(row);
        EXPECT_EQ(pick.aead, row.aead) << describe(row);
        EXPECT_EQ(pick.impl, pick.backend->aead(pick.aead)) << describe(row);
        EXPECT_FALSE(pick.reason.empty()) << describe(row);
        ++checked;
    }
    EXPECT_GT(checked, 2u);  // the portable rows at least
}

// The same table over all sizes: for a fixed CPU the decision is one range wherever the
// built-in figures keep one winner (no GPU), and the ranges agree with the rows.
TEST(Dispatch, TheRangesAgreeWithTheRows) {
    const CostModel defaults = builtin_cost_model();
    for (const DispatchRow& row : kRows) {
        if (!built_for(row.arch)) continue;
        const std::vector<AutoRange> ranges =
            auto_ranges(row.cipher, {}, cpu_with(row.features), defaults);
        ASSERT_EQ(ranges.size(), 1u) << describe(row);
        EXPECT_EQ(ranges[0].backend->name, row.backend) << describe(row);
        EXPECT_EQ(ranges[0].aead, row.aead) << describe(row);
    }
}

// This machine as the environment masks it (WARPCRYPT_CPU_MASK; the AArch64 run masks the
// crypto extensions): the cipher auto picks is AES-GCM exactly when some usable backend other
// than scalar implements AES-GCM on the CPU (not a GPU: uncalibrated, it never beats AES
// instructions and opening it is not this test's business).
TEST(Dispatch, ThisMachinesCipherFollowsItsAesInstructions) {
    bool hardware_aes = false;
    for (const Backend* b : usable_backends())
        if (b->aes_gcm != nullptr && b->open_device == nullptr && b->name != "scalar")
            hardware_aes = true;
    const Selection pick = select(std::nullopt, SizeHint::exactly(kMiB), {}, cpu_features(),
                                  builtin_cost_model());
    EXPECT_EQ(pick.aead, hardware_aes ? kAes : kChaCha) << pick.reason;
    EXPECT_NE(pick.backend->name, "scalar") << "some SIMD backend runs here: " << pick.reason;
}

// A forced backend narrows the candidates; the cipher is still chosen among what it offers.
TEST(Dispatch, AForcedBackendChoosesTheCipherAmongItsOwn) {
    const Backend& scalar = find_backend("scalar");
    const Selection pick = select(std::nullopt, SizeHint::exactly(kMiB), &scalar, CpuFeatures{},
                                  builtin_cost_model());
    EXPECT_EQ(pick.backend, &scalar);
    EXPECT_EQ(pick.aead, kChaCha) << pick.reason;
    EXPECT_NE(pick.reason.find("--backend scalar"), std::string::npos) << pick.reason;
    for (const Backend* b : usable_backends())
        if (b->chacha20_poly1305 == nullptr) {  // e.g. x86-aesni: asking it for ChaCha fails
            EXPECT_THROW(select(kChaCha, SizeHint::exactly(kMiB), b), Error) << b->name;
            EXPECT_EQ(select(kAuto, SizeHint::exactly(kMiB), b).aead, kAes) << b->name;
        }
}

// A GPU wins AES-GCM for large inputs over the bitsliced scalar code even uncalibrated, and so
// moves the cipher to AES-GCM where it opens; where it does not (no device here), it is left
// out and the decision falls back, saying why.
TEST(Dispatch, AGpuThatWinsMovesTheCipherOnlyIfItOpens) {
    const Backend* cuda = nullptr;
    for (const Backend& b : all_backends())
        if (b.name == "cuda") cuda = &b;
    ASSERT_NE(cuda, nullptr);
    if (cuda->aes_gcm == nullptr) return;  // not compiled in: probe says so, nothing to open
    CpuFeatures driver_only;
    driver_only.cuda_driver = true;
    const std::vector<AutoRange> ranges =
        auto_ranges(std::nullopt, {}, driver_only, builtin_cost_model());
    ASSERT_EQ(ranges.size(), 2u);
    EXPECT_EQ(ranges[0].backend->name, "scalar");
    EXPECT_EQ(ranges[1].backend, cuda);
    EXPECT_EQ(ranges[1].aead, kAes);
    const Selection pick = select(std::nullopt, SizeHint::exactly(std::uint64_t{1} << 30), {},
                                  driver_only, builtin_cost_model());
    if (availability_opened(*cuda).usable) {
        EXPECT_EQ(pick.backend, cuda);
        EXPECT_EQ(pick.aead, kAes);
    } else {
        EXPECT_EQ(pick.backend->name, "scalar");
        EXPECT_EQ(pick.aead, kChaCha);
        EXPECT_NE(pick.reason.find("cuda left out"), std::string::npos) << pick.reason;
    }
}

}  // namespace
}  // namespace warp
