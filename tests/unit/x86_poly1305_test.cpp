// The AVX2 backend's Poly1305 on its own, against libsodium: the radix-2^64 asm block step
// (poly1305_scalar.hpp), the 4-way vector loop (poly1305_avx2.cpp) and the MAC the stitched
// ChaCha20 step interleaves with its rounds (chacha20_poly1305_stitched.cpp). The AEAD tests
// reach these only with keys ChaCha20 chose; here r, s and the message take their extremes
// (the largest clamped r, all-ones blocks maximising every limb), where carries go wrong.
// x86-64 only, and skipped at run time on a CPU without AVX2 (the registry would not pick it).
#include <gtest/gtest.h>

#if defined(__x86_64__)
#include <cstdint>
#include <string>
#include <vector>

#include "engine/cpu_features.hpp"
#include "engine/x86/avx2/chacha20_poly1305_stitched.hpp"
#include "engine/x86/avx2/poly1305_avx2.hpp"
#include "engine/x86/avx512/chacha20_poly1305_stitched.hpp"
#include "tests/support/hex.hpp"
#include "tests/support/poly1305_reference.hpp"

namespace warp::test {
namespace {

using namespace x86::avx2;

// msg || le64(aad_len = 0) || le64(ct_len): what poly_finish's lengths block makes of it.
Bytes with_lengths_block(Bytes msg, std::uint64_t ct_len) {
    for (int i = 0; i < 8; ++i) msg.push_back(0);
    for (int i = 0; i < 8; ++i) msg.push_back(static_cast<std::uint8_t>(ct_len >> (8 * i)));
    return msg;
}

bool have_avx2() { return cpu_features().avx2; }

TEST(X86Poly1305, ExtremeKeysAndMessagesOnTheScalarAndVectorPathsMatchLibsodium) {
    if (!have_avx2()) GTEST_SKIP() << "no AVX2";
    // Whole blocks only (the AEAD pads), from 1 block (scalar) to 70 (the vector loop and its
    // scalar remainder).
    for (const Bytes& key : extreme_poly1305_keys())
        for (std::uint8_t fill : {std::uint8_t{0xff}, std::uint8_t{0x00}, std::uint8_t{0x5a}})
            for (std::size_t blocks : {1u, 3u, 15u, 16u, 17u, 19u, 32u, 44u, 70u}) {
                const Bytes msg(16 * blocks, fill);
                PolyState state;
                poly_init(state, key.data());
                poly_absorb_padded(state, msg.data(), msg.size());
                std::uint8_t tag[kPolyTagSize];
                poly_finish(state, 0, msg.size(), tag);
                EXPECT_EQ(to_hex(Bytes(tag, tag + sizeof tag)),
                          libsodium_poly1305_hex(key, with_lengths_block(msg, msg.size())))
                    << "key " << to_hex(key) << " fill " << int{fill} << " blocks " << blocks;
            }
}

TEST(X86Poly1305, TheStitchedStepsMacMatchesLibsodiumForEveryBlockCount) {
    if (!have_avx2()) GTEST_SKIP() << "no AVX2";
    const ChaChaInput input = chacha_input(Bytes(32, 7).data(), Bytes(12, 9).data());
    for (const Bytes& key : extreme_poly1305_keys())
        for (std::uint8_t fill : {std::uint8_t{0xff}, std::uint8_t{0x00}})
            for (std::size_t blocks = 0; blocks <= kStitchedMaxMacBlocks; ++blocks) {
                const Bytes msg(16 * blocks, fill);
                Bytes data(kStitchedStep, 0x33);
                PolyState state;
                poly_init(state, key.data());
                xor_wide_stitched(input, 4, data.data(), data.data(), state, msg.data(), blocks);
                std::uint8_t tag[kPolyTagSize];
                poly_finish(state, 0, msg.size(), tag);
                ASSERT_EQ(to_hex(Bytes(tag, tag + sizeof tag)),
                          libsodium_poly1305_hex(key, with_lengths_block(msg, msg.size())))
                    << "key " << to_hex(key) << " fill " << int{fill} << " blocks " << blocks;
            }
}

// The AVX-512 step's IFMA MAC (radix 2^44, eight lanes, groups in pairs, entered from and left
// to the radix-2^64 state) at every block count a step takes, from a state that is not zero.
TEST(X86Poly1305, TheAvx512StepsIfmaMacMatchesLibsodiumForEveryBlockCount) {
    const CpuFeatures& cpu = cpu_features();
    if (!(cpu.avx512f && cpu.avx512bw && cpu.avx512vl && cpu.avx512ifma))
        GTEST_SKIP() << "no AVX-512 with IFMA";
    const ChaChaInput input = chacha_input(Bytes(32, 7).data(), Bytes(12, 9).data());
    constexpr std::size_t kBefore = 3;  // blocks absorbed before the step, on the scalar path
    for (const Bytes& key : extreme_poly1305_keys())
        for (std::uint8_t fill : {std::uint8_t{0xff}, std::uint8_t{0x00}})
            for (std::size_t blocks = 0; blocks <= x86::avx512::kStitchedMaxMacBlocks; ++blocks) {
                const Bytes msg(16 * (kBefore + blocks), fill);
                Bytes data(x86::avx512::kStitchedStep, 0x33);
                PolyState state;
                poly_init(state, key.data());
                poly_absorb_padded(state, msg.data(), 16 * kBefore);
                x86::avx512::IfmaPowers powers{};
                x86::avx512::xor16_stitched(input, 4, data.data(), data.data(), state, powers,
                                            msg.data() + 16 * kBefore, blocks);
                std::uint8_t tag[kPolyTagSize];
                poly_finish(state, 0, msg.size(), tag);
                ASSERT_EQ(to_hex(Bytes(tag, tag + sizeof tag)),
                          libsodium_poly1305_hex(key, with_lengths_block(msg, msg.size())))
                    << "key " << to_hex(key) << " fill " << int{fill} << " blocks " << blocks;
            }
}

// The powers of r the IFMA MAC multiplies by, made four multiplies deep in radix 2^44
// (poly1305_ifma_powers.cpp), against r^k made the long way, one radix-2^64 multiply by r at
// a time and fully reduced. Scalar code: runs on any x86-64, IFMA or not.
TEST(X86Poly1305, TheIfmaPowersOfREqualRepeatedMultiplication) {
    using namespace x86::avx2::poly_scalar;
    std::vector<Bytes> keys = extreme_poly1305_keys();
    std::uint64_t seed = 0x9e3779b97f4a7c15;
    for (int i = 0; i < 200; ++i) {  // and pseudo-random ones
        Bytes key(32);
        for (auto& byte : key) {
            seed = seed * 6364136223846793005u + 1442695040888963407u;
            byte = static_cast<std::uint8_t>(seed >> 56);
        }
        keys.push_back(key);
    }
    for (const Bytes& key : keys) {
        PolyState state;
        poly_init(state, key.data());
        x86::avx512::IfmaPowers eight{}, sixteen{}, eight_then_sixteen{};
        x86::avx512::compute_ifma_powers(eight, state.r0, state.r1, 8);
        x86::avx512::compute_ifma_powers(sixteen, state.r0, state.r1, 16);
        x86::avx512::compute_ifma_powers(eight_then_sixteen, state.r0, state.r1, 8);
        x86::avx512::compute_ifma_powers(eight_then_sixteen, state.r0, state.r1, 16);
        Value power{state.r0, state.r1, 0};
        for (std::size_t k = 1; k <= 16; ++k) {
            if (k > 1) power = multiply(power, state.r0, state.r1);
            const x86::avx512::Limbs44 l = x86::avx512::limbs44(reduce_fully(power));
            const std::uint64_t want[5] = {l.l0, l.l1, l.l2, 20 * l.l1, 20 * l.l2};
            for (int i = 0; i < 5; ++i) {
                if (k <= 8) {
                    ASSERT_EQ(eight.last[i][8 - k], want[i]) << to_hex(key) << " r^" << k;
                    ASSERT_EQ(sixteen.last[i][8 - k], want[i]) << to_hex(key) << " r^" << k;
                }
                if (k == 8) {
                    ASSERT_EQ(eight.step[i], want[i]) << to_hex(key);
                }
                if (k == 16) {
                    ASSERT_EQ(sixteen.double_step[i], want[i]) << to_hex(key);
                    ASSERT_EQ(eight_then_sixteen.double_step[i], want[i]) << to_hex(key);
                }
            }
        }
    }
}

}  // namespace
}  // namespace warp::test
#endif
