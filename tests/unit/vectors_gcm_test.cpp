// AES-GCM vectors through every usable backend (DESIGN.md: "every backend runs every
// vector"): the six NIST CAVP .rsp files and Wycheproof's aes_gcm_test.json. Each file is one
// test, e.g. Vectors/GcmFile.AllCases/scalar_gcmDecrypt128_rsp, that writes its counts to
// test-reports/vectors/<backend>__<file>.txt.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/registry.hpp"
#include "tests/support/report.hpp"
#include "tests/support/vectors.hpp"

namespace warp::test {
namespace {

enum class GcmFormat { cavp, wycheproof };

// What each file must hold (README sections 4 and 5), so a reader that reads nothing fails.
struct GcmFileSpec {
    std::string_view file;
    GcmFormat format;
    std::size_t valid;
    std::size_t invalid;
};

constexpr GcmFileSpec kGcmFiles[] = {
    {"cavp-gcm/gcmEncryptExtIV128.rsp", GcmFormat::cavp, 1875, 0},
    {"cavp-gcm/gcmEncryptExtIV192.rsp", GcmFormat::cavp, 1875, 0},
    {"cavp-gcm/gcmEncryptExtIV256.rsp", GcmFormat::cavp, 1875, 0},
    {"cavp-gcm/gcmDecrypt128.rsp", GcmFormat::cavp, 896, 979},
    {"cavp-gcm/gcmDecrypt192.rsp", GcmFormat::cavp, 940, 935},
    {"cavp-gcm/gcmDecrypt256.rsp", GcmFormat::cavp, 923, 952},
    // 6 of the 87 invalid cases have a 0-byte IV, which AeadKey refuses.
    {"wycheproof/aes_gcm_test.json", GcmFormat::wycheproof, 229, 87},
};

struct GcmParam {
    const Backend* backend;
    GcmFileSpec file;
};

std::vector<GcmParam> gcm_params() {
    std::vector<GcmParam> params;
    for (const Backend* backend : usable_backends())
        if (backend->aes_gcm != nullptr)
            for (const GcmFileSpec& file : kGcmFiles) params.push_back({backend, file});
    return params;
}

std::vector<AeadCase> load(const GcmFileSpec& f) {
    const auto path = vector_path(f.file);
    return f.format == GcmFormat::cavp ? read_cavp_gcm(path) : read_wycheproof_aead(path).cases;
}

void PrintTo(const GcmParam& p, std::ostream* os) { *os << p.backend->name << " " << p.file.file; }

class GcmFile : public ::testing::TestWithParam<GcmParam> {};

TEST_P(GcmFile, AllCases) {
    const Backend& backend = *GetParam().backend;
    const auto& f = GetParam().file;
    const std::vector<AeadCase> cases = load(f);
    ASSERT_EQ(cases.size(), f.valid + f.invalid) << f.file;

    AeadFileTally tally;
    for (const AeadCase& c : cases) tally.add(c, check_aead_case(*backend.aes_gcm, c));
    write_report("vectors", std::string(backend.name) + "__" + std::string(f.file),
                 tally.report_line(backend.name, f.file));

    EXPECT_EQ(tally.mismatches, 0u);
    constexpr std::size_t kShown = 20;  // enough to see a pattern without drowning the log
    for (std::size_t i = 0; i < tally.mismatch_details.size() && i < kShown; ++i)
        ADD_FAILURE() << backend.name << ": " << tally.mismatch_details[i];
    EXPECT_EQ(tally.opened, f.valid);
    EXPECT_EQ(tally.rejected, f.invalid);
}

INSTANTIATE_TEST_SUITE_P(Vectors, GcmFile, ::testing::ValuesIn(gcm_params()),
                         [](const ::testing::TestParamInfo<GcmParam>& p) {
                             return param_name(p.param.backend->name, p.param.file.file);
                         });

}  // namespace
}  // namespace warp::test
