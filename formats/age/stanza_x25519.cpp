// age.md, "X25519 recipient stanza": "-> X25519 <ephemeral share>", body = ChaCha20-Poly1305
// under HKDF(shared secret, share || recipient, "age-encryption.org/v1/X25519") of the file
// key. The same exchange as the warp format's X25519 slot (formats/keys/x25519_exchange.hpp
// for both), with age's label and no key-check value.
#include <algorithm>

#include "engine/error.hpp"
#include "formats/age/base64.hpp"
#include "formats/age/stanza_kind.hpp"
#include "formats/common/kdf.hpp"
#include "formats/keys/x25519_exchange.hpp"

namespace warp::formats::age {
namespace {

std::string problem(const Stanza& stanza) {
    if (stanza.args.size() != 2) return "an X25519 stanza has 2 arguments, not " +
                                        std::to_string(stanza.args.size());
    if (!argument_bytes(stanza.args[1], kX25519KeySize))
        return "an X25519 stanza's share is not canonical base64 of 32 bytes";
    if (stanza.body.size() != kWrappedFileKeySize)
        return "an X25519 stanza's body is " + std::to_string(stanza.body.size()) +
               " bytes, not 32";
    return "";
}

Stanza wrap(const Secret& recipient, const FileKey& file_key, const RandomFn& random) {
    X25519PublicKey recipient_key{};
    std::copy_n(recipient.bytes.data(), kX25519KeySize, recipient_key.begin());
    X25519PublicKey share{};
    X25519Secret shared;
    if (!x25519_send(recipient_key, random, share, shared))
        throw Error(ErrorCause::usage,
                    "the recipient is an X25519 point of low order, for which no key agreement "
                    "is secret");
    WipedKey wrap_key;
    x25519_hkdf(shared.bytes, share, recipient_key, kX25519Label, wrap_key);
    const auto body = seal_file_key(wrap_key.span(), file_key);
    return Stanza{{std::string(kX25519Tag), base64_encode(share, false)},
                  std::vector<std::uint8_t>(body.begin(), body.end())};
}

Unwrapped unwrap(const Stanza& stanza, const Secret& identity, FileKey& file_key) {
    const std::vector<std::uint8_t> bytes = *argument_bytes(stanza.args[1], kX25519KeySize);
    X25519PublicKey share{}, recipient{};
    std::copy(bytes.begin(), bytes.end(), share.begin());
    X25519Secret shared;
    if (!x25519_receive(identity.bytes, share, recipient, shared))
        throw Error(ErrorCause::corrupted,
                    "age header: an X25519 stanza's share is a point of low order (the shared "
                    "secret is zero); refusing the file");
    WipedKey wrap_key;
    x25519_hkdf(shared.bytes, share, recipient, kX25519Label, wrap_key);
    return open_file_key(wrap_key.span(), stanza.body, file_key) ? Unwrapped::opened
                                                                  : Unwrapped::no_match;
}

}  // namespace

const StanzaKind kX25519Stanza{
    .tag = kX25519Tag,
    .key_type = KeyType::x25519,
    .secret = "X25519 identity",
    .alone = false,
    .problem = problem,
    .kdf_memory_kib = no_kdf_memory,
    .wrap = wrap,
    .unwrap = unwrap,
};

}  // namespace warp::formats::age
