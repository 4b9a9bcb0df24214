// fuzz-age-keys: the readers of keys in age's encoding on arbitrary bytes: each input as an
// identity file and as a recipients file, read as the CLI reads them (formats/keys/key_kind.hpp,
// every key kind by its Bech32 part), and as a single X25519 identity and recipient
// (formats/keys/x25519.hpp, and under them formats/keys/bech32.hpp).
//
// Invariants: a refusal is Error(usage) and nothing else; an accepted key encodes back to a
// key that decodes to the same bytes (and, for an identity, the same recipient).
#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "formats/keys/key_kind.hpp"
#include "formats/keys/x25519.hpp"
#include "formats/keys/x25519_exchange.hpp"
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

    // X25519 is the one key kind with a text form so far: every key a file gives is one.
    std::vector<formats::Secret> identities;
    if (!fuzz::refused_as_usage([&] { identities = formats::decode_identity_file_text(text); }))
        for (const formats::Secret& identity : identities) {
            fuzz::check(identity.type == formats::KeyType::x25519,
                        "an identity file gave a key of a kind without a text form");
            fuzz::check_identity({SecretBytes(identity.bytes.span()),
                                  formats::x25519_public_key(identity.bytes)});
        }

    std::vector<formats::Secret> recipients;
    if (!fuzz::refused_as_usage([&] { recipients = formats::decode_recipients_file_text(text); }))
        for (const formats::Secret& secret : recipients) {
            fuzz::check(secret.type == formats::KeyType::x25519,
                        "a recipients file gave a key of a kind without a text form");
            const formats::X25519PublicKey recipient = formats::x25519_key_of(secret.bytes.span());
            fuzz::check(
                formats::decode_recipient(formats::encode_recipient(recipient)) == recipient,
                "a recipient from a file does not survive encoding");
        }

    formats::X25519Identity one;
    if (!fuzz::refused_as_usage([&] { one = formats::decode_identity(text); }))
        fuzz::check_identity(one);
    formats::X25519PublicKey key{};
    if (!fuzz::refused_as_usage([&] { key = formats::decode_recipient(text); }))
        fuzz::check(formats::decode_recipient(formats::encode_recipient(key)) == key,
                    "a recipient does not survive encoding");
    return 0;
}
