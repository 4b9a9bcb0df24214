// age.md's tagged recipient types for hardware keys: "-> p256tag TAG ENC" and
// "-> mlkem768p256tag TAG ENC", the body the file key sealed under HPKE
// (formats/keys/tag/tag_recipient.hpp has the construction). This build writes them; it never
// opens one natively, since the identity is in the hardware: its plugin gets every stanza
// (age-plugin.md) and opens the file.
#include <string>

#include "engine/error.hpp"
#include "formats/age/base64.hpp"
#include "formats/age/stanza_kind.hpp"
#include "formats/keys/tag/tag_recipient.hpp"

namespace warp::formats::age {
namespace {

template <const tag::TagType& type>
std::string problem(const Stanza& stanza) {
    const std::string name = "a " + std::string(type.stanza) + " stanza";
    if (stanza.args.size() != 3)
        return name + " has 2 arguments, not " + std::to_string(stanza.args.size() - 1);
    if (!argument_bytes(stanza.args[1], tag::kTagSize))
        return name + "'s tag is not canonical base64 of " + std::to_string(tag::kTagSize) +
               " bytes";
    if (!argument_bytes(stanza.args[2], type.enc_size))
        return name + "'s encapsulation is not canonical base64 of " +
               std::to_string(type.enc_size) + " bytes";
    if (stanza.body.size() != kWrappedFileKeySize)
        return name + "'s body is " + std::to_string(stanza.body.size()) + " bytes, not " +
               std::to_string(kWrappedFileKeySize);
    return "";
}

template <const tag::TagType& type>
Stanza wrap(const Secret& recipient, const FileKey& file_key, const RandomFn& random) {
    SecretBytes randomness(type.random_size);
    random(randomness.data(), randomness.size());
    tag::Wrapped wrapped = tag::wrap(type, recipient.bytes.span(), file_key, randomness.span());
    return Stanza{{std::string(type.stanza), base64_encode(wrapped.tag, false),
                   base64_encode(wrapped.enc, false)},
                  std::move(wrapped.body)};
}

// No identity of these kinds exists here (tag_recipient.hpp): the stanza is its plugin's.
Unwrapped unwrap(const Stanza&, const Secret&, FileKey&) { return Unwrapped::no_match; }

}  // namespace

const StanzaKind kTagStanza{
    .tag = tag::kClassic.stanza,
    .key_type = KeyType::p256tag,
    .secret = "hardware key's plugin identity",
    .alone = false,
    .problem = problem<tag::kClassic>,
    .kdf_memory_kib = no_kdf_memory,
    .wrap = wrap<tag::kClassic>,
    .unwrap = unwrap,
};

const StanzaKind kTagPqStanza{
    .tag = tag::kHybrid.stanza,
    .key_type = KeyType::mlkem768p256tag,
    .secret = "hardware key's plugin identity",
    .alone = false,
    .problem = problem<tag::kHybrid>,
    .kdf_memory_kib = no_kdf_memory,
    .wrap = wrap<tag::kHybrid>,
    .unwrap = unwrap,
};

}  // namespace warp::formats::age
