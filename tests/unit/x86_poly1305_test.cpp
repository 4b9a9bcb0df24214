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

}  // namespace
}  // namespace warp::test
#endif
