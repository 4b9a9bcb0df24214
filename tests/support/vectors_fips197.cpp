// Reader for the FIPS-197 example vectors (acvp/fips197_appendix_c.json; README section 2):
// tests[] of single-block AES cases with keyLen in bits.
#include "engine/block_cipher.hpp"
#include "tests/support/vectors.hpp"
#include "tests/support/vectors_internal.hpp"

namespace warp::test {

std::vector<AesBlockCase> read_fips197(const std::filesystem::path& path) {
    using namespace vectors_internal;
    const nlohmann::json doc = parse_json(path);
    const std::string file = vector_file_name(path);
    const nlohmann::json& tests = array_member(doc, "tests", JsonContext{file, "top level"});

    std::vector<AesBlockCase> cases;
    for (std::size_t i = 0; i < tests.size(); ++i) {
        JsonContext at{file, "tests[" + std::to_string(i) + "]"};
        AesBlockCase c;
        c.file = file;
        c.id = string_member(tests[i], "id", at);
        at.where += " (" + c.id + ")";
        const std::uint64_t key_bits = uint_member(tests[i], "keyLen", at);
        if (key_bits != 128 && key_bits != 192 && key_bits != 256)
            malformed(file, at.where, "keyLen " + std::to_string(key_bits) + " is not an AES key");
        c.key = hex_member(tests[i], "key", at);
        expect_size(c.key, key_bits / 8, "key", at);
        c.pt = hex_member(tests[i], "pt", at);
        expect_size(c.pt, kAesBlockSize, "pt", at);
        c.ct = hex_member(tests[i], "ct", at);
        expect_size(c.ct, kAesBlockSize, "ct", at);
        cases.push_back(std::move(c));
    }
    return cases;
}

}  // namespace warp::test
