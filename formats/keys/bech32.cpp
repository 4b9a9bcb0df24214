// Bech32 as bech32.hpp says: BIP-173's checksum and conversions, age's rules on length and
// case, constant time in the data part.
#include "formats/keys/bech32.hpp"

#include <array>

namespace warp::formats::bech32 {
namespace {

constexpr std::string_view kAlphabet = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";
constexpr std::array<std::uint32_t, 5> kGenerator = {0x3b6a57b2, 0x26508e6d, 0x1ea119fa,
                                                     0x3d4233dd, 0x2a1462b3};
constexpr std::size_t kChecksumWords = 6;
constexpr char kSeparator = '1';

// Masks instead of branches (all ones or zero), for values below 2^31.
constexpr std::uint32_t equal_mask(std::uint32_t a, std::uint32_t b) {
    const std::uint32_t x = a ^ b;
    return ((x | (0u - x)) >> 31) - 1;
}
constexpr std::uint32_t in_range_mask(std::uint32_t c, std::uint32_t low, std::uint32_t high) {
    return (((c - low) | (high - c)) >> 31) - 1;
}
static_assert(equal_mask(7, 7) == ~0u && equal_mask(7, 8) == 0);
static_assert(in_range_mask('a', 'a', 'z') == ~0u && in_range_mask('`', 'a', 'z') == 0);

// One step of BIP-173's polymod: the generator terms selected by masks, not branches.
constexpr std::uint32_t polymod_step(std::uint32_t checksum, std::uint32_t value) {
    const std::uint32_t top = checksum >> 25;
    checksum = ((checksum & 0x1ffffff) << 5) ^ value;
    for (std::size_t i = 0; i < kGenerator.size(); ++i)
        checksum ^= kGenerator[i] & (0u - ((top >> i) & 1));
    return checksum;
}

// The polymod of the expanded human-readable part (public: branches allowed).
std::uint32_t hrp_polymod(std::string_view hrp) {
    std::uint32_t checksum = 1;
    for (char c : hrp) checksum = polymod_step(checksum, static_cast<unsigned char>(c) >> 5);
    checksum = polymod_step(checksum, 0);
    for (char c : hrp) checksum = polymod_step(checksum, static_cast<unsigned char>(c) & 31);
    return checksum;
}

// The alphabet's character for a 5-bit value, by scanning the whole alphabet.
char character_of(std::uint32_t value) {
    std::uint32_t c = 0;
    for (std::uint32_t j = 0; j < kAlphabet.size(); ++j)
        c |= static_cast<unsigned char>(kAlphabet[j]) & equal_mask(value, j);
    return static_cast<char>(c);
}

// A data character's value, and masks saying whether it is in the alphabet and its case.
struct CharacterValue {
    std::uint32_t value = 0;
    std::uint32_t found = 0;
    std::uint32_t upper = 0;
    std::uint32_t lower = 0;
};
CharacterValue value_of(unsigned char c) {
    CharacterValue v;
    v.upper = in_range_mask(c, 'A', 'Z');
    v.lower = in_range_mask(c, 'a', 'z');
    const std::uint32_t folded = c | (v.upper & 0x20);
    for (std::uint32_t j = 0; j < kAlphabet.size(); ++j) {
        const std::uint32_t match = equal_mask(folded, static_cast<unsigned char>(kAlphabet[j]));
        v.value |= j & match;
        v.found |= match;
    }
    return v;
}

// Where the last '1' is (npos: none), found without branching on the characters: the data
// part never holds a '1', so the position is public (the human-readable part ends there).
std::size_t separator_position(std::string_view text) {
    std::size_t position = std::string_view::npos;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const std::size_t is_separator =
            0 - static_cast<std::size_t>(equal_mask(static_cast<unsigned char>(text[i]),
                                                    static_cast<unsigned char>(kSeparator)) & 1);
        position = (i & is_separator) | (position & ~is_separator);
    }
    declassify(&position, sizeof position);
    return position;
}

}  // namespace

std::string encode_words(std::string_view hrp, std::span<const std::uint8_t> words,
                         Case letters) {
    std::uint32_t checksum = hrp_polymod(hrp);
    for (std::uint8_t w : words) checksum = polymod_step(checksum, w);
    for (std::size_t i = 0; i < kChecksumWords; ++i) checksum = polymod_step(checksum, 0);
    checksum ^= 1;
    // Sized once: a string that grew would free its old buffer, characters and all, unwiped.
    std::string text;
    text.reserve(hrp.size() + 1 + words.size() + kChecksumWords);
    text.append(hrp);
    text += kSeparator;
    for (std::uint8_t w : words) text += character_of(w);
    for (std::size_t i = 0; i < kChecksumWords; ++i)
        text += character_of((checksum >> (5 * (kChecksumWords - 1 - i))) & 31);
    if (letters == Case::upper)
        for (char& c : text) {
            const auto byte = static_cast<unsigned char>(c);
            c = static_cast<char>(byte & ~(in_range_mask(byte, 'a', 'z') & 0x20));
        }
    return text;
}

