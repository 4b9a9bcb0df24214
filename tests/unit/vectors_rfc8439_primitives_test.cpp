// RFC 8439's primitive examples (block function, keystream, Poly1305, one-time key
// generation) against the scalar primitives the backends are built from. The file's AEAD
// examples run through every backend in vectors_aead_test.cpp.
#include <gtest/gtest.h>

#include <array>
#include <string>
#include <vector>

#include "engine/scalar/chacha/chacha20.hpp"
#include "engine/scalar/chacha/poly1305.hpp"
#include "tests/support/report.hpp"
#include "tests/support/vectors.hpp"

namespace warp::test {
namespace {

constexpr std::string_view kRfc8439File = "rfc8439/rfc8439_test_vectors.json";

// ---- RFC 8439 primitives through the scalar code (warp::scalar, engine/scalar/chacha/).

class Rfc8439Primitives : public ::testing::Test {
protected:
    static const Rfc8439Vectors& vectors() {
        static const Rfc8439Vectors v = read_rfc8439(vector_path(kRfc8439File));
        return v;
    }

    // One report line per primitive array, so the test output names its counts too.
    static void report(std::string_view array, std::size_t cases, std::size_t passed) {
        const std::size_t failed = cases - passed;
        write_report("vectors", "scalar__rfc8439_" + std::string(array),
                     "scalar  " + std::string(kRfc8439File) + " (" + std::string(array) + ")  " +
                         std::to_string(cases) + " cases: " + std::to_string(passed) +
                         " passed, " + std::to_string(failed) + " mismatches");
    }
};


TEST_F(Rfc8439Primitives, ChaCha20Block) {
    const auto& cases = vectors().chacha20_block;
    ASSERT_EQ(cases.size(), 6u);
    std::size_t passed = 0;
    for (const ChaCha20BlockCase& c : cases) {
        std::array<std::uint8_t, scalar::kChaCha20BlockSize> block{};
        scalar::chacha20_block(c.key.data(), c.counter, c.nonce.data(), block.data());
        EXPECT_EQ(to_hex(block), to_hex(c.keystream)) << c.file << " " << c.id;
        passed += to_hex(block) == to_hex(c.keystream);
    }
    report("chacha20_block", cases.size(), passed);
}

TEST_F(Rfc8439Primitives, ChaCha20Encrypt) {
    const auto& cases = vectors().chacha20_encrypt;
    ASSERT_EQ(cases.size(), 4u);
    std::size_t passed = 0;
    for (const ChaCha20EncryptCase& c : cases) {
        Bytes out(c.pt.size());
        scalar::chacha20_xor(c.key.data(), c.counter, c.nonce.data(), c.pt.data(), out.data(),
                             out.size());
        EXPECT_EQ(to_hex(out), to_hex(c.ct)) << c.file << " " << c.id << " (encrypt)";
        const bool encrypted = to_hex(out) == to_hex(c.ct);
        // The same keystream decrypts, in place.
        scalar::chacha20_xor(c.key.data(), c.counter, c.nonce.data(), out.data(), out.data(),
                             out.size());
        EXPECT_EQ(to_hex(out), to_hex(c.pt)) << c.file << " " << c.id << " (decrypt in place)";
        passed += encrypted && to_hex(out) == to_hex(c.pt);
    }
    report("chacha20_encrypt", cases.size(), passed);
}

TEST_F(Rfc8439Primitives, Poly1305) {
    const auto& cases = vectors().poly1305;
    ASSERT_EQ(cases.size(), 12u);
    std::size_t passed = 0;
    for (const Poly1305Case& c : cases) {
        std::array<std::uint8_t, scalar::kPoly1305TagSize> tag{};
        scalar::poly1305_mac(c.key.data(), c.msg.data(), c.msg.size(), tag.data());
        EXPECT_EQ(to_hex(tag), to_hex(c.tag)) << c.file << " " << c.id;
        bool all_agree = to_hex(tag) == to_hex(c.tag);

        // Fed in uneven pieces, the incremental interface must agree.
        for (std::size_t piece : {1u, 7u, 16u, 17u}) {
            scalar::Poly1305State state;
            scalar::poly1305_init(state, c.key.data());
            for (std::size_t at = 0; at < c.msg.size(); at += piece)
                scalar::poly1305_update(state, c.msg.data() + at,
                                        std::min(piece, c.msg.size() - at));
            std::array<std::uint8_t, scalar::kPoly1305TagSize> pieced{};
            scalar::poly1305_finish(state, pieced.data());
            EXPECT_EQ(to_hex(pieced), to_hex(c.tag)) << c.file << " " << c.id << " in pieces of "
                                                    << piece;
            all_agree = all_agree && to_hex(pieced) == to_hex(c.tag);
        }
        passed += all_agree;
    }
    report("poly1305", cases.size(), passed);
}

TEST_F(Rfc8439Primitives, Poly1305KeyGeneration) {
    // RFC 8439 2.6: the one-time key is the first 32 bytes of the block with counter 0.
    const auto& cases = vectors().poly1305_key_gen;
    ASSERT_EQ(cases.size(), 4u);
    std::size_t passed = 0;
    for (const Poly1305KeyGenCase& c : cases) {
        std::array<std::uint8_t, scalar::kChaCha20BlockSize> block{};
        scalar::chacha20_block(c.key.data(), 0, c.nonce.data(), block.data());
        const std::string otk = to_hex(std::span(block).first(scalar::kPoly1305KeySize));
        EXPECT_EQ(otk, to_hex(c.otk)) << c.file << " " << c.id;
        passed += otk == to_hex(c.otk);
    }
    report("poly1305_key_gen", cases.size(), passed);
}

}  // namespace
}  // namespace warp::test
