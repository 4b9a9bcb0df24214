// X25519 keys in age's encoding (formats/keys/x25519.hpp): the identities of the age test
// vectors (tests/vectors/age-cctv) give the recipients age-keygen 1.1.1 prints for them
// (`age-keygen -y`), encode back to the same text, and agree with OpenSSL's X25519; malformed
// keys and files are refused with the line named and nothing of the key quoted.
#include <gtest/gtest.h>

#include <openssl/evp.h>

#include <cctype>
#include <functional>
#include <memory>
#include <string>

#include "engine/error.hpp"
#include "formats/keys/bech32.hpp"
#include "formats/keys/key_kind.hpp"
#include "formats/keys/x25519.hpp"
#include "formats/keys/x25519_exchange.hpp"

namespace warp::formats {
namespace {

struct KnownPair {
    const char* identity;
    const char* recipient;  // age-keygen -y (age 1.1.1), run 2026-12-01
};
constexpr KnownPair kCctvPairs[] = {
    {"AGE-SECRET-KEY-1EGTZVFFV20835NWYV6270LXYVK2VKNX2MMDKWYKLMGR48UAWX40Q2P2LM0",
     "age1xmwwc06ly3ee5rytxm9mflaz2u56jjj36s0mypdrwsvlul66mv4q47ryef"},
    {"AGE-SECRET-KEY-143WN7DCXU4G8R5AXQSSYD9AEPYDNT3HXSLWSPK36CDU6E8M59SSSAGZ3KG",
     "age1f3ygt5e2d2h7d6dae2tnwgy4y6f0kwhvpa64cre0k2gprv2r8qnst4j00y"},
};

X25519PublicKey openssl_public_key(const SecretBytes& secret) {
    std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key(
        EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, nullptr, secret.data(), secret.size()),
        &EVP_PKEY_free);
    X25519PublicKey out{};
    std::size_t len = out.size();
    EXPECT_NE(key, nullptr);
    EXPECT_EQ(EVP_PKEY_get_raw_public_key(key.get(), out.data(), &len), 1);
    return out;
}

void expect_refused(const std::function<void()>& f, const std::string& words) {
    try {
        f();
        ADD_FAILURE() << "accepted; expected: " << words;
    } catch (const Error& error) {
        EXPECT_EQ(error.cause(), ErrorCause::usage);
        EXPECT_NE(std::string(error.what()).find(words), std::string::npos) << error.what();
    }
}

TEST(X25519Keys, AgesOwnIdentitiesGiveAgesRecipients) {
    for (const KnownPair& pair : kCctvPairs) {
        const X25519Identity identity = decode_identity(pair.identity);
        EXPECT_EQ(encode_recipient(identity.public_key), pair.recipient);
        EXPECT_EQ(encode_identity(identity.secret), pair.identity);
        EXPECT_EQ(decode_recipient(pair.recipient), identity.public_key);
        EXPECT_EQ(openssl_public_key(identity.secret), identity.public_key);
    }
}

TEST(X25519Keys, NewIdentitiesRoundTripAndMatchOpenSsl) {
    for (int i = 0; i < 20; ++i) {
        const X25519Identity identity = generate_x25519_identity();
        const std::string text = encode_identity(identity.secret);
        EXPECT_TRUE(text.starts_with("AGE-SECRET-KEY-1")) << text.substr(0, 16);
        EXPECT_EQ(text.size(), 74u);
        const X25519Identity back = decode_identity(text);
        EXPECT_TRUE(std::equal(back.secret.span().begin(), back.secret.span().end(),
                               identity.secret.span().begin()));
        EXPECT_EQ(openssl_public_key(identity.secret), identity.public_key);
        const std::string recipient = encode_recipient(identity.public_key);
        EXPECT_EQ(recipient.size(), 62u);
        EXPECT_EQ(decode_recipient(recipient), identity.public_key);
    }
}

TEST(X25519Keys, EitherCaseIsAcceptedMixedIsNot) {
    const KnownPair& pair = kCctvPairs[0];
    std::string lower_identity = pair.identity, upper_recipient = pair.recipient;
    for (char& c : lower_identity)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (char& c : upper_recipient)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    EXPECT_EQ(decode_identity(lower_identity).public_key, decode_recipient(pair.recipient));
    EXPECT_EQ(decode_recipient(upper_recipient), decode_recipient(pair.recipient));
    std::string mixed = pair.recipient;
    mixed[4] = static_cast<char>(std::toupper(static_cast<unsigned char>(mixed[4])));  // the x
    expect_refused([&] { decode_recipient(mixed); }, "mixed upper and lower case");
}

TEST(X25519Keys, MalformedKeysAreRefusedWithoutQuotingThem) {
    const KnownPair& pair = kCctvPairs[0];
    std::string flipped = pair.identity;
    flipped[30] = flipped[30] == 'Q' ? 'P' : 'Q';
    expect_refused([&] { decode_identity(flipped); }, "wrong checksum");
    expect_refused([&] { decode_identity(pair.recipient); }, "does not start with");
    expect_refused([&] { decode_recipient(pair.identity); }, "does not start with");
    // A warpcrypt key file's line has '1's in its hex: its "prefix" must not be echoed.
    const std::string key_line =
        "warpcrypt-key-v1:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
    try {
        decode_identity(key_line);
        ADD_FAILURE() << "a key-file line was taken for an identity";
    } catch (const Error& error) {
        EXPECT_EQ(std::string(error.what()).find("0123456789"), std::string::npos) << error.what();
    }
    expect_refused([&] { decode_recipient("age1qqqqqqqqqqqqqqqqq"); }, "");
    // Right checksum, wrong length: 31 bytes.
    expect_refused([&] { decode_recipient(bech32::encode("age", std::vector<std::uint8_t>(31))); },
                   "31 bytes, not 32");
}

TEST(X25519Keys, IdentityFilesAsAgeKeygenWritesThem) {
    const X25519Identity first = generate_x25519_identity();
    std::string text = identity_file_text(first, "2026-12-01T12:00:00Z");
    EXPECT_TRUE(text.starts_with("# created: 2026-12-01T12:00:00Z\n# public key: age1"));
    EXPECT_NE(text.find("\n" + encode_identity(first.secret) + "\n"), std::string::npos);
    text += "\n# a second one, with Windows line ends\r\n";
    text += std::string(kCctvPairs[1].identity) + "\r\n";
    const std::vector<Secret> identities = decode_identity_file_text(text);
    ASSERT_EQ(identities.size(), 2u);
    EXPECT_EQ(x25519_public_key(identities[0].bytes), first.public_key);
    EXPECT_EQ(encode_recipient(x25519_public_key(identities[1].bytes)), kCctvPairs[1].recipient);

    expect_refused([&] { decode_identity_file_text("# only a comment\n\n"); }, "no identity");
    expect_refused([&] { decode_identity_file_text("# ok\n" + std::string(kCctvPairs[0].identity) +
                                                   "\nsomething else\n"); },
                   "line 3: not an age identity");
}

TEST(X25519Keys, RecipientFilesOneAPerLine) {
    const std::string text = std::string("# team\n") + kCctvPairs[0].recipient + "\n\n" +
                             kCctvPairs[1].recipient + "\n";
    const std::vector<Secret> recipients = decode_recipients_file_text(text);
    ASSERT_EQ(recipients.size(), 2u);
    EXPECT_EQ(encode_recipient(x25519_key_of(recipients[1].bytes.span())), kCctvPairs[1].recipient);
    expect_refused([&] { decode_recipients_file_text("age1nope\n"); },
                   "line 1: not an age recipient");
    expect_refused([&] { decode_recipients_file_text(""); }, "no recipient");
}

}  // namespace
}  // namespace warp::formats
