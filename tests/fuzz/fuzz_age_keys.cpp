// fuzz-age-keys: the readers of X25519 keys in age's encoding (formats/keys/x25519.hpp, and
// under them formats/keys/bech32.hpp) on arbitrary bytes: each input as an identity file, as a
// recipients file, and as a single identity and recipient.
//
// Invariants: a refusal is Error(usage) and nothing else; an accepted key encodes back to a
// key that decodes to the same bytes (and, for an identity, the same recipient).
#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "formats/keys/x25519.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace warp::fuzz {
namespace {

template <typename F>
bool refused_as_usage(F&& f) {
    try {
        f();
        return false;
    } catch (const Error& error) {
        check(error.cause() == ErrorCause::usage,
              "a key was refused with a cause other than usage");
        return true;
    }
}

void check_identity(const formats::X25519Identity& identity) {
    const std::string text = formats::encode_identity(identity.secret);
    const formats::X25519Identity again = formats::decode_identity(text);
    check(again.secret.size() == identity.secret.size() &&
              std::equal(again.secret.span().begin(), again.secret.span().end(),
                         identity.secret.span().begin()),
          "an identity does not survive encoding");
    check(again.public_key == identity.public_key, "an identity's recipient changed");
    check(formats::decode_recipient(formats::encode_recipient(identity.public_key)) ==
              identity.public_key,
          "a recipient does not survive encoding");
}

}  // namespace
}  // namespace warp::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace warp;
    const std::string_view text(reinterpret_cast<const char*>(data), size);

    std::vector<formats::X25519Identity> identities;
    if (!fuzz::refused_as_usage([&] { identities = formats::decode_identity_file(text); }))
        for (const formats::X25519Identity& identity : identities) fuzz::check_identity(identity);

    std::vector<formats::X25519PublicKey> recipients;
    if (!fuzz::refused_as_usage([&] { recipients = formats::decode_recipients_file(text); }))
        for (const formats::X25519PublicKey& recipient : recipients)
            fuzz::check(
                formats::decode_recipient(formats::encode_recipient(recipient)) == recipient,
                "a recipient from a file does not survive encoding");

    formats::X25519Identity one;
    if (!fuzz::refused_as_usage([&] { one = formats::decode_identity(text); }))
        fuzz::check_identity(one);
    formats::X25519PublicKey key{};
    if (!fuzz::refused_as_usage([&] { key = formats::decode_recipient(text); }))
        fuzz::check(formats::decode_recipient(formats::encode_recipient(key)) == key,
                    "a recipient does not survive encoding");
    return 0;
}
