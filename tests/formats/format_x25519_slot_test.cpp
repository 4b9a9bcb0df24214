// SPEC 4.6, the X25519 slot, and its worked example (SPEC 9.1): formats/warp/testdata/
// x25519_example.warp opens with x25519_example.identity, and encrypting again to its
// recipient with the same randomness gives the same bytes. Every identity is tried on every
// X25519 slot; low-order points are refused when writing and open nothing when reading.
#include <gtest/gtest.h>

#include "formats/warp/slot_kind.hpp"
#include "formats/warp/slot_x25519.hpp"
#include "formats/keys/key_kind.hpp"
#include "formats/keys/x25519.hpp"
#include "tests/support/hex.hpp"
#include "tests/formats/format_fixtures.hpp"

namespace warp::formats::warp_format::test {
namespace {

Secret identity_secret(const X25519Identity& identity) {
    return Secret{KeyType::x25519, SecretBytes(identity.secret.span()), {}};
}

Secret recipient_secret(const X25519PublicKey& key) {
    return Secret{KeyType::x25519, SecretBytes(std::span<const std::uint8_t>(key)), {}};
}

X25519Identity example_identity() {
    std::vector<Secret> identities =
        decode_identity_file_text(read_text(testdata("x25519_example.identity")));
    EXPECT_EQ(identities.size(), 1u);
    X25519Identity identity;
    identity.public_key = x25519_public_key(identities.front().bytes);
    identity.secret = std::move(identities.front().bytes);
    return identity;
}

std::string hex_of(std::span<const std::uint8_t> bytes) {
    return warp::test::to_hex(Bytes(bytes.begin(), bytes.end()));
}

TEST(FormatX25519Slot, TheExampleIdentityIsTheSpecsBytes) {
    const X25519Identity identity = example_identity();
    EXPECT_EQ(hex_of(identity.secret.span()),
              "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f");
    EXPECT_EQ(encode_recipient(identity.public_key),
              "age13aqvttdk3ujkyjh9kg2w5an6dmy5mq5a84a4uxk3hfhnugfc9p0sy5p2wh");
}

TEST(FormatX25519Slot, WorkedExampleDerivations) {
    // SPEC 9.1's values: E from e = 60..7f, the shared secret, then s.
    const X25519Identity identity = example_identity();
    std::array<std::uint8_t, kX25519KeySize> e{};
    for (std::size_t i = 0; i < e.size(); ++i) e[i] = static_cast<std::uint8_t>(0x60 + i);
    const X25519PublicKey share = x25519_public_key(SecretBytes(std::span<const std::uint8_t>(e)));
    EXPECT_EQ(hex_of(share), "675dd574ed7789310b3d2e7681f3790b466c773b1521fecf36577958371ea52f");
    std::array<std::uint8_t, kX25519KeySize> shared{}, shared_by_reader{};
    ASSERT_TRUE(x25519_shared_secret(e, identity.public_key, shared));
    ASSERT_TRUE(x25519_shared_secret(identity.secret.span().first<kX25519KeySize>(), share,
                                     shared_by_reader));
    EXPECT_EQ(shared, shared_by_reader);
    EXPECT_EQ(hex_of(shared), "2cca6df951833fd6298ab3777ea4730006789" "77f16e74d866503bdde532f7a7e");
    WipedKey s;
    x25519_slot_secret(shared, share, identity.public_key, s);
    EXPECT_EQ(hex_of(s.span()), "d8472ef57635c7b3189d4f52ee95b6c4efe05d73e915ac980896187036" "64f425");
}

TEST(FormatX25519Slot, WorkedExampleDecrypts) {
    const Bytes file = read_bytes(testdata("x25519_example.warp"));
    ASSERT_EQ(file.size(), 268u);
    const Bytes plain = decrypt_bytes(file, {identity_secret(example_identity())});
    EXPECT_EQ(std::string(plain.begin(), plain.end()), "Hello, world\n");
}

TEST(FormatX25519Slot, WorkedExampleReEncryptsToTheSameBytes) {
    const Bytes expected = read_bytes(testdata("x25519_example.warp"));
    Options options = options_for({recipient_secret(example_identity().public_key)});
    options.random = counter_from(0x40);
    const std::string hello = "Hello, world\n";
    const Bytes got = encrypt_bytes(Bytes(hello.begin(), hello.end()), options);
    EXPECT_EQ(warp::test::to_hex(got), warp::test::to_hex(expected));
}

TEST(FormatX25519Slot, EveryIdentityIsTriedOnEverySlot) {
    const X25519Identity alice = generate_x25519_identity();
    const X25519Identity bob = generate_x25519_identity();
    const X25519Identity carol = generate_x25519_identity();
    const Bytes plain = pattern(5000);
    for (Suite suite : {Suite::aes_256_gcm, Suite::chacha20_poly1305}) {
        const Bytes file = encrypt_bytes(
            plain, options_for({recipient_secret(alice.public_key), key_file_secret(1),
                                recipient_secret(bob.public_key)},
                               suite));
        ASSERT_EQ(header_size_in(file), header_size(1, 0, 2));
        Result result;
        EXPECT_EQ(decrypt_bytes(file, {identity_secret(carol), identity_secret(bob)}, &result),
                  plain);
        EXPECT_EQ(result.opened_with, 2u);
        EXPECT_EQ(decrypt_bytes(file, {identity_secret(alice)}, &result), plain);
        EXPECT_EQ(result.opened_with, 0u);
        EXPECT_EQ(decrypt_bytes(file, {key_file_secret(1)}, &result), plain);
        EXPECT_EQ(result.opened_with, 1u);
        expect_error([&] { decrypt_bytes(file, {identity_secret(carol)}); },
                     ErrorCause::wrong_key, "none of the 3 key slots opened");
    }
}

TEST(FormatX25519Slot, EachSlotHasItsOwnEphemeralShare) {
    const X25519Identity alice = generate_x25519_identity();
    const Bytes file = encrypt_bytes(
        pattern(10), options_for({recipient_secret(alice.public_key),
                                  recipient_secret(alice.public_key)}));
    const std::size_t first = kPreambleSize + kSlotTypeAndLengthSize;
    const std::size_t second = first + kX25519SlotBodySize + kSlotTypeAndLengthSize;
    EXPECT_NE(Bytes(file.begin() + first, file.begin() + first + 32),
              Bytes(file.begin() + second, file.begin() + second + 32));
}

TEST(FormatX25519Slot, LowOrderRecipientsAreRefused) {
    X25519PublicKey zero{}, one{};
    one[0] = 1;
    for (const X25519PublicKey& point : {zero, one})
        expect_error(
            [&] { encrypt_bytes(pattern(10), options_for({key_file_secret(1), recipient_secret(point)})); },
            ErrorCause::usage, "key slot 2: the recipient is an X25519 point of low order");
}

TEST(FormatX25519Slot, ALowOrderShareOpensNothing) {
    // A crafted slot whose E is of low order: the shared secret is zero for every identity,
    // and the file reads as a wrong key, not as an error of its own (SPEC 4.3: one outcome).
    const X25519Identity alice = generate_x25519_identity();
    Options options = options_for({recipient_secret(alice.public_key)});
    options.random = counter_from(0x10);
    Bytes file = encrypt_bytes(pattern(10), options);
    Bytes slot(file.begin() + kPreambleSize,
               file.begin() + kPreambleSize + kSlotTypeAndLengthSize + kX25519SlotBodySize);
    std::fill_n(slot.begin() + kSlotTypeAndLengthSize, kX25519KeySize, 0);
    const Bytes crafted = with_slot(file, slot);
    expect_error([&] { decrypt_bytes(crafted, {identity_secret(alice)}); }, ErrorCause::wrong_key,
                 "none of the 1 key slot opened");
}

TEST(FormatX25519Slot, AnX25519SlotOfAnotherLengthIsMalformed) {
    const Bytes file = encrypt_bytes(pattern(10), options_for({key_file_secret(1)}));
    Bytes slot(file.begin() + kPreambleSize,
               file.begin() + kPreambleSize + kSlotTypeAndLengthSize + kKeyFileSlotBodySize);
    slot[0] = static_cast<std::uint8_t>(SlotType::x25519);  // with a key-file slot's length
    const Bytes crafted = with_slot(file, slot);
    expect_error([&] { decrypt_bytes(crafted, {key_file_secret(1)}); }, ErrorCause::corrupted,
                 "key slot 1: an x25519 slot is 112 bytes, not 96");
}

TEST(FormatX25519Slot, InfoSaysNothingOfTheRecipient) {
    const X25519Identity alice = generate_x25519_identity();
    const Bytes file = encrypt_bytes(pattern(10), options_for({recipient_secret(alice.public_key)}));
    stream::SpanSource in(file);
    const FileInfo info = warp_format::read_info(in, file.size());
    ASSERT_EQ(info.entries.size(), 1u);
    EXPECT_EQ(info.entries[0].type, "x25519");
    EXPECT_FALSE(info.entries[0].argon2id.has_value());
    EXPECT_NE(std::string(info.entries[0].note).find("no fingerprint is stored"), std::string::npos);
}

TEST(FormatSlotKinds, SizesAreTheSpecs) {
    EXPECT_EQ(slot_kind_of(SlotType::passphrase).body_size(), kPassphraseSlotBodySize);
    EXPECT_EQ(slot_kind_of(SlotType::key_file).body_size(), kKeyFileSlotBodySize);
    EXPECT_EQ(slot_kind_of(SlotType::x25519).body_size(), kX25519SlotBodySize);
    EXPECT_EQ(slot_kind_of(SlotType::mlkem768x25519).body_size(), kHybridSlotBodySize);
    EXPECT_EQ(slot_kind_of(std::uint8_t{0}), nullptr);
    EXPECT_EQ(slot_kind_of(std::uint8_t{5}), nullptr);
    for (const SlotKind* kind : slot_kinds())
        EXPECT_EQ(slot_kind_of(static_cast<std::uint8_t>(kind->type)), kind);
}

}  // namespace
}  // namespace warp::formats::warp_format::test
