// AEAD vector files through every backend under test (docs/design.md, "tests/ and scripts/": "every
// backend runs every vector"; tests/support/backends_under_test.hpp: the usable ones and the CUDA
// emulator): the six NIST CAVP GCM .rsp files, Wycheproof's AES-GCM and ChaCha20-Poly1305 files,
// and RFC 8439's AEAD examples. Each file and backend is one test, e.g.
// Vectors/AeadFile.AllCases/scalar_gcmDecrypt128_rsp, that writes its counts to
// test-reports/vectors/<backend>__<file>.txt. XChaCha20-Poly1305 is not implemented, so its
// Wycheproof file is not read.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/registry.hpp"
#include "tests/support/backends_under_test.hpp"
#include "tests/support/report.hpp"
#include "tests/support/vectors.hpp"

namespace warp::test {
namespace {

enum class FileFormat { cavp, wycheproof, rfc8439 };

// What each file must hold (vectors README sections 3 to 5), so a reader that reads nothing
// fails.
struct AeadFileSpec {
    std::string_view file;
    FileFormat format;
    Aead aead;
    std::size_t valid;
    std::size_t invalid;
};

constexpr AeadFileSpec kAeadFiles[] = {
    {"cavp-gcm/gcmEncryptExtIV128.rsp", FileFormat::cavp, Aead::aes_gcm, 1875, 0},
    {"cavp-gcm/gcmEncryptExtIV192.rsp", FileFormat::cavp, Aead::aes_gcm, 1875, 0},
    {"cavp-gcm/gcmEncryptExtIV256.rsp", FileFormat::cavp, Aead::aes_gcm, 1875, 0},
    {"cavp-gcm/gcmDecrypt128.rsp", FileFormat::cavp, Aead::aes_gcm, 896, 979},
    {"cavp-gcm/gcmDecrypt192.rsp", FileFormat::cavp, Aead::aes_gcm, 940, 935},
    {"cavp-gcm/gcmDecrypt256.rsp", FileFormat::cavp, Aead::aes_gcm, 923, 952},
    // 6 of the 87 invalid cases have a 0-byte IV, which AeadKey refuses.
    {"wycheproof/aes_gcm_test.json", FileFormat::wycheproof, Aead::aes_gcm, 229, 87},
    // 9 of the 69 invalid cases have nonces other than 12 bytes, which AeadKey refuses.
    {"wycheproof/chacha20_poly1305_test.json", FileFormat::wycheproof, Aead::chacha20_poly1305,
     256, 69},
    // The aead_chacha20_poly1305 array.
    {"rfc8439/rfc8439_test_vectors.json", FileFormat::rfc8439, Aead::chacha20_poly1305, 2, 0},
};

struct AeadParam {
    const Backend* backend;
    AeadFileSpec file;
};

void PrintTo(const AeadParam& p, std::ostream* os) { *os << p.backend->name << " " << p.file.file; }

std::vector<AeadParam> aead_params() {
    std::vector<AeadParam> params;
    for (const Backend* backend : backends_under_test())
        for (const AeadFileSpec& file : kAeadFiles)
            if (backend->aead(file.aead) != nullptr) params.push_back({backend, file});
    return params;
}

std::vector<AeadCase> load(const AeadFileSpec& f) {
    const auto path = vector_path(f.file);
    switch (f.format) {
        case FileFormat::cavp: return read_cavp_gcm(path);
        case FileFormat::wycheproof: return read_wycheproof_aead(path).cases;
        case FileFormat::rfc8439: return read_rfc8439(path).aead_chacha20_poly1305;
    }
    return {};
}

class AeadFile : public ::testing::TestWithParam<AeadParam> {};

TEST_P(AeadFile, AllCases) {
    const Backend& backend = *GetParam().backend;
    const auto& f = GetParam().file;
    const std::vector<AeadCase> cases = load(f);
    ASSERT_EQ(cases.size(), f.valid + f.invalid) << f.file;

    AeadFileTally tally;
    for (const AeadCase& c : cases) tally.add(c, check_aead_case(*backend.aead(f.aead), c));
    write_report("vectors", std::string(backend.name) + "__" + std::string(f.file),
                 tally.report_line(backend.name, f.file));

    EXPECT_EQ(tally.mismatches, 0u);
    constexpr std::size_t kShown = 20;  // enough to see a pattern without drowning the log
    for (std::size_t i = 0; i < tally.mismatch_details.size() && i < kShown; ++i)
        ADD_FAILURE() << backend.name << ": " << tally.mismatch_details[i];
    EXPECT_EQ(tally.opened, f.valid);
    EXPECT_EQ(tally.rejected, f.invalid);
}

INSTANTIATE_TEST_SUITE_P(Vectors, AeadFile, ::testing::ValuesIn(aead_params()),
                         [](const ::testing::TestParamInfo<AeadParam>& p) {
                             return param_name(p.param.backend->name, p.param.file.file);
                         });

}  // namespace
}  // namespace warp::test
