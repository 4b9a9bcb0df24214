// X25519 of the base point through Ed25519's table (formats/keys/x25519_base.cpp) against
// libsodium's ladder, and the table of low-order points (x25519_low_order) against what a
// multiplication by them gives.
#include <gtest/gtest.h>
#include <sodium.h>

#include <array>
#include <cstdint>

#include "formats/keys/x25519_base.hpp"
#include "formats/keys/x25519_exchange.hpp"

namespace warp::formats {
namespace {

using Bytes32 = std::array<std::uint8_t, 32>;

Bytes32 ladder(const Bytes32& scalar) {
    Bytes32 out{};
    EXPECT_EQ(crypto_scalarmult_base(out.data(), scalar.data()), 0);
    return out;
}

TEST(X25519Base, AgreesWithTheLadderOnRandomAndEdgeScalars) {
    ASSERT_GE(sodium_init(), 0);
    std::vector<Bytes32> scalars;
    Bytes32 edge{};
    scalars.push_back(edge);  // all zero: clamps to 2^254
    edge.fill(0xff);
    scalars.push_back(edge);  // all ones: every bit clamping clears or sets
    for (const std::uint8_t b : std::array<std::uint8_t, 5>{0x01, 0x08, 0x40, 0x80, 0x7f}) {
        edge.fill(0);
        edge[31] = b;
        scalars.push_back(edge);
    }
    for (int i = 0; i < 2000; ++i) {
        Bytes32 random{};
        randombytes_buf(random.data(), random.size());
        scalars.push_back(random);
    }
    for (const Bytes32& scalar : scalars) {
        Bytes32 fast{};
        x25519_base(scalar, fast);
        ASSERT_EQ(fast, ladder(scalar));
    }
}

TEST(X25519Base, TheLowOrderTableHoldsExactlyPointsThatZeroEveryExchange) {
    ASSERT_GE(sodium_init(), 0);
    const std::array<Bytes32, 5> table{{
        {},
        {1},
        {0xe0, 0xeb, 0x7a, 0x7c, 0x3b, 0x41, 0xb8, 0xae, 0x16, 0x56, 0xe3,
         0xfa, 0xf1, 0x9f, 0xc4, 0x6a, 0xda, 0x09, 0x8d, 0xeb, 0x9c, 0x32,
         0xb1, 0xfd, 0x86, 0x62, 0x05, 0x16, 0x5f, 0x49, 0xb8, 0x00},
        {0x5f, 0x9c, 0x95, 0xbc, 0xa3, 0x50, 0x8c, 0x24, 0xb1, 0xd0, 0xb1,
         0x55, 0x9c, 0x83, 0xef, 0x5b, 0x04, 0x44, 0x5c, 0xc4, 0x58, 0x1c,
         0x8e, 0x86, 0xd8, 0x22, 0x4e, 0xdd, 0xd0, 0x9f, 0x11, 0x57},
        {0xec, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
         0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
         0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f},
    }};
    for (const Bytes32& point : table) {
        EXPECT_TRUE(x25519_low_order(point));
        EXPECT_TRUE(x25519_canonical(point));
        // Whatever the scalar, the exchange gives zero, which libsodium refuses.
        for (int i = 0; i < 4; ++i) {
            Bytes32 scalar{}, shared{};
            randombytes_buf(scalar.data(), scalar.size());
            EXPECT_NE(crypto_scalarmult(shared.data(), scalar.data(), point.data()), 0);
        }
        EXPECT_NE(x25519_recipient_problem(Secret{KeyType::x25519, SecretBytes(point), {}}), "");
    }
    // And no public key of an identity is in it, nor refused.
    for (int i = 0; i < 200; ++i) {
        Bytes32 scalar{}, point{};
        randombytes_buf(scalar.data(), scalar.size());
        x25519_base(scalar, point);
        EXPECT_FALSE(x25519_low_order(point));
        EXPECT_EQ(x25519_recipient_problem(Secret{KeyType::x25519, SecretBytes(point), {}}), "");
    }
}

}  // namespace
}  // namespace warp::formats
