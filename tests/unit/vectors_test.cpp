// The vector loader itself (tests/support/vectors*.cpp): every file of tests/vectors reads to
// the number of cases its README gives, malformed files are refused with the file and line or
// case named, so no reader can pass a test by reading nothing, and the case checker catches
// broken backends. The backend tests are in vectors_aead_test.cpp and vectors_aes_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <functional>
#include <unistd.h>
#include <string>

#include "engine/error.hpp"
#include "engine/scalar/scalar.hpp"
#include "tests/support/report.hpp"
#include "tests/support/vectors.hpp"

namespace warp::test {
namespace {

std::size_t count_expecting(const std::vector<AeadCase>& cases, Expectation e) {
    return static_cast<std::size_t>(
        std::count_if(cases.begin(), cases.end(), [e](const AeadCase& c) { return c.expect == e; }));
}

struct CavpCounts {
    const char* file;
    std::size_t valid;
    std::size_t invalid;
};

TEST(VectorLoader, CavpFilesHaveTheReadmeCounts) {
    constexpr CavpCounts kFiles[] = {
        {"cavp-gcm/gcmEncryptExtIV128.rsp", 1875, 0}, {"cavp-gcm/gcmEncryptExtIV192.rsp", 1875, 0},
        {"cavp-gcm/gcmEncryptExtIV256.rsp", 1875, 0}, {"cavp-gcm/gcmDecrypt128.rsp", 896, 979},
        {"cavp-gcm/gcmDecrypt192.rsp", 940, 935},     {"cavp-gcm/gcmDecrypt256.rsp", 923, 952},
    };
    for (const CavpCounts& f : kFiles) {
        SCOPED_TRACE(f.file);
        const auto cases = read_cavp_gcm(vector_path(f.file));
        EXPECT_EQ(cases.size(), 1875u);
        EXPECT_EQ(count_expecting(cases, Expectation::valid), f.valid);
        EXPECT_EQ(count_expecting(cases, Expectation::invalid), f.invalid);
        for (const AeadCase& c : cases) {
            ASSERT_EQ(c.file, f.file);
            // A FAIL case has no plaintext; every other case has one.
            ASSERT_EQ(c.pt.has_value(), c.expect == Expectation::valid) << c.id;
        }
    }
}

TEST(VectorLoader, CavpFirstCaseIsReadFieldByField) {
    const auto cases = read_cavp_gcm(vector_path("cavp-gcm/gcmDecrypt128.rsp"));
    ASSERT_GE(cases.size(), 2u);
    EXPECT_EQ(cases[0].id, "line 13, Count = 0");
    EXPECT_EQ(to_hex(cases[0].key), "cf063a34d4a9a76c2c86787d3f96db71");
    EXPECT_EQ(to_hex(cases[0].nonce), "113b9785971864c83b01c787");
    EXPECT_EQ(to_hex(cases[0].tag), "72ac8493e3a5228b5d130a69d2510e42");
    EXPECT_TRUE(cases[0].ct.empty());
    EXPECT_TRUE(cases[0].aad.empty());
    ASSERT_TRUE(cases[0].pt.has_value());
    EXPECT_TRUE(cases[0].pt->empty());
    EXPECT_EQ(cases[1].expect, Expectation::invalid);  // Count = 1 is a FAIL case
}

TEST(VectorLoader, WycheproofFilesHaveTheReadmeCounts) {
    const auto gcm = read_wycheproof_aead(vector_path("wycheproof/aes_gcm_test.json"));
    EXPECT_EQ(gcm.algorithm, "AES-GCM");
    EXPECT_EQ(gcm.cases.size(), 316u);
    EXPECT_EQ(count_expecting(gcm.cases, Expectation::valid), 229u);
    EXPECT_EQ(count_expecting(gcm.cases, Expectation::invalid), 87u);

    const auto chacha = read_wycheproof_aead(vector_path("wycheproof/chacha20_poly1305_test.json"));
    EXPECT_EQ(chacha.algorithm, "CHACHA20-POLY1305");
    EXPECT_EQ(chacha.cases.size(), 325u);
    EXPECT_EQ(count_expecting(chacha.cases, Expectation::valid), 256u);
    EXPECT_EQ(count_expecting(chacha.cases, Expectation::invalid), 69u);
    EXPECT_EQ(chacha.cases.front().id, "tcId 1");
}

TEST(VectorLoader, Rfc8439ArraysHaveTheReadmeCounts) {
    const auto v = read_rfc8439(vector_path("rfc8439/rfc8439_test_vectors.json"));
    EXPECT_EQ(v.chacha20_block.size(), 6u);
    EXPECT_EQ(v.chacha20_encrypt.size(), 4u);
    EXPECT_EQ(v.poly1305.size(), 12u);
    EXPECT_EQ(v.poly1305_key_gen.size(), 4u);
    EXPECT_EQ(v.aead_chacha20_poly1305.size(), 2u);
    ASSERT_FALSE(v.chacha20_block.empty());
    EXPECT_EQ(v.chacha20_block[0].id, "RFC8439 2.3.2");
    EXPECT_EQ(v.chacha20_block[0].counter, 1u);
    EXPECT_EQ(v.chacha20_block[0].file, "rfc8439/rfc8439_test_vectors.json");
}

TEST(VectorLoader, Fips197HasFourCases) {
    const auto cases = read_fips197(vector_path("acvp/fips197_appendix_c.json"));
    ASSERT_EQ(cases.size(), 4u);
    EXPECT_EQ(cases[1].key.size(), 24u);
    EXPECT_EQ(to_hex(cases[0].ct), "69c4e0d86a7b0430d8cdb78070b4c55a");
}

// ---- Malformed files: each must throw Error(bad_input) naming the file and the place.

class MalformedVectorFile : public ::testing::Test {
protected:
    std::filesystem::path write(std::string_view name, std::string_view text) {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        dir_ = std::filesystem::temp_directory_path() /
               ("warpcrypt-vectors-" + std::to_string(::getpid()) + "-" + info->name());
        std::filesystem::create_directories(dir_);
        const auto path = dir_ / name;
        std::ofstream(path, std::ios::binary) << text;
        return path;
    }
    void TearDown() override {
        std::error_code ec;
        if (!dir_.empty()) std::filesystem::remove_all(dir_, ec);
    }

