// FIPS-197 example vectors (Appendix C.1-C.3 and the Appendix B example) through the raw AES table
// of every backend under test (backends_under_test.hpp), encrypting and decrypting, out of place
// and in place.
#include <gtest/gtest.h>

#include <array>
#include <string>
#include <vector>

#include "engine/aead_key.hpp"
#include "engine/registry.hpp"
#include "tests/support/backends_under_test.hpp"
#include "tests/support/report.hpp"
#include "tests/support/vectors.hpp"

namespace warp::test {
namespace {

constexpr std::string_view kFips197File = "acvp/fips197_appendix_c.json";
constexpr std::size_t kFips197Cases = 4;

struct AesParam {
    const Backend* backend;
};

void PrintTo(const AesParam& p, std::ostream* os) { *os << p.backend->name; }

std::vector<AesParam> aes_params() {
    std::vector<AesParam> list;
    for (const Backend* backend : backends_under_test())
        if (backend->aes != nullptr) list.push_back({backend});
    return list;
}

class AesFile : public ::testing::TestWithParam<AesParam> {};

TEST_P(AesFile, Fips197) {
    const Backend& backend = *GetParam().backend;
    const std::vector<AesBlockCase> cases = read_fips197(vector_path(kFips197File));
    ASSERT_EQ(cases.size(), kFips197Cases);

    std::size_t passed = 0;
    for (const AesBlockCase& c : cases) {
        SCOPED_TRACE(c.file + " " + c.id);
        const BlockCipherKey key(*backend.aes, c.key);
        std::array<std::uint8_t, kAesBlockSize> out{};
        key.encrypt(c.pt.data(), out.data(), 1);
        const bool encrypted = to_hex(out) == to_hex(c.ct);
        EXPECT_EQ(to_hex(out), to_hex(c.ct)) << "encrypt";
        key.decrypt(out.data(), out.data(), 1);  // in place
        const bool decrypted = to_hex(out) == to_hex(c.pt);
        EXPECT_EQ(to_hex(out), to_hex(c.pt)) << "decrypt in place";
        if (encrypted && decrypted) ++passed;
    }
    write_report("vectors", std::string(backend.name) + "__" + std::string(kFips197File),
                 std::string(backend.name) + "  " + std::string(kFips197File) + "  " +
                     std::to_string(cases.size()) + " cases: " + std::to_string(passed) +
                     " encrypted and decrypted, " + std::to_string(cases.size() - passed) +
                     " mismatches");
}

INSTANTIATE_TEST_SUITE_P(Vectors, AesFile, ::testing::ValuesIn(aes_params()),
                         [](const ::testing::TestParamInfo<AesParam>& p) {
                             return param_name(p.param.backend->name, kFips197File);
                         });

}  // namespace
}  // namespace warp::test
