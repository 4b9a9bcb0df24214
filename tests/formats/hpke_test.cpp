// HPKE with the MLKEM768-X25519 KEM (formats/keys/pq/hpke.hpp) against the known answer of
// exactly age's suite in tests/vectors/hpke/hpke-pq.json (KEM 0x647a, HKDF-SHA256,
// ChaCha20-Poly1305, base mode): key derivation, encapsulation, the key schedule, every
// encryption and export; then the hybrid KEM's refusals.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>

#include "formats/keys/pq/hpke.hpp"
#include "tests/support/hex.hpp"
#include "tests/support/vectors.hpp"

namespace warp::formats::pq {
namespace {

using test::Bytes;
using test::from_hex;
using test::to_hex;

nlohmann::json age_suite_entry() {
    std::ifstream in(test::vector_path("hpke/hpke-pq.json"));
    EXPECT_TRUE(in);
    for (const auto& entry : nlohmann::json::parse(in))
        if (entry.at("kem_id") == kHybridKemId && entry.at("kdf_id") == 1 && entry.at("aead_id") == 3 &&
            entry.at("mode") == 0)
            return entry;
    ADD_FAILURE() << "no entry for KEM 0x647a, HKDF-SHA256, ChaCha20-Poly1305, base mode";
    return {};
}

Bytes field(const nlohmann::json& j, const char* name) { return from_hex(j.at(name).get<std::string>()); }

template <std::size_t N>
std::span<const std::uint8_t, N> fixed(const Bytes& b) {
    EXPECT_EQ(b.size(), N);
    return std::span<const std::uint8_t, N>(b.data(), N);
}

TEST(Hpke, KnownAnswerOfAgesSuite) {
    const auto v = age_suite_entry();
    ASSERT_FALSE(v.is_null());
    const Bytes info = field(v, "info");
    const auto seed = hpke_derive_key_seed(field(v, "ikmR"));
    EXPECT_EQ(to_hex(seed), v.at("skRm"));
    const HybridKeyPair key = hybrid_expand(seed);
    EXPECT_EQ(to_hex(key.public_key), v.at("pkRm"));

    HybridEnc enc{};
    HpkeContext sender;
    const Bytes ikm_e = field(v, "ikmE");
    ASSERT_TRUE(hpke_setup_sender(key.public_key, info, fixed<kHybridRandomSize>(ikm_e), enc, sender));
    EXPECT_EQ(to_hex(enc), v.at("enc"));
    HybridShared shared;
    ASSERT_TRUE(hybrid_decapsulate(key, enc, shared));
    EXPECT_EQ(to_hex(shared.bytes), v.at("shared_secret"));
    EXPECT_EQ(to_hex(sender.key()), v.at("key"));
    EXPECT_EQ(to_hex(sender.base_nonce()), v.at("base_nonce"));
    EXPECT_EQ(to_hex(sender.exporter_secret()), v.at("exporter_secret"));

    HpkeContext receiver;
    ASSERT_TRUE(hpke_setup_receiver(key, enc, info, receiver));
    // The encryptions are consecutive sequence numbers of one context.
    std::size_t checked = 0;
    for (const auto& e : v.at("encryptions")) {
        const Bytes aad = field(e, "aad"), pt = field(e, "pt"), ct = field(e, "ct");
        Bytes sealed(pt.size() + kHpkeTagSize), opened(pt.size());
        sender.seal(aad, pt, sealed);
        EXPECT_EQ(to_hex(sealed), to_hex(ct)) << "encryption " << checked;
        EXPECT_TRUE(receiver.open(aad, ct, opened));
        EXPECT_EQ(opened, pt);
        ++checked;
    }
    EXPECT_EQ(checked, 10u);
    for (const auto& e : v.at("exports")) {
        Bytes out(e.at("L").get<std::size_t>());
        sender.export_secret(field(e, "exporter_context"), out);
        EXPECT_EQ(to_hex(out), e.at("exported_value"));
        ++checked;
    }
    EXPECT_EQ(checked, 15u);
}

TEST(Hpke, OpenRefusesATamperedMessageAndAnotherKey) {
    const auto v = age_suite_entry();
    const HybridKeyPair key = hybrid_expand(hpke_derive_key_seed(field(v, "ikmR")));
    const Bytes ikm_e = field(v, "ikmE");
    HybridEnc enc{};
    HpkeContext sender;
    ASSERT_TRUE(hpke_setup_sender(key.public_key, {}, fixed<kHybridRandomSize>(ikm_e), enc, sender));
    const Bytes file_key(16, 0x42);
    Bytes body(32);
    sender.seal({}, file_key, body);
    for (std::size_t bit = 0; bit < body.size() * 8; bit += 7) {
        Bytes bad = body, out(16);
        bad[bit / 8] ^= static_cast<std::uint8_t>(1u << (bit % 8));
        HpkeContext receiver;
        ASSERT_TRUE(hpke_setup_receiver(key, enc, {}, receiver));
        EXPECT_FALSE(receiver.open({}, bad, out)) << "bit " << bit;
        EXPECT_EQ(out, Bytes(16, 0));
    }
    // A flipped enc (ML-KEM part) is implicit rejection: another key, the tag fails.
    HybridEnc bad_enc = enc;
    bad_enc[5] ^= 1;
    HpkeContext receiver;
    ASSERT_TRUE(hpke_setup_receiver(key, bad_enc, {}, receiver));
    Bytes out(16);
    EXPECT_FALSE(receiver.open({}, body, out));
    // Another identity.
    std::array<std::uint8_t, kHybridSeedSize> other_seed{};
    other_seed[0] = 1;
    const HybridKeyPair other = hybrid_expand(other_seed);
    HpkeContext wrong;
    ASSERT_TRUE(hpke_setup_receiver(other, enc, {}, wrong));
    EXPECT_FALSE(wrong.open({}, body, out));
}

TEST(Hpke, HybridKemRefusesZeroX25519SharesAndBadKeys) {
    std::array<std::uint8_t, kHybridSeedSize> seed{};
    const HybridKeyPair key = hybrid_expand(seed);
    EXPECT_EQ(hybrid_public_key_problem(key.public_key), "");
    // enc with a low-order X25519 share (zero, one): refused, whatever the ML-KEM part.
    for (const std::uint8_t low : {std::uint8_t{0}, std::uint8_t{1}}) {
        HybridEnc enc{};
        enc[mlkem768::kCiphertextSize] = low;
        HybridShared shared;
        EXPECT_FALSE(hybrid_decapsulate(key, enc, shared)) << int(low);
    }
    HybridShared shared;
    EXPECT_FALSE(hybrid_decapsulate(key, Bytes(kHybridEncSize - 1), shared));
    EXPECT_FALSE(hybrid_decapsulate(key, Bytes(kHybridEncSize + 1), shared));
    // Public keys: size, the ML-KEM modulus check, the X25519 half's.
    EXPECT_NE(hybrid_public_key_problem(std::span(key.public_key).first(kHybridPublicKeySize - 1)), "");
    HybridPublicKey bad = key.public_key;
    bad[0] = 0xff;
    bad[1] |= 0x0f;  // first coefficient 4095 >= q
    EXPECT_NE(hybrid_public_key_problem(bad).find("modulus"), std::string::npos);
    bad = key.public_key;
    std::fill(bad.end() - 32, bad.end(), 0);
    EXPECT_NE(hybrid_public_key_problem(bad).find("X25519"), std::string::npos);
    std::array<std::uint8_t, kHybridRandomSize> randomness{};
    HybridEnc enc{};
    EXPECT_FALSE(hybrid_encapsulate(bad, randomness, enc, shared));
}

}  // namespace
}  // namespace warp::formats::pq