    // Expects read() to throw bad_input with every one of `needles` in its message.
    static void expect_bad_input(const std::function<void()>& read,
                                 std::initializer_list<std::string_view> needles) {
        try {
            read();
            ADD_FAILURE() << "a malformed file was accepted";
        } catch (const Error& e) {
            EXPECT_EQ(e.cause(), ErrorCause::bad_input) << e.what();
            for (std::string_view needle : needles)
                EXPECT_NE(std::string(e.what()).find(needle), std::string::npos)
                    << "'" << needle << "' not in: " << e.what();
        }
    }

    std::filesystem::path dir_;
};

constexpr std::string_view kRspHeader =
    "# CAVS 14.0\n[Keylen = 128]\n[IVlen = 96]\n[PTlen = 0]\n[AADlen = 0]\n[Taglen = 32]\n\n";
constexpr std::string_view kRspCase =
    "Count = 0\nKey = 11754cd72aec309bf52f7687212e8957\nIV = 3c819d9a9bed087615030b65\n"
    "PT = \nAAD = \nCT = \nTag = 250327c6\n";

TEST_F(MalformedVectorFile, CavpWellFormedWithLfReads) {
    const auto path = write("ok.rsp", std::string(kRspHeader) + std::string(kRspCase));
    const auto cases = read_cavp_gcm(path);
    ASSERT_EQ(cases.size(), 1u);
    EXPECT_EQ(cases[0].tag.size(), 4u);
    EXPECT_EQ(cases[0].id, "line 8, Count = 0");
}

TEST_F(MalformedVectorFile, CavpBadHexNamesTheLine) {
    std::string text = std::string(kRspHeader) + std::string(kRspCase);
    text.replace(text.find("Tag = 250327c6"), 14, "Tag = 25g327c6");
    const auto path = write("bad-hex.rsp", text);
    expect_bad_input([&] { read_cavp_gcm(path); }, {"bad-hex.rsp", "line 14", "Tag"});
}

TEST_F(MalformedVectorFile, CavpLengthAgainstHeaderNamesTheCase) {
    std::string text = std::string(kRspHeader) + std::string(kRspCase);
    text.replace(text.find("Tag = 250327c6"), 14, "Tag = 250327");
    const auto path = write("short-tag.rsp", text);
    expect_bad_input([&] { read_cavp_gcm(path); }, {"short-tag.rsp", "line 8, Count = 0", "Taglen"});
}

TEST_F(MalformedVectorFile, CavpMissingFieldIsRefused) {
    std::string text = std::string(kRspHeader) + std::string(kRspCase);
    text.erase(text.find("AAD = \n"), 7);
    const auto path = write("no-aad.rsp", text);
    expect_bad_input([&] { read_cavp_gcm(path); }, {"no-aad.rsp", "has no AAD"});
}

TEST_F(MalformedVectorFile, CavpBothPtAndFailIsRefused) {
    const auto path =
        write("pt-and-fail.rsp", std::string(kRspHeader) + std::string(kRspCase) + "FAIL\n");
    expect_bad_input([&] { read_cavp_gcm(path); }, {"pt-and-fail.rsp", "exactly one of PT and FAIL"});
}

TEST_F(MalformedVectorFile, CavpCaseBeforeHeaderIsRefused) {
    const auto path = write("no-header.rsp", std::string(kRspCase));
    expect_bad_input([&] { read_cavp_gcm(path); }, {"no-header.rsp", "line 1", "Keylen"});
}

TEST_F(MalformedVectorFile, CavpUnknownLineIsRefused) {
    const auto path = write("junk.rsp", std::string(kRspHeader) + "what is this\n");
    expect_bad_input([&] { read_cavp_gcm(path); }, {"junk.rsp", "line 8", "unexpected line"});
}

TEST_F(MalformedVectorFile, JsonSyntaxErrorNamesTheLine) {
    const auto path = write("broken.json", "{\n  \"algorithm\": \"AES-GCM\",\n  oops\n}\n");
    expect_bad_input([&] { read_wycheproof_aead(path); }, {"broken.json", "line 3"});
}

TEST_F(MalformedVectorFile, WycheproofCountMismatchIsRefused) {
    const auto path = write("count.json", R"({"algorithm": "AES-GCM", "numberOfTests": 2,
        "testGroups": [{"type": "AeadTest", "keySize": 128, "ivSize": 96, "tagSize": 128,
        "tests": [{"tcId": 1, "comment": "", "flags": [], "key": "5b9604fe14eadba931b0ccf34843dab9",
        "iv": "028318abc1824029138141a2", "aad": "", "msg": "", "ct": "",
        "tag": "0a3ea7a5487cb5f7d70fb6c58d038554", "result": "valid"}]}]})");
    expect_bad_input([&] { read_wycheproof_aead(path); }, {"count.json", "numberOfTests says 2"});
}

TEST_F(MalformedVectorFile, WycheproofMissingFieldNamesTheCase) {
    const auto path = write("missing.json", R"({"algorithm": "AES-GCM", "numberOfTests": 1,
        "testGroups": [{"type": "AeadTest", "keySize": 128, "ivSize": 96, "tagSize": 128,
        "tests": [{"tcId": 7, "comment": "", "flags": [], "key": "5b9604fe14eadba931b0ccf34843dab9",
        "iv": "028318abc1824029138141a2", "aad": "", "msg": "", "ct": "",
        "result": "valid"}]}]})");
    expect_bad_input([&] { read_wycheproof_aead(path); }, {"missing.json", "tcId 7", "'tag'"});
}

