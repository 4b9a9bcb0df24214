#include "tests/cli/text_encodings.hpp"

#include <vector>

namespace warp::clitest {

namespace {

// The bits of `bytes`, most significant first, in words of `width` bits, the last padded with
// zero bits (both encodings regroup bytes so).
std::vector<std::uint8_t> regroup(std::string_view bytes, int width) {
    std::vector<std::uint8_t> words;
    std::uint32_t bits = 0;
    int count = 0;
    const std::uint32_t mask = (1u << width) - 1;
    for (const char c : bytes) {
        bits = (bits << 8) | static_cast<std::uint8_t>(c);
        count += 8;
        while (count >= width) {
            count -= width;
            words.push_back(static_cast<std::uint8_t>((bits >> count) & mask));
        }
    }
    if (count > 0) words.push_back(static_cast<std::uint8_t>((bits << (width - count)) & mask));
    return words;
}

}  // namespace

std::string base64_unpadded(std::string_view bytes) {
    static constexpr char kAlphabet[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    for (const std::uint8_t word : regroup(bytes, 6)) out += kAlphabet[word];
    return out;
}

std::string base64_padded(std::string_view bytes) {
    std::string out = base64_unpadded(bytes);
    while (out.size() % 4 != 0) out += '=';
    return out;
}

std::string base64_decoded(std::string_view text) {
    static constexpr std::string_view kAlphabet =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    std::uint32_t bits = 0;
    int count = 0;
    for (const char c : text) {
        const std::size_t value = kAlphabet.find(c);
        if (value == std::string_view::npos) continue;  // whitespace, padding
        bits = (bits << 6) | static_cast<std::uint32_t>(value);
        count += 6;
        if (count >= 8) {
            count -= 8;
            out += static_cast<char>((bits >> count) & 0xff);
        }
    }
    return out;
}

namespace {

// BIP-173's checksum polynomial over GF(32).
std::uint32_t polymod(const std::vector<std::uint8_t>& values) {
    static constexpr std::uint32_t kGenerator[] = {0x3b6a57b2, 0x26508e6d, 0x1ea119fa,
                                                   0x3d4233dd, 0x2a1462b3};
    std::uint32_t check = 1;
    for (const std::uint8_t v : values) {
        const std::uint32_t top = check >> 25;
        check = ((check & 0x1ffffff) << 5) ^ v;
        for (int i = 0; i < 5; ++i)
            if ((top >> i) & 1) check ^= kGenerator[i];
    }
    return check;
}

}  // namespace

std::string bech32_lower(std::string_view hrp, std::string_view bytes) {
    static constexpr char kCharset[] = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";
    const std::vector<std::uint8_t> data = regroup(bytes, 5);
    std::vector<std::uint8_t> values;
    for (const char c : hrp) values.push_back(static_cast<std::uint8_t>(c) >> 5);
    values.push_back(0);
    for (const char c : hrp) values.push_back(static_cast<std::uint8_t>(c) & 31);
    values.insert(values.end(), data.begin(), data.end());
    values.insert(values.end(), 6, 0);
    const std::uint32_t check = polymod(values) ^ 1;
    std::string out(hrp);
    out += '1';
    for (const std::uint8_t d : data) out += kCharset[d];
    for (int i = 0; i < 6; ++i) out += kCharset[(check >> (5 * (5 - i))) & 31];
    return out;
}

}  // namespace warp::clitest
