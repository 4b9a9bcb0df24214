// age.md, "Conventions": canonical base64, RFC 4648 sections 3.5 and 4.
#include "formats/age/base64.hpp"

#include <array>

namespace warp::formats::age {
namespace {

constexpr std::string_view kAlphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

constexpr std::array<std::int8_t, 256> make_values() {
    std::array<std::int8_t, 256> values{};
    for (auto& v : values) v = -1;
    for (std::size_t i = 0; i < kAlphabet.size(); ++i)
        values[static_cast<unsigned char>(kAlphabet[i])] = static_cast<std::int8_t>(i);
    return values;
}
constexpr std::array<std::int8_t, 256> kValues = make_values();

}  // namespace

std::string base64_encode(std::span<const std::uint8_t> bytes, bool padded) {
    std::string text;
    text.reserve((bytes.size() + 2) / 3 * 4);
    std::size_t i = 0;
    for (; i + 3 <= bytes.size(); i += 3) {
        const std::uint32_t v = std::uint32_t{bytes[i]} << 16 | std::uint32_t{bytes[i + 1]} << 8 |
                                bytes[i + 2];
        for (int shift = 18; shift >= 0; shift -= 6) text += kAlphabet[(v >> shift) & 63];
    }
    const std::size_t rest = bytes.size() - i;
    if (rest != 0) {
        std::uint32_t v = std::uint32_t{bytes[i]} << 16;
        if (rest == 2) v |= std::uint32_t{bytes[i + 1]} << 8;
        text += kAlphabet[(v >> 18) & 63];
        text += kAlphabet[(v >> 12) & 63];
        if (rest == 2) text += kAlphabet[(v >> 6) & 63];
        if (padded) text.append(rest == 1 ? "==" : "=");
    }
    return text;
}

std::optional<std::vector<std::uint8_t>> base64_decode(std::string_view text, bool padded) {
    std::size_t data_chars = text.size();
    if (padded) {
        if (text.size() % 4 != 0) return std::nullopt;
        while (data_chars > 0 && text.size() - data_chars < 2 && text[data_chars - 1] == '=')
            --data_chars;
    }
    if (data_chars % 4 == 1) return std::nullopt;  // no whole byte in the last group
    std::vector<std::uint8_t> bytes;
    bytes.reserve(data_chars * 3 / 4);
    std::uint32_t acc = 0;
    unsigned bits = 0;
    for (std::size_t i = 0; i < data_chars; ++i) {
        const std::int8_t v = kValues[static_cast<unsigned char>(text[i])];
        if (v < 0) return std::nullopt;  // '=' inside the data, or outside the alphabet
        acc = acc << 6 | static_cast<std::uint32_t>(v);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            bytes.push_back(static_cast<std::uint8_t>(acc >> bits));
            acc &= (1u << bits) - 1;
        }
    }
    if (acc != 0) return std::nullopt;  // bits past the data: not the canonical encoding
    return bytes;
}

}  // namespace warp::formats::age
