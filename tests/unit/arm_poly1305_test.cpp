// The NEON Poly1305 (engine/arm/neon/poly1305_neon.hpp) against libsodium: the two-lane
// steps borrow the portable state's accumulator after any prefix and give it back before any
// suffix, so every split prefix | steps (in one or two calls) | suffix must give libsodium's
// tag, at the extremes of r, s and the message (the largest clamped r, all-ones blocks
// maximising every limb), where carries go wrong. AArch64 only (NEON is baseline there);
// runs under qemu in scripts/test-arm64.sh.
#include <gtest/gtest.h>

#if defined(__aarch64__)
#include <cstdint>
#include <string>
#include <vector>

#include "engine/arm/neon/poly1305_neon.hpp"
#include "tests/support/hex.hpp"
#include "tests/support/poly1305_reference.hpp"

namespace warp::test {
namespace {

std::string split_tag(const Bytes& key, const Bytes& msg, std::size_t prefix, std::size_t steps,
                      std::size_t first_call_steps) {
    scalar::Poly1305State state;
    scalar::poly1305_init(state, key.data());
    scalar::poly1305_update(state, msg.data(), prefix);
    {
        arm::neon::NeonMac mac(state);
        const std::uint8_t* at = msg.data() + prefix;
        mac.absorb(at, first_call_steps);
        mac.absorb(at + first_call_steps * arm::neon::kMacStepBytes, steps - first_call_steps);
        mac.fold_into(state);
    }
    const std::size_t done = prefix + steps * arm::neon::kMacStepBytes;
    scalar::poly1305_update(state, msg.data() + done, msg.size() - done);
    std::uint8_t tag[scalar::kPoly1305TagSize];
    scalar::poly1305_finish(state, tag);
    return to_hex(Bytes(tag, tag + sizeof tag));
}

TEST(ArmNeonPoly1305, EverySplitAtTheExtremesMatchesLibsodium) {
    for (const Bytes& key : extreme_poly1305_keys())
        for (std::uint8_t fill : {std::uint8_t{0xff}, std::uint8_t{0x00}, std::uint8_t{0xa5}})
            for (std::size_t prefix : {0u, 16u, 48u})
                for (std::size_t steps : {0u, 1u, 2u, 5u, 17u})
                    for (std::size_t suffix : {0u, 5u, 16u, 33u}) {
                        const Bytes msg(prefix + steps * arm::neon::kMacStepBytes + suffix, fill);
                        ASSERT_EQ(split_tag(key, msg, prefix, steps, steps / 2),
                                  libsodium_poly1305_hex(key, msg))
                            << "key " << to_hex(key) << " fill " << int{fill} << " prefix "
                            << prefix << " steps " << steps << " suffix " << suffix;
                    }
}

}  // namespace
}  // namespace warp::test
#endif
