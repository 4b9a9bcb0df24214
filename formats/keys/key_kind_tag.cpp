// age's tagged recipients for hardware keys, p256tag (age1tag1...) and mlkem768p256tag
// (age1tagpq1...), as key kinds (formats/keys/tag/tag_recipient.hpp). Recipients only: the
// identity is in the hardware, and its plugin opens the file (age-plugin.md), so neither kind
// has an identity form here. age files only: the warp format has no slot for them (its message
// names the kind). p256tag is classic; the hybrid is post-quantum, and mixes only with
// post-quantum recipients (age's "postquantum" label).
#include "formats/keys/key_kind.hpp"
#include "formats/keys/tag/tag_recipient.hpp"

namespace warp::formats {
namespace {

template <const tag::TagType& type, KeyType key_type>
Secret decode_recipient(std::string_view text) {
    return Secret{key_type, tag::decode_recipient(type, text), {}};
}

template <const tag::TagType& type>
std::string recipient_problem(const Secret& recipient) {
    return tag::recipient_problem(type, recipient.bytes.span());
}

}  // namespace

const KeyKind kTagKey{
    .type = KeyType::p256tag,
    .name = "p256tag",
    .secret = "hardware key's plugin identity",
    .post_quantum = false,
    .recipient_hrp = tag::kClassic.hrp,
    .identity_hrp = "",
    .decode_recipient = decode_recipient<tag::kClassic, KeyType::p256tag>,
    .decode_identity = nullptr,
    .recipient_of = nullptr,
    .recipient_problem = recipient_problem<tag::kClassic>,
};

const KeyKind kTagPqKey{
    .type = KeyType::mlkem768p256tag,
    .name = "mlkem768p256tag",
    .secret = "hardware key's plugin identity",
    .post_quantum = true,
    .recipient_hrp = tag::kHybrid.hrp,
    .identity_hrp = "",
    .decode_recipient = decode_recipient<tag::kHybrid, KeyType::mlkem768p256tag>,
    .decode_identity = nullptr,
    .recipient_of = nullptr,
    .recipient_problem = recipient_problem<tag::kHybrid>,
};

}  // namespace warp::formats
