// What the dispatch must do on a given CPU, for the runs on emulated CPUs (tests/emulated/,
// scripts/test-emulated.sh): the run says what it expects through the environment, and these
// tests check the registry and `auto` agree, then seal and open through whatever `auto` picked
// (on a CPU without an instruction a kernel uses, the emulator raises #UD as the hardware would
// raise SIGILL, and the run fails). Natively, without those variables, they are skipped.
//   WARPCRYPT_EXPECT_AES_GCM            the backend `auto` must pick for AES-GCM at 1 MiB
//   WARPCRYPT_EXPECT_CHACHA20_POLY1305  the same for ChaCha20-Poly1305
//   WARPCRYPT_EXPECT_UNUSABLE           backends that must say they cannot run (comma-separated)
#include <gtest/gtest.h>

#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "engine/aead_key.hpp"
#include "engine/cpu_features.hpp"
#include "engine/registry.hpp"
#include "engine/selection.hpp"

namespace warp {
namespace {

std::string expected(const char* variable) {
    const char* value = std::getenv(variable);
    return value ? value : "";
}

// Seals and opens 64 KiB + 3 through the selection's kernel, and checks a tampered tag fails.
void round_trip(const Selection& selection) {
    std::vector<std::uint8_t> key(32, 7), nonce(12, 9), plain((64 << 10) + 3), sealed(plain.size()),
        opened(plain.size());
    for (std::size_t i = 0; i < plain.size(); ++i) plain[i] = static_cast<std::uint8_t>(i * 31);
    std::uint8_t tag[16];
    const AeadKey aead(*selection.impl, key);
    const AeadChunk seal{nonce.data(), nonce.size(), nullptr, 0, plain.data(), sealed.data(),
                         plain.size(), tag};
    aead.seal({&seal, 1});
    bool ok = false;
    const AeadChunk open{nonce.data(), nonce.size(), nullptr, 0, sealed.data(), opened.data(),
                         sealed.size(), tag};
    aead.open({&open, 1}, &ok);
    EXPECT_TRUE(ok);
    EXPECT_EQ(opened, plain);
    tag[0] ^= 1;
    aead.open({&open, 1}, &ok);
    EXPECT_FALSE(ok);
}

void expect_pick(Aead aead, const char* variable) {
    const std::string name = expected(variable);
    if (name.empty()) GTEST_SKIP() << variable << " is not set: not an emulated-CPU run";
    const Selection picked = select(aead, SizeHint::exactly(1 << 20));
    EXPECT_EQ(picked.backend->name, name)
        << "CPU: " << cpu_features().describe() << "; " << picked.reason;
    round_trip(picked);
}

TEST(EmulatedCpu, AutoPicksTheExpectedAesGcmBackendAndItRuns) {
    expect_pick(Aead::aes_gcm, "WARPCRYPT_EXPECT_AES_GCM");
}

TEST(EmulatedCpu, AutoPicksTheExpectedChaCha20Poly1305BackendAndItRuns) {
    expect_pick(Aead::chacha20_poly1305, "WARPCRYPT_EXPECT_CHACHA20_POLY1305");
}

TEST(EmulatedCpu, BackendsThisCpuCannotRunSayWhy) {
    const std::string names = expected("WARPCRYPT_EXPECT_UNUSABLE");
    if (names.empty()) GTEST_SKIP() << "WARPCRYPT_EXPECT_UNUSABLE is not set";
    std::stringstream list(names);
    for (std::string name; std::getline(list, name, ',');) {
        for (const Backend& backend : all_backends()) {
            if (backend.name != name) continue;
            const Availability a = availability(backend);
            EXPECT_FALSE(a.usable) << name << " claims to run on: " << cpu_features().describe();
            EXPECT_NE(a.reason.find("lacks"), std::string::npos) << name << ": " << a.reason;
        }
    }
}

}  // namespace
}  // namespace warp
