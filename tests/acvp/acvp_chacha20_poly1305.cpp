// CHACHA20-POLY1305 1.0: a warpcrypt-defined vector set in the ACVP shape (NIST publishes
// none), with RFC 8439's field names; README.md documents it. Groups fix keyLen 256,
// nonceLen 96 and tagLen 128 (RFC 8439 section 2.8).
#include "tests/acvp/acvp_aead.hpp"
#include "tests/acvp/acvp_algorithms.hpp"

namespace warp::acvp {
namespace {

constexpr std::int64_t kKeyBits = 256;
constexpr std::int64_t kNonceBits = 96;
constexpr std::int64_t kTagBits = 128;

struct ChaChaGroup {
    Direction direction;
    std::int64_t payload_bits, aad_bits;
};

void require(const Json& group, std::string_view name, std::int64_t value) {
    if (integer_field(group, name) != value)
        malformed(std::string(name) + " must be " + std::to_string(value));
}

ChaChaGroup read_group(const Json& group) {
    const std::string type = string_field(group, "testType");
    if (type != "AFT")
        malformed("testType '" + type + "' is not supported for CHACHA20-POLY1305 (AFT)");
    require(group, "keyLen", kKeyBits);
    require(group, "nonceLen", kNonceBits);
    require(group, "tagLen", kTagBits);
    return {direction_field(group), integer_field(group, "payloadLen"),
            integer_field(group, "aadLen")};
}

Json answer_test(const Json& test, const AeadImpl& chacha, const ChaChaGroup& g) {
    const bool encrypt = g.direction == Direction::encrypt;
    AeadTestInputs inputs{hex_field_bits(test, "key", kKeyBits),
                          hex_field_bits(test, "nonce", kNonceBits),
                          hex_field_bits(test, "aad", g.aad_bits),
                          hex_field_bits(test, encrypt ? "pt" : "ct", g.payload_bits),
                          {}};
    if (!encrypt) inputs.tag = hex_field_bits(test, "tag", kTagBits);
    Json answer = answer_for(test);
    answer_aead(answer, chacha, g.direction, inputs, kTagBits / 8);
    return answer;
}

}  // namespace

Json answer_chacha20_poly1305_group(const Json& group, const GroupContext& context) {
    const ChaChaGroup g = read_group(group);
    return answer_each_test(group, [&](const Json& test) {
        return answer_test(test, *context.backend.chacha20_poly1305, g);
    });
}

}  // namespace warp::acvp
