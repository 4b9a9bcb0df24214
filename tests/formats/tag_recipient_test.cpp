// age's tagged hardware-key recipients (formats/keys/tag/tag_recipient.hpp): the two KEMs against
// the known answers of tests/vectors/hpke/hpke-pq.json (DHKEM(P-256) 0x0010: DeriveKeyPair of
// ikmE, enc, the shared secret; MLKEM768-P256 0x0050: EncapsDerand of ikmE, enc, the shared
// secret), the stanza tag against a value computed from its definition (python, below), the
// recipients' text forms against age's own test plugin's recipient, and the refusals. Files both
// ways with python `cryptography` and pyrage are tests/interop/tag_*.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>

#include "engine/error.hpp"
#include "formats/keys/key_kind.hpp"
#include "formats/keys/tag/tag_recipient.hpp"
#include "tests/support/hex.hpp"
#include "tests/support/vectors.hpp"

namespace warp::formats::tag {
namespace {

using test::Bytes;
using test::from_hex;
using test::to_hex;

nlohmann::json entry(std::uint16_t kem_id) {
    std::ifstream in(test::vector_path("hpke/hpke-pq.json"));
    EXPECT_TRUE(in);
    for (const auto& e : nlohmann::json::parse(in))
        if (e.at("kem_id") == kem_id && e.at("mode") == 0) return e;
    ADD_FAILURE() << "no entry for KEM " << kem_id;
    return {};
}

Bytes field(const nlohmann::json& j, const char* name) {
    return from_hex(j.at(name).get<std::string>());
}

// The classic recipient's bytes: the vector's uncompressed pkRm, compressed.
Bytes compressed(const Bytes& uncompressed) {
    const std::optional<p256::Uncompressed> point = p256::decode_point(uncompressed);
    EXPECT_TRUE(point);
    const p256::Compressed c = p256::compress(*point);
    return Bytes(c.begin(), c.end());
}

TEST(TagRecipient, DhkemP256KnownAnswer) {
    const auto v = entry(kClassic.kem_id);
    ASSERT_FALSE(v.is_null());
    const Bytes key = compressed(field(v, "pkRm"));
    std::vector<std::uint8_t> enc;
    SecretBytes shared;
    ASSERT_TRUE(encapsulate(kClassic, key, field(v, "ikmE"), enc, shared));
    EXPECT_EQ(to_hex(enc), v.at("enc"));
    EXPECT_EQ(to_hex(shared.span()), v.at("shared_secret"));
    // HMAC-SHA256(key = label, enc || SHA-256(compressed pkR)[:4])[:4], from python's hmac.
    EXPECT_EQ(to_hex(stanza_tag(kClassic, enc, key)), "d789a4f1");
}

TEST(TagRecipient, Mlkem768P256KnownAnswer) {
    const auto v = entry(kHybrid.kem_id);
    ASSERT_FALSE(v.is_null());
    const Bytes key = field(v, "pkRm");
    ASSERT_EQ(key.size(), kHybrid.key_size);
    EXPECT_EQ(recipient_problem(kHybrid, key), "");
    std::vector<std::uint8_t> enc;
    SecretBytes shared;
    ASSERT_TRUE(encapsulate(kHybrid, key, field(v, "ikmE"), enc, shared));
    EXPECT_EQ(to_hex(enc), v.at("enc"));
    EXPECT_EQ(to_hex(shared.span()), v.at("shared_secret"));
    // Over the whole enc and SHA-256 of the uncompressed P-256 part (the key's last 65 bytes).
    EXPECT_EQ(to_hex(stanza_tag(kHybrid, enc, key)), "549dc8ab");
}

TEST(TagRecipient, AgesTestPluginRecipientReadsBackAsItself) {
    // filippo.io/age tag/internal/age-plugin-tagtest: the recipient of its classic identity.
    const std::string text = "age1tag1qwe0kafsjrar4txm6heqnhpfuggzr0gvznz7fvygxrlq90u5mq2pysxtw6h";
    const Secret recipient = decode_recipient_text(text);
    EXPECT_EQ(recipient.type, KeyType::p256tag);
    EXPECT_EQ(encode_recipient(kClassic, recipient.bytes.span()), text);
    EXPECT_FALSE(key_kind_of(KeyType::p256tag).post_quantum);
    EXPECT_TRUE(key_kind_of(KeyType::mlkem768p256tag).post_quantum);
}

TEST(TagRecipient, WrapMakesAFreshStanzaEachTime) {
    const Bytes key = compressed(field(entry(kClassic.kem_id), "pkRm"));
    const std::array<std::uint8_t, 16> file_key{1, 2, 3};
    const Bytes first_randomness(32, 7), second_randomness(32, 8);
    const Wrapped a = wrap(kClassic, key, file_key, first_randomness);
    const Wrapped b = wrap(kClassic, key, file_key, second_randomness);
    EXPECT_EQ(a.enc.size(), kClassic.enc_size);
    EXPECT_EQ(a.body.size(), file_key.size() + 16);
    EXPECT_NE(a.enc, b.enc);
    EXPECT_NE(a.body, b.body);
    EXPECT_EQ(a.tag, stanza_tag(kClassic, a.enc, key));
}

TEST(TagRecipient, KeysThatAreNoneAreRefused) {
    Bytes off_curve(p256::kCompressedSize, 0);
    off_curve[0] = 0x02;
    off_curve[32] = 1;  // x = 1: x^3 - 3x + b is not a square mod p
    EXPECT_NE(recipient_problem(kClassic, off_curve), "");
    EXPECT_NE(recipient_problem(kClassic, Bytes(10, 2)), "");
    Bytes hybrid = field(entry(kHybrid.kem_id), "pkRm");
    Bytes bad_mlkem = hybrid;
    bad_mlkem[0] = 0xff;  // a coefficient of 0xfff, over q
    bad_mlkem[1] |= 0x0f;
    EXPECT_NE(recipient_problem(kHybrid, bad_mlkem), "");
    Bytes compressed_part = hybrid;
    compressed_part[pq::mlkem768::kEncapsulationKeySize] = 0x02;
    EXPECT_NE(recipient_problem(kHybrid, compressed_part), "");
    EXPECT_THROW(decode_recipient(kClassic, "age1tag1qqqqqqqq"), Error);
}

}  // namespace
}  // namespace warp::formats::tag