std::optional<DecodedWords> decode_words(std::string_view text, std::string& why) {
    const std::size_t separator = separator_position(text);
    if (separator == std::string_view::npos) {
        why = "no separator '1'";
        return std::nullopt;
    }
    if (separator == 0) {
        why = "empty human-readable part";
        return std::nullopt;
    }
    const std::string_view hrp = text.substr(0, separator);
    const std::string_view data = text.substr(separator + 1);
    if (data.size() < kChecksumWords) {
        why = "checksum too short";
        return std::nullopt;
    }
    bool hrp_upper = false, hrp_lower = false;
    std::string lower_hrp;
    for (char ch : hrp) {
        const auto c = static_cast<unsigned char>(ch);
        if (c < 33 || c > 126) {
            why = "character out of range in the human-readable part";
            return std::nullopt;
        }
        hrp_upper |= c >= 'A' && c <= 'Z';
        hrp_lower |= c >= 'a' && c <= 'z';
        lower_hrp += static_cast<char>(c >= 'A' && c <= 'Z' ? c | 0x20 : c);
    }

    DecodedWords decoded{std::move(lower_hrp), Words(data.size())};
    std::uint32_t missing = 0, upper = 0, lower = 0;
    std::uint32_t checksum = hrp_polymod(decoded.hrp);
    for (std::size_t i = 0; i < data.size(); ++i) {
        const CharacterValue v = value_of(static_cast<unsigned char>(data[i]));
        missing |= ~v.found;
        upper |= v.upper;
        lower |= v.lower;
        decoded.words[i] = static_cast<std::uint8_t>(v.value);
        checksum = polymod_step(checksum, v.value);
    }
    // The verdicts are public (declassified, and computed without short cuts); the
    // characters behind them are not named.
    if (public_verdict(missing != 0)) {
        why = "a character that is not in the Bech32 alphabet";
        return std::nullopt;
    }
    const bool any_upper = public_verdict(upper != 0) || hrp_upper;
    const bool any_lower = public_verdict(lower != 0) || hrp_lower;
    if (any_upper && any_lower) {
        why = "mixed upper and lower case";
        return std::nullopt;
    }
    if (public_verdict(equal_mask(checksum, 1) == 0)) {
        why = "wrong checksum";
        return std::nullopt;
    }
    decoded.words.resize(data.size() - kChecksumWords);
    return decoded;
}

Words to_words(std::span<const std::uint8_t> bytes) {
    Words words;
    words.reserve((bytes.size() * 8 + 4) / 5);
    std::uint32_t accumulator = 0;
    unsigned bits = 0;
    for (std::uint8_t b : bytes) {
        accumulator = ((accumulator << 8) | b) & 0xfff;  // at most 12 bits are pending
        bits += 8;
        while (bits >= 5) {
            bits -= 5;
            words.push_back(static_cast<std::uint8_t>((accumulator >> bits) & 31));
        }
    }
    if (bits > 0) words.push_back(static_cast<std::uint8_t>((accumulator << (5 - bits)) & 31));
    accumulator = 0;
    return words;
}

std::optional<SecretBytes> to_bytes(std::span<const std::uint8_t> words, std::string& why) {
    SecretBytes bytes(words.size() * 5 / 8);
    std::uint32_t accumulator = 0;
    unsigned bits = 0;
    std::size_t out = 0;
    for (std::uint8_t w : words) {
        accumulator = ((accumulator << 5) | w) & 0xfff;
        bits += 5;
        if (bits >= 8) {  // the count of bits is public: it follows from the length alone
            bits -= 8;
            bytes.data()[out++] = static_cast<std::uint8_t>((accumulator >> bits) & 0xff);
        }
    }
    const std::uint32_t padding = (accumulator << (8 - bits)) & 0xff;
    accumulator = 0;
    if (bits >= 5) {
        why = "padding of 5 bits or more";
        return std::nullopt;
    }
    if (public_verdict(equal_mask(padding, 0) == 0)) {
        why = "padding bits that are not zero";
        return std::nullopt;
    }
    return bytes;
}

std::string encode(std::string_view hrp, std::span<const std::uint8_t> bytes, Case letters) {
    const Words words = to_words(bytes);
    return encode_words(hrp, words, letters);
}

std::optional<Decoded> decode(std::string_view text, std::string& why) {
    std::optional<DecodedWords> words = decode_words(text, why);
    if (!words) return std::nullopt;
    std::optional<SecretBytes> bytes = to_bytes(words->words, why);
    if (!bytes) return std::nullopt;
    return Decoded{std::move(words->hrp), std::move(*bytes)};
}

std::optional<SecretBytes> decode_key(std::string_view text, std::string_view hrp,
                                      std::size_t size, std::string& why) {
    std::optional<Decoded> decoded = decode(text, why);
    if (!decoded) return std::nullopt;
    if (decoded->hrp != hrp) {
        why = "it does not start with \"" + std::string(hrp) + "1\"";
        return std::nullopt;
    }
    if (decoded->bytes.size() != size) {
        why = "it holds " + std::to_string(decoded->bytes.size()) + " bytes, not " +
              std::to_string(size);
        return std::nullopt;
    }
    return std::move(decoded->bytes);
}

}  // namespace warp::formats::bech32