TEST_F(MalformedVectorFile, WycheproofValidCaseAgainstGroupSizeIsRefused) {
    const auto path = write("size.json", R"({"algorithm": "AES-GCM", "numberOfTests": 1,
        "testGroups": [{"type": "AeadTest", "keySize": 256, "ivSize": 96, "tagSize": 128,
        "tests": [{"tcId": 3, "comment": "", "flags": [], "key": "5b9604fe14eadba931b0ccf34843dab9",
        "iv": "028318abc1824029138141a2", "aad": "", "msg": "", "ct": "",
        "tag": "0a3ea7a5487cb5f7d70fb6c58d038554", "result": "valid"}]}]})");
    expect_bad_input([&] { read_wycheproof_aead(path); }, {"size.json", "tcId 3", "256 bits"});
}

TEST_F(MalformedVectorFile, Rfc8439WrongSizeNamesTheEntry) {
    const auto path = write("rfc.json", R"({"chacha20_block": [{"id": "X 1",
        "key": "00", "nonce": "000000000000000000000000", "counter": 0, "keystream": ""}],
        "chacha20_encrypt": [], "poly1305": [], "poly1305_key_gen": [],
        "aead_chacha20_poly1305": []})");
    expect_bad_input([&] { read_rfc8439(path); }, {"rfc.json", "chacha20_block[0] (X 1)", "key"});
}

TEST_F(MalformedVectorFile, Fips197BadKeyLenNamesTheEntry) {
    const auto path = write("fips.json", R"({"tests": [{"id": "odd", "keyLen": 100,
        "key": "00", "pt": "00", "ct": "00"}]})");
    expect_bad_input([&] { read_fips197(path); }, {"fips.json", "tests[0] (odd)", "keyLen 100"});
}

TEST_F(MalformedVectorFile, MissingFileIsBadInput) {
    expect_bad_input([] { read_cavp_gcm("/nonexistent/warpcrypt.rsp"); }, {"/nonexistent/warpcrypt.rsp"});
}

// ---- The per-file report (report.hpp).

