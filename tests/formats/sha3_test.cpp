// SHA-3 and SHAKE (formats/keys/pq/sha3.hpp) against NIST's CAVP byte-oriented vectors
// (tests/vectors/sha3/) and against OpenSSL at every input length across three rate blocks, with
// outputs squeezed whole and in pieces (ML-KEM's sampling squeezes a block at a time).
#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <fstream>
#include <string>
#include <vector>

#include "formats/keys/pq/sha3.hpp"
#include "tests/support/hex.hpp"
#include "tests/support/vectors.hpp"

namespace warp::formats::pq {
namespace {

using test::Bytes;
using test::from_hex;
using test::to_hex;

struct NistCase {
    std::size_t bits = 0;
    Bytes msg;
    std::string expected;  // MD or Output, hex
};

// "Len = N", "Msg = hex", then "MD = hex" or "Output = hex" (the files' only lines).
std::vector<NistCase> read_nist(const std::string& name) {
    std::ifstream in(test::vector_path("sha3/" + name));
    EXPECT_TRUE(in) << name;
    std::vector<NistCase> cases;
    std::string line;
    NistCase current;
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        const auto eq = line.find(" = ");
        if (eq == std::string::npos) continue;
        const std::string key = line.substr(0, eq), value = line.substr(eq + 3);
        if (key == "Len") current.bits = std::stoul(value);
        if (key == "Msg") current.msg = current.bits == 0 ? Bytes{} : from_hex(value);
        if (key == "MD" || key == "Output") {
            current.expected = value;
            cases.push_back(current);
        }
    }
    return cases;
}

template <class Hash>
void check_nist(const std::string& name, std::size_t expected_cases, Hash hash) {
    const auto cases = read_nist(name);
    ASSERT_EQ(cases.size(), expected_cases) << name;
    for (const NistCase& c : cases) {
        ASSERT_EQ(c.bits % 8, 0u);
        EXPECT_EQ(hash(c.msg, c.expected.size() / 2), c.expected) << name << " Len = " << c.bits;
    }
}

TEST(Sha3, NistCavpShortMessages) {
    check_nist("SHA3_256ShortMsg.rsp", 136, [](const Bytes& m, std::size_t) { return to_hex(sha3_256({m})); });
    check_nist("SHA3_512ShortMsg.rsp", 72, [](const Bytes& m, std::size_t) { return to_hex(sha3_512({m})); });
    check_nist("SHAKE128ShortMsg.rsp", 336, [](const Bytes& m, std::size_t n) {
        Bytes out(n);
        shake128({m}, out);
        return to_hex(out);
    });
    check_nist("SHAKE256ShortMsg.rsp", 272, [](const Bytes& m, std::size_t n) {
        Bytes out(n);
        shake256({m}, out);
        return to_hex(out);
    });
}

Bytes openssl_digest(const EVP_MD* md, const Bytes& msg, std::size_t out_len, bool xof) {
    Bytes out(out_len);
    EVP_MD_CTX* ctx = EVP_MD_CTX_new();
    EXPECT_EQ(EVP_DigestInit_ex(ctx, md, nullptr), 1);
    EXPECT_EQ(EVP_DigestUpdate(ctx, msg.data(), msg.size()), 1);
    if (xof) EXPECT_EQ(EVP_DigestFinalXOF(ctx, out.data(), out.size()), 1);
    else EXPECT_EQ(EVP_DigestFinal_ex(ctx, out.data(), nullptr), 1);
    EVP_MD_CTX_free(ctx);
    return out;
}

TEST(Sha3, MatchesOpenSslAtEveryLengthAcrossThreeBlocks) {
    Bytes msg;
    for (std::size_t len = 0; len <= 3 * kShake128Rate + 1; ++len) {
        SCOPED_TRACE("length " + std::to_string(len));
        const auto a256 = sha3_256({msg});
        EXPECT_EQ(Bytes(a256.begin(), a256.end()), openssl_digest(EVP_sha3_256(), msg, 32, false));
        const auto a512 = sha3_512({msg});
        EXPECT_EQ(Bytes(a512.begin(), a512.end()), openssl_digest(EVP_sha3_512(), msg, 64, false));
        // The message in two parts, and 500 bytes of output squeezed in uneven steps.
        const std::size_t split = len / 3;
        Shake128 x128;
        Shake256 x256;
        x128.absorb(std::span(msg).first(split));
        x128.absorb(std::span(msg).subspan(split));
        x256.absorb(std::span(msg).first(split));
        x256.absorb(std::span(msg).subspan(split));
        Bytes out128(500), out256(500);
        for (std::size_t at = 0, step = 1; at < out128.size(); at += step, step = step * 3 % 173 + 1) {
            const std::size_t n = std::min(step, out128.size() - at);
            x128.squeeze(std::span(out128).subspan(at, n));
            x256.squeeze(std::span(out256).subspan(at, n));
        }
        EXPECT_EQ(out128, openssl_digest(EVP_shake128(), msg, 500, true));
        EXPECT_EQ(out256, openssl_digest(EVP_shake256(), msg, 500, true));
        msg.push_back(static_cast<std::uint8_t>(len * 7 + 3));
    }
}

}  // namespace
}  // namespace warp::formats::pq
