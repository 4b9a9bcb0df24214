// Bech32 (formats/keys/bech32.hpp) against BIP-173's test vectors, with age's rules where they
// differ (no length limit), and the padding rules of BIP-173's segwit vectors applied to the
// 5-to-8-bit conversion.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "formats/keys/bech32.hpp"

namespace warp::formats::bech32 {
namespace {

std::string lower(std::string s) {
    for (char& c : s)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c | 0x20);
    return s;
}

// BIP-173, "Test vectors": valid Bech32.
const std::vector<std::string> kValid = {
    "A12UEL5L",
    "a12uel5l",
    "an83characterlonghumanreadablepartthatcontainsthenumber1andtheexcludedcharactersbio1tt5tgs",
    "abcdef1qpzry9x8gf2tvdw0s3jn54khce6mua7lmqqqxw",
    "11qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqc8247j",
    "split1checkupstagehandshakeupstreamerranterredcaperred2y9e3w",
    "?1ezyfcl",
};

TEST(Bech32, Bip173ValidStringsDecodeAndEncodeBack) {
    for (const std::string& s : kValid) {
        std::string why;
        const std::optional<DecodedWords> decoded = decode_words(s, why);
        ASSERT_TRUE(decoded.has_value()) << s << ": " << why;
        EXPECT_EQ(decoded->hrp, lower(s.substr(0, s.rfind('1'))));
        const Case letters = s == lower(s) ? Case::lower : Case::upper;
        EXPECT_EQ(encode_words(decoded->hrp, decoded->words, letters), s);
    }
}

// BIP-173's invalid strings, each with its reason; the one refused for its length only is
// valid under age's rules (an identity is longer than 90 characters), and is checked so.
TEST(Bech32, Bip173InvalidStringsAreRefused) {
    const std::vector<std::pair<std::string, std::string>> invalid = {
        {std::string("\x20") + "1nwldj5", "out of range"},
        {std::string("\x7f") + "1axkwrx", "out of range"},
        {std::string("\x80") + "1eym55h", "out of range"},
        {"pzry9x0s0muk", "no separator"},
        {"1pzry9x0s0muk", "empty human-readable part"},
        {"x1b4n0q5v", "not in the Bech32 alphabet"},
        {"li1dgmt3", "checksum too short"},
        {std::string("de1lg7wt") + "\xff", "not in the Bech32 alphabet"},
        {"A1G7SGD8", "wrong checksum"},  // checksum of the upper-case HRP
        {"10a06t8", "empty human-readable part"},
        {"1qzzfhee", "empty human-readable part"},
        {"A12uEL5L", "mixed upper and lower case"},
        {"a12UEL5L", "mixed upper and lower case"},
        {"A12UEL5M", "wrong checksum"},
    };
    for (const auto& [s, reason] : invalid) {
        std::string why;
        EXPECT_FALSE(decode_words(s, why).has_value()) << s;
        EXPECT_NE(why.find(reason), std::string::npos) << s << ": " << why;
    }
    std::string why;
    EXPECT_TRUE(decode_words("an84characterslonghumanreadablepartthatcontainsthenumber1andtheexcluded"
                             "charactersbio1569pvx",
                             why)
                    .has_value())
        << why;
}

// BIP-173's segwit vectors: the first data word is the witness version, the rest converts to
// the program bytes; their padding cases are the 5-to-8 conversion's rules.
TEST(Bech32, ConversionFollowsBip173SegwitVectors) {
    struct Case {
        std::string address;
        std::string program_hex;  // after the version and length bytes of scriptPubKey
    };
    const std::vector<Case> valid = {
        {"BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4",
         "751e76e8199196d454941c45d1b3a323f1433bd6"},
        {"tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7",
         "1863143c14c5166804bd19203356da136c985678cd4d27a1b8c6329604903262"},
        {"BC1SW50QA3JX3S", "751e"},
        {"bc1zw508d6qejxtdg4y5r3zarvaryvg6kdaj", "751e76e8199196d454941c45d1b3a323"},
    };
    for (const Case& c : valid) {
        std::string why;
        const std::optional<DecodedWords> decoded = decode_words(c.address, why);
        ASSERT_TRUE(decoded.has_value()) << c.address << ": " << why;
        const std::span<const std::uint8_t> program(decoded->words.data() + 1,
                                                    decoded->words.size() - 1);
        const std::optional<SecretBytes> bytes = to_bytes(program, why);
        ASSERT_TRUE(bytes.has_value()) << c.address << ": " << why;
        std::string hex;
        for (std::uint8_t b : bytes->span()) {
            constexpr char kDigits[] = "0123456789abcdef";
            hex += kDigits[b >> 4];
            hex += kDigits[b & 15];
        }
        EXPECT_EQ(hex, c.program_hex) << c.address;
        // And back: the words of the bytes are the program's.
        const Words words = to_words(bytes->span());
        EXPECT_TRUE(std::equal(words.begin(), words.end(), program.begin(), program.end()))
            << c.address;
    }
    const std::vector<std::pair<std::string, std::string>> bad_padding = {
        {"bc1zw508d6qejxtdg4y5r3zarvaryvqyzf3du", "5 bits or more"},
        {"tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3pjxtptv", "not zero"},
    };
    for (const auto& [address, reason] : bad_padding) {
        std::string why;
        const std::optional<DecodedWords> decoded = decode_words(address, why);
        ASSERT_TRUE(decoded.has_value()) << address << ": " << why;
        const std::span<const std::uint8_t> program(decoded->words.data() + 1,
                                                    decoded->words.size() - 1);
        EXPECT_FALSE(to_bytes(program, why).has_value()) << address;
        EXPECT_NE(why.find(reason), std::string::npos) << address << ": " << why;
    }
}

TEST(Bech32, BytesRoundTripAtEveryLengthInBothCases) {
    std::vector<std::uint8_t> bytes;
    for (std::size_t n = 0; n <= 70; ++n) {
        for (Case letters : {Case::lower, Case::upper}) {
            const std::string text = encode("test-hrp", bytes, letters);
            std::string why;
            const std::optional<Decoded> decoded = decode(text, why);
            ASSERT_TRUE(decoded.has_value()) << n << ": " << why;
            EXPECT_EQ(decoded->hrp, "test-hrp");
            EXPECT_TRUE(std::equal(bytes.begin(), bytes.end(), decoded->bytes.span().begin(),
                                   decoded->bytes.span().end()))
                << n;
        }
        bytes.push_back(static_cast<std::uint8_t>(n * 37 + 11));
    }
}

}  // namespace
}  // namespace warp::formats::bech32