TEST(Report, WritesOneLinePerNameUnderItsCategory) {
    const auto dir = std::filesystem::temp_directory_path() /
                     ("warpcrypt-report-" + std::to_string(::getpid()));
    const char* previous = std::getenv("WARPCRYPT_REPORT_DIR");
    const std::string saved = previous != nullptr ? previous : "";
    ::setenv("WARPCRYPT_REPORT_DIR", dir.c_str(), 1);

    EXPECT_EQ(report_dir(), dir);
    write_report("vectors", "scalar__cavp-gcm/x.rsp", "first");
    write_report("vectors", "scalar__cavp-gcm/x.rsp", "second line replaces the first");
    std::ifstream in(dir / "vectors" / "scalar__cavp-gcm_x.rsp.txt");
    std::string line;
    EXPECT_TRUE(std::getline(in, line));
    EXPECT_EQ(line, "second line replaces the first");
    EXPECT_FALSE(std::getline(in, line));

    if (previous != nullptr) ::setenv("WARPCRYPT_REPORT_DIR", saved.c_str(), 1);
    else ::unsetenv("WARPCRYPT_REPORT_DIR");
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
}

// ---- The case checker must fail backends that are wrong in each way a vector can show.
// Each fake wraps the scalar ChaCha20-Poly1305 and breaks one rule.

std::size_t open_accepting_everything(const void* state, std::span<const AeadChunk> chunks,
                                      std::size_t tag_len, bool* ok) {
    scalar::kChaCha20Poly1305.open(state, chunks, tag_len, ok);
    for (std::size_t i = 0; i < chunks.size(); ++i) ok[i] = true;
    return 0;
}

std::size_t open_without_zeroing(const void* state, std::span<const AeadChunk> chunks,
                                 std::size_t tag_len, bool* ok) {
    const std::size_t failures = scalar::kChaCha20Poly1305.open(state, chunks, tag_len, ok);
    for (std::size_t i = 0; i < chunks.size(); ++i)
        if (!ok[i]) std::fill_n(chunks[i].out, chunks[i].len, std::uint8_t{0x5a});
    return failures;
}

void seal_with_wrong_tag(const void* state, std::span<const AeadChunk> chunks,
                         std::size_t tag_len) {
    scalar::kChaCha20Poly1305.seal(state, chunks, tag_len);
    for (const AeadChunk& c : chunks) c.tag[0] ^= 1;
}

AeadImpl broken(decltype(AeadImpl::seal) seal, decltype(AeadImpl::open) open) {
    const AeadImpl& good = scalar::kChaCha20Poly1305;
    return AeadImpl{good.aead, good.state_size, good.init, seal ? seal : good.seal,
                    open ? open : good.open};
}

AeadFileTally run_wycheproof_chacha(const AeadImpl& impl) {
    AeadFileTally tally;
    for (const AeadCase& c :
         read_wycheproof_aead(vector_path("wycheproof/chacha20_poly1305_test.json")).cases)
        tally.add(c, check_aead_case(impl, c));
    return tally;
}

bool any_detail_has(const AeadFileTally& tally, std::string_view needle) {
    return std::any_of(tally.mismatch_details.begin(), tally.mismatch_details.end(),
                       [&](const std::string& d) { return d.find(needle) != std::string::npos; });
}

TEST(CaseChecker, TheRealBackendPasses) {
    const AeadFileTally tally = run_wycheproof_chacha(scalar::kChaCha20Poly1305);
    EXPECT_EQ(tally.mismatches, 0u);
    EXPECT_EQ(tally.report_line("scalar", "f.json"),
              "scalar  f.json  325 cases: 256 sealed and opened, 69 rejected as required "
              "(9 refused by the API), 0 mismatches");
}

TEST(CaseChecker, CatchesAnOpenThatAcceptsForgeries) {
    const AeadFileTally tally = run_wycheproof_chacha(broken(nullptr, &open_accepting_everything));
    EXPECT_EQ(tally.mismatches, 60u);  // every invalid case the API lets through to open
    EXPECT_TRUE(any_detail_has(tally, "an invalid case authenticated"));
}

// A backend may leave anything in a failed chunk's output: AeadKey::open, through which every
// caller (and the checker) opens, wipes it. This backend leaves 0x5a there, and no case shows it.
TEST(CaseChecker, AFailedChunksOutputIsWipedWhateverTheBackendLeft) {
    const AeadFileTally tally = run_wycheproof_chacha(broken(nullptr, &open_without_zeroing));
    EXPECT_EQ(tally.mismatches, 0u);
    EXPECT_FALSE(any_detail_has(tally, "not zeroed"));
}

TEST(CaseChecker, CatchesASealWithAWrongTag) {
    const AeadFileTally tally = run_wycheproof_chacha(broken(&seal_with_wrong_tag, nullptr));
    // Every valid case, plus the invalid cases whose forged tag is the true tag with its first
    // bit flipped: this broken seal produces exactly that forgery, which must be caught too.
    EXPECT_GT(tally.mismatches, 256u);
    EXPECT_TRUE(any_detail_has(tally, "seal: tag differs"));
    EXPECT_TRUE(any_detail_has(tally, "seal: produced the invalid output"));
    EXPECT_TRUE(any_detail_has(tally, "tcId 1:"));
}

}  // namespace
}  // namespace warp::test
