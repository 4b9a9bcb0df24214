// Reader for Project Wycheproof AEAD files (schema aead_test_schema_v1; README section 4).
//
// Groups give keySize, ivSize and tagSize in bits; each test gives key, iv, aad, msg, ct
// (without the tag), tag and result. Invalid tests may carry sizes that contradict their group
// on purpose (a ChaCha test with a 64-bit nonce and an empty tag, say), so only the sizes of
// valid and acceptable tests are held to the group.
#include "tests/support/vectors.hpp"
#include "tests/support/vectors_internal.hpp"

namespace warp::test {
namespace {

using vectors_internal::array_member;
using vectors_internal::hex_member;
using vectors_internal::JsonContext;
using vectors_internal::malformed;
using vectors_internal::string_member;
using vectors_internal::uint_member;

Expectation parse_result(const std::string& result, const JsonContext& at) {
    if (result == "valid") return Expectation::valid;
    if (result == "invalid") return Expectation::invalid;
    if (result == "acceptable") return Expectation::acceptable;
    malformed(at.file, at.where, "unknown result '" + result + "'");
}

void expect_bits(const Bytes& bytes, std::uint64_t bits, std::string_view field,
                 const JsonContext& at) {
    if (bits % 8 != 0 || bytes.size() != bits / 8)
        malformed(at.file, at.where,
                  std::string(field) + " has " + std::to_string(bytes.size()) +
                      " bytes, the group says " + std::to_string(bits) + " bits");
}

AeadCase read_test(const nlohmann::json& test, const nlohmann::json& group,
                   const JsonContext& group_at) {
    JsonContext at{group_at.file, group_at.where};
    const auto tc_id = uint_member(test, "tcId", at);
    at.where = "tcId " + std::to_string(tc_id);

    AeadCase c;
    c.file = std::string(at.file);
    c.id = at.where;
    c.key = hex_member(test, "key", at);
    c.nonce = hex_member(test, "iv", at);
    c.aad = hex_member(test, "aad", at);
    c.pt = hex_member(test, "msg", at);
    c.ct = hex_member(test, "ct", at);
    c.tag = hex_member(test, "tag", at);
    c.expect = parse_result(string_member(test, "result", at), at);
    c.comment = string_member(test, "comment", at);
    for (const nlohmann::json& flag : array_member(test, "flags", at)) {
        if (!flag.is_string()) malformed(at.file, at.where, "a flag is not a string");
        c.flags.push_back(flag.get<std::string>());
    }

    expect_bits(c.key, uint_member(group, "keySize", group_at), "key", at);
    expect_bits(c.nonce, uint_member(group, "ivSize", group_at), "iv", at);
    if (c.expect != Expectation::invalid) {
        expect_bits(c.tag, uint_member(group, "tagSize", group_at), "tag", at);
        if (c.ct.size() != c.pt->size())
            malformed(at.file, at.where, "ct and msg differ in length");
    }
    return c;
}

}  // namespace

WycheproofAeadFile read_wycheproof_aead(const std::filesystem::path& path) {
    const nlohmann::json doc = vectors_internal::parse_json(path);
    const std::string file = vector_file_name(path);
    const JsonContext top{file, "top level"};

    WycheproofAeadFile result;
    result.algorithm = string_member(doc, "algorithm", top);
    const std::uint64_t declared = uint_member(doc, "numberOfTests", top);
    const nlohmann::json& groups = array_member(doc, "testGroups", top);
    for (std::size_t g = 0; g < groups.size(); ++g) {
        const JsonContext group_at{file, "testGroups[" + std::to_string(g) + "]"};
        const std::string type = string_member(groups[g], "type", group_at);
        if (type != "AeadTest") malformed(file, group_at.where, "group type '" + type + "'");
        for (const nlohmann::json& test : array_member(groups[g], "tests", group_at))
            result.cases.push_back(read_test(test, groups[g], group_at));
    }
    if (result.cases.size() != declared)
        malformed(file, top.where,
                  "numberOfTests says " + std::to_string(declared) + ", the groups hold " +
                      std::to_string(result.cases.size()));
    return result;
}

}  // namespace warp::test
