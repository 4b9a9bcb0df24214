// ChaCha20-Poly1305 vectors. The AEAD files (Wycheproof's chacha20_poly1305_test.json and
// RFC 8439's AEAD examples) run through every usable backend, one test per file and backend,
// each writing its counts to test-reports/vectors/. The RFC 8439 primitive examples (block
// function, keystream, Poly1305, one-time key generation) check the scalar primitives the
// backends are built from. XChaCha20-Poly1305 is not implemented, so its Wycheproof file is
// not read.
#include <gtest/gtest.h>

#include <array>
#include <string>
#include <vector>

#include "engine/registry.hpp"
#include "engine/scalar/chacha/chacha20.hpp"
#include "engine/scalar/chacha/poly1305.hpp"
#include "tests/support/report.hpp"
#include "tests/support/vectors.hpp"

namespace warp::test {
namespace {

constexpr std::string_view kRfc8439File = "rfc8439/rfc8439_test_vectors.json";

enum class ChaChaFormat { wycheproof, rfc8439 };

// What each file must hold (README sections 3 and 4).
struct ChaChaFileSpec {
    std::string_view file;
    ChaChaFormat format;
    std::size_t valid;
    std::size_t invalid;
};

constexpr ChaChaFileSpec kChaChaFiles[] = {
    // 9 of the 69 invalid cases have nonces other than 12 bytes, which AeadKey refuses.
    {"wycheproof/chacha20_poly1305_test.json", ChaChaFormat::wycheproof, 256, 69},
    {kRfc8439File, ChaChaFormat::rfc8439, 2, 0},  // the aead_chacha20_poly1305 array
};

struct ChaChaParam {
    const Backend* backend;
    ChaChaFileSpec file;
};

void PrintTo(const ChaChaParam& p, std::ostream* os) { *os << p.backend->name << " " << p.file.file; }

std::vector<ChaChaParam> chacha_params() {
    std::vector<ChaChaParam> params;
    for (const Backend* backend : usable_backends())
        if (backend->chacha20_poly1305 != nullptr)
            for (const ChaChaFileSpec& file : kChaChaFiles) params.push_back({backend, file});
    return params;
}

std::vector<AeadCase> load(const ChaChaFileSpec& f) {
    const auto path = vector_path(f.file);
    if (f.format == ChaChaFormat::rfc8439) return read_rfc8439(path).aead_chacha20_poly1305;
    return read_wycheproof_aead(path).cases;
}

class ChaChaFile : public ::testing::TestWithParam<ChaChaParam> {};

TEST_P(ChaChaFile, AllCases) {
    const Backend& backend = *GetParam().backend;
    const auto& f = GetParam().file;
    const std::vector<AeadCase> cases = load(f);
    ASSERT_EQ(cases.size(), f.valid + f.invalid) << f.file;

    AeadFileTally tally;
    for (const AeadCase& c : cases) tally.add(c, check_aead_case(*backend.chacha20_poly1305, c));
    write_report("vectors", std::string(backend.name) + "__" + std::string(f.file),
                 tally.report_line(backend.name, f.file));

    EXPECT_EQ(tally.mismatches, 0u);
    constexpr std::size_t kShown = 20;
    for (std::size_t i = 0; i < tally.mismatch_details.size() && i < kShown; ++i)
        ADD_FAILURE() << backend.name << ": " << tally.mismatch_details[i];
    EXPECT_EQ(tally.opened, f.valid);
    EXPECT_EQ(tally.rejected, f.invalid);
}

INSTANTIATE_TEST_SUITE_P(Vectors, ChaChaFile, ::testing::ValuesIn(chacha_params()),
                         [](const ::testing::TestParamInfo<ChaChaParam>& p) {
                             return param_name(p.param.backend->name, p.param.file.file);
                         });

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
