// SPEC 4.8, the ML-KEM-768 + X25519 (post-quantum) slot, and its worked example (SPEC 9.2):
// formats/warp/testdata/hybrid_example.warp opens with hybrid_example.identity, and encrypting
// again to its recipient with the same randomness gives the same bytes. Every post-quantum
// identity is tried on every such slot; a crafted slot opens nothing; a classic X25519
// recipient is never written beside a post-quantum one.
#include <gtest/gtest.h>

#include "formats/keys/key_kind.hpp"
#include "formats/keys/pq/hybrid_keys.hpp"
#include "formats/keys/x25519.hpp"
#include "formats/warp/slot_kind.hpp"
#include "formats/warp/slot_mlkem768x25519.hpp"
#include "tests/formats/format_fixtures.hpp"
#include "tests/support/hex.hpp"

namespace warp::formats::warp_format::test {
namespace {

std::string hex_of(std::span<const std::uint8_t> bytes) {
    return warp::test::to_hex(Bytes(bytes.begin(), bytes.end()));
}

Secret hybrid_identity(const SecretBytes& seed) {
    return Secret{KeyType::mlkem768x25519, SecretBytes(seed.span()), {}};
}
Secret hybrid_recipient(const pq::HybridPublicKey& key) {
    return Secret{KeyType::mlkem768x25519, SecretBytes(std::span<const std::uint8_t>(key)), {}};
}

// SPEC 9.2's identity: the seed 00..1f.
SecretBytes example_seed() {
    SecretBytes seed(pq::kHybridSeedSize);
    for (std::size_t i = 0; i < seed.size(); ++i) seed.data()[i] = static_cast<std::uint8_t>(i);
    return seed;
}

std::string example_identity_file() {
    std::string secret = pq::encode_hybrid_identity(example_seed());
    const std::string text = "# SPEC 9.2: the post-quantum identity of the seed 00..1f\n# public key: " +
                             pq::encode_hybrid_recipient(pq::hybrid_public_key(example_seed())) +
                             "\n" + secret + "\n";
    secure_wipe(secret.data(), secret.size());
    return text;
}

Bytes example_file() {
    Options options = options_for({hybrid_recipient(pq::hybrid_public_key(example_seed()))});
    options.random = counter_from(0x40);
    const std::string hello = "Hello, world\n";
    return encrypt_bytes(Bytes(hello.begin(), hello.end()), options);
}

TEST(FormatHybridSlot, TheExampleIdentityFileIsCommitted) {
    const std::string text = example_identity_file();
    expect_committed(Bytes(text.begin(), text.end()), "hybrid_example.identity");
    const std::vector<Secret> identities = decode_identity_file_text(text);
    ASSERT_EQ(identities.size(), 1u);
    EXPECT_EQ(identities[0].type, KeyType::mlkem768x25519);
    EXPECT_EQ(hex_of(identities[0].bytes.span()),
              "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f");
    const std::string recipient = kHybridKey.recipient_of(identities[0]);
    EXPECT_TRUE(recipient.starts_with("age1pq1"));
    EXPECT_EQ(recipient.size(), 1959u);
    EXPECT_EQ(decode_recipient_text(recipient).bytes.span().size(), pq::kHybridPublicKeySize);
}

TEST(FormatHybridSlot, WorkedExampleDerivations) {
    // SPEC 9.2's values: enc from m = 60..7f and e = 80..9f, the KEM's shared secret, then s.
    const pq::HybridKeyPair key = pq::hybrid_expand(example_seed().span().first<32>());
    std::array<std::uint8_t, pq::kHybridRandomSize> randomness{};
    for (std::size_t i = 0; i < randomness.size(); ++i)
        randomness[i] = static_cast<std::uint8_t>(0x60 + i);
    pq::HybridEnc enc{};
    pq::HybridShared shared, shared_by_reader;
    ASSERT_TRUE(pq::hybrid_encapsulate(key.public_key, randomness, enc, shared));
    ASSERT_TRUE(pq::hybrid_decapsulate(key, enc, shared_by_reader));
    EXPECT_EQ(shared.bytes, shared_by_reader.bytes);
    EXPECT_EQ(hex_of(std::span(key.public_key).last<32>()), "44e9d7d146647281fbba7b3c56cafd5833b7a930ec4206e7c3a6d7764fe81d7a");
    EXPECT_EQ(hex_of(std::span(enc).last<32>()), "493e82fc74464a59268817623d2053c5eb8e2cc4a988b4fee179ec6b010d531d");
    EXPECT_EQ(hex_of(shared.bytes), "ea3baafdc30dd04b4638d45f6cbe38531300711641221df7573ce0f53a3dfd18");
    WipedKey s;
    hybrid_slot_secret(shared, enc, key.public_key, s);
    EXPECT_EQ(hex_of(s.span()), "b3bbc9d765fd4a625a828b4ff9747da8d469a3bad43b335e7e23f4e7da6b8925");
}

TEST(FormatHybridSlot, WorkedExampleIsCommittedAndDecrypts) {
    const Bytes file = example_file();
    expect_committed(file, "hybrid_example.warp");
    EXPECT_EQ(file.size(), 1356u);
    const Bytes plain = decrypt_bytes(file, {hybrid_identity(example_seed())});
    EXPECT_EQ(std::string(plain.begin(), plain.end()), "Hello, world\n");
}

TEST(FormatHybridSlot, EveryIdentityIsTriedOnEverySlot) {
    const pq::HybridIdentity alice = pq::generate_hybrid_identity();
    const pq::HybridIdentity bob = pq::generate_hybrid_identity();
    const pq::HybridIdentity carol = pq::generate_hybrid_identity();
    const Bytes plain = pattern(70000);
    for (Suite suite : {Suite::aes_256_gcm, Suite::chacha20_poly1305}) {
        const Bytes file = encrypt_bytes(
            plain, options_for({hybrid_recipient(alice.public_key), key_file_secret(1),
                                hybrid_recipient(bob.public_key), passphrase("pw")},
                               suite));
        Result result;
        EXPECT_EQ(decrypt_bytes(file, {hybrid_identity(carol.seed), hybrid_identity(bob.seed)},
                                &result),
                  plain);
        EXPECT_EQ(result.opened_with, 2u);
        EXPECT_EQ(decrypt_bytes(file, {hybrid_identity(alice.seed)}, &result), plain);
        EXPECT_EQ(result.opened_with, 0u);
        EXPECT_EQ(decrypt_bytes(file, {key_file_secret(1)}, &result), plain);
        EXPECT_EQ(result.opened_with, 1u);
        expect_error([&] { decrypt_bytes(file, {hybrid_identity(carol.seed)}); },
                     ErrorCause::wrong_key, "none of the 4 key slots opened");
    }
}

TEST(FormatHybridSlot, SixteenSlotsFitTheHeader) {
    const pq::HybridIdentity alice = pq::generate_hybrid_identity();
    const std::vector<Secret> recipients(16, hybrid_recipient(alice.public_key));
    std::vector<Secret> copies;
    for (const Secret& r : recipients) copies.push_back(Secret{r.type, SecretBytes(r.bytes.span()), {}});
    const Bytes file = encrypt_bytes(pattern(10), options_for(std::move(copies)));
    EXPECT_EQ(header_size_in(file), header_size_around(16 * (kSlotTypeAndLengthSize + kHybridSlotBodySize)));
    EXPECT_EQ(header_size_in(file), 19332u);  // SPEC 4.8
    EXPECT_EQ(decrypt_bytes(file, {hybrid_identity(alice.seed)}), pattern(10));
}

TEST(FormatHybridSlot, AClassicRecipientIsNeverWrittenBesideAPostQuantumOne) {
    const pq::HybridIdentity alice = pq::generate_hybrid_identity();
    const X25519Identity bob = generate_x25519_identity();
    const Secret classic{KeyType::x25519, SecretBytes(std::span<const std::uint8_t>(bob.public_key)), {}};
    expect_error(
        [&] { encrypt_bytes(pattern(10), options_for({hybrid_recipient(alice.public_key),
                                                      Secret{classic.type, SecretBytes(classic.bytes.span()), {}}})); },
        ErrorCause::usage, "takes no classic X25519 recipient");
    // Symmetric keys may sit beside either.
    EXPECT_NO_THROW(encrypt_bytes(pattern(10), options_for({hybrid_recipient(alice.public_key),
                                                            key_file_secret(2)})));
}

TEST(FormatHybridSlot, ARecipientFailingTheModulusCheckIsRefused) {
    const pq::HybridIdentity alice = pq::generate_hybrid_identity();
    pq::HybridPublicKey bad = alice.public_key;
    bad[0] = 0xff;  // the first coefficient's 12 bits: 0x?ff
    bad[1] |= 0x0f;  // 0xfff = 4095 >= q
    expect_error([&] { encrypt_bytes(pattern(10), options_for({hybrid_recipient(bad)})); },
                 ErrorCause::usage, "modulus check");
}

TEST(FormatHybridSlot, ALowOrderShareOrAFlippedEncOpensNothing) {
    // SPEC 4.3: one outcome. ct_X of low order: the X25519 half is zero and the slot does not
    // open; a flipped bit of ct_PQ: ML-KEM's implicit rejection, the check refuses.
    const pq::HybridIdentity alice = pq::generate_hybrid_identity();
    const Bytes file = encrypt_bytes(pattern(10), options_for({hybrid_recipient(alice.public_key)}));
    const Bytes slot(file.begin() + kPreambleSize,
                     file.begin() + kPreambleSize + kSlotTypeAndLengthSize + kHybridSlotBodySize);
    const std::size_t enc = kSlotTypeAndLengthSize;
    Bytes low_order = slot;
    std::fill_n(low_order.begin() + enc + 1088, 32, 0);
    Bytes flipped = slot;
    flipped[enc + 100] ^= 0x01;
    for (const Bytes& crafted : {low_order, flipped})
        expect_error([&] { decrypt_bytes(with_slot(file, crafted), {hybrid_identity(alice.seed)}); },
                     ErrorCause::wrong_key, "none of the 1 key slot opened");
}

TEST(FormatHybridSlot, AHybridSlotOfAnotherLengthIsMalformed) {
    const Bytes file = encrypt_bytes(pattern(10), options_for({key_file_secret(1)}));
    Bytes slot(file.begin() + kPreambleSize,
               file.begin() + kPreambleSize + kSlotTypeAndLengthSize + kKeyFileSlotBodySize);
    slot[0] = static_cast<std::uint8_t>(SlotType::mlkem768x25519);
    expect_error([&] { decrypt_bytes(with_slot(file, slot), {key_file_secret(1)}); },
                 ErrorCause::corrupted, "key slot 1: a mlkem768x25519 slot is 1200 bytes, not 96");
}

TEST(FormatHybridSlot, InfoSaysItIsPostQuantum) {
    const pq::HybridIdentity alice = pq::generate_hybrid_identity();
    const Bytes file = encrypt_bytes(pattern(10), options_for({hybrid_recipient(alice.public_key),
                                                               key_file_secret(3)}));
    stream::SpanSource in(file);
    const FileInfo info = read_info(in, file.size());
    ASSERT_EQ(info.entries.size(), 2u);
    EXPECT_EQ(info.entries[0].type, "mlkem768x25519");
    EXPECT_EQ(info.entries[0].post_quantum, true);
    EXPECT_TRUE(info.entries[0].public_key);
    EXPECT_EQ(info.entries[1].post_quantum, true);
    EXPECT_FALSE(info.entries[1].public_key);
}

}  // namespace
}  // namespace warp::formats::warp_format::test
