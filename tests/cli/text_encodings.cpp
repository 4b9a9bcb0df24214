#include "tests/cli/text_encodings.hpp"

#include <vector>

namespace warp::clitest {

std::string base64_unpadded(std::string_view bytes) {
    static constexpr char kAlphabet[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    std::uint32_t bits = 0;
    int count = 0;
    for (const char c : bytes) {
        bits = (bits << 8) | static_cast<std::uint8_t>(c);
        count += 8;
        while (count >= 6) {
            count -= 6;
            out += kAlphabet[(bits >> count) & 63];
        }
    }
    if (count > 0) out += kAlphabet[(bits << (6 - count)) & 63];
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
    std::vector<std::uint8_t> data;
    std::uint32_t bits = 0;
    int count = 0;
    for (const char c : bytes) {
        bits = (bits << 8) | static_cast<std::uint8_t>(c);
        count += 8;
        while (count >= 5) {
            count -= 5;
            data.push_back(static_cast<std::uint8_t>((bits >> count) & 31));
        }
    }
    if (count > 0) data.push_back(static_cast<std::uint8_t>((bits << (5 - count)) & 31));
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
