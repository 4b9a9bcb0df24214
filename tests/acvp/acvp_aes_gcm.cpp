// ACVP-AES-GCM 1.0, AFT with external IVs, through the backend's AES-GCM AEAD: any IV length,
// tags of tagLen bits (the leftmost bits of the full tag), whole-byte payloads and AAD.
#include "tests/acvp/acvp_aead.hpp"
#include "tests/acvp/acvp_algorithms.hpp"

namespace warp::acvp {
namespace {

// The lengths, in bits, every test of a group shares.
struct GcmGroup {
    Direction direction;
    std::int64_t key_bits, iv_bits, tag_bits, payload_bits, aad_bits;
};

GcmGroup read_group(const Json& group) {
    const std::string type = string_field(group, "testType");
    if (type != "AFT") malformed("testType '" + type + "' is not supported for AES-GCM (AFT)");
    if (has_member(group, "ivGen") && string_field(group, "ivGen") != "external")
        malformed("ivGen '" + string_field(group, "ivGen") +
                  "' is not supported for AES-GCM (external)");
    return {direction_field(group),
            integer_field(group, "keyLen"),
            integer_field(group, "ivLen"),
            integer_field(group, "tagLen"),
            integer_field(group, "payloadLen"),
            integer_field(group, "aadLen")};
}

Json answer_test(const Json& test, const AeadImpl& gcm, const GcmGroup& g) {
    const bool encrypt = g.direction == Direction::encrypt;
    AeadTestInputs inputs{hex_field_bits(test, "key", g.key_bits),
                          hex_field_bits(test, "iv", g.iv_bits),
                          hex_field_bits(test, "aad", g.aad_bits),
                          hex_field_bits(test, encrypt ? "pt" : "ct", g.payload_bits),
                          {}};
    if (!encrypt) inputs.tag = hex_field_bits(test, "tag", g.tag_bits);
    Json answer = answer_for(test);
    answer_aead(answer, gcm, g.direction, inputs, whole_bytes(g.tag_bits, "tagLen"));
    return answer;
}

}  // namespace

Json answer_aes_gcm_group(const Json& group, const GroupContext& context) {
    const GcmGroup g = read_group(group);
    return answer_each_test(group, [&](const Json& test) {
        return answer_test(test, *context.backend.aes_gcm, g);
    });
}

}  // namespace warp::acvp
