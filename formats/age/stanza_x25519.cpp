// age.md, "X25519 recipient stanza": "-> X25519 <ephemeral share>", body = ChaCha20-Poly1305
// under HKDF(shared secret, share || recipient, "age-encryption.org/v1/X25519") of the file
// key. The same exchange as the warp format's X25519 slot (formats/slot_x25519.cpp), with
// age's label and no key-check value.
#include <sodium.h>

#include <algorithm>

#include "engine/error.hpp"
#include "formats/age/base64.hpp"
#include "formats/age/stanza_kind.hpp"
#include "formats/kdf.hpp"
#include "formats/slot_kind.hpp"
#include "formats/slot_x25519.hpp"
#include "formats/x25519_keys.hpp"

namespace warp::formats::age {
namespace {

using Point = std::array<std::uint8_t, kX25519KeySize>;

struct Wiped32 {
    Point bytes{};
    ~Wiped32() { secure_wipe(bytes.data(), bytes.size()); }
};

void derive_wrap_key(const Point& shared, const X25519PublicKey& share,
                     const X25519PublicKey& recipient, WipedKey& wrap_key) {
    std::array<std::uint8_t, 2 * kX25519KeySize> salt{};
    std::copy(share.begin(), share.end(), salt.begin());
    std::copy(recipient.begin(), recipient.end(), salt.begin() + kX25519KeySize);
    hkdf_sha256(shared, salt, label_bytes(kX25519Label), wrap_key.span());
}

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

std::optional<std::uint64_t> no_kdf(const Stanza&) { return std::nullopt; }

Stanza wrap(const Secret& recipient, const FileKey& file_key, const RandomFn& random) {
    X25519PublicKey recipient_key{};
    std::copy_n(recipient.bytes.data(), kX25519KeySize, recipient_key.begin());
    Wiped32 ephemeral, shared;
    random(ephemeral.bytes.data(), ephemeral.bytes.size());
    X25519PublicKey share{};
    ensure_sodium();
    crypto_scalarmult_base(share.data(), ephemeral.bytes.data());
    if (!x25519_shared_secret(ephemeral.bytes, recipient_key, shared.bytes))
        throw Error(ErrorCause::usage,
                    "the recipient is an X25519 point of low order, for which no key agreement "
                    "is secret");
    WipedKey wrap_key;
    derive_wrap_key(shared.bytes, share, recipient_key, wrap_key);
    const auto body = seal_file_key(wrap_key.span(), file_key);
    return Stanza{{std::string(kX25519Tag), base64_encode(share, false)},
                  std::vector<std::uint8_t>(body.begin(), body.end())};
}

bool unwrap(const Stanza& stanza, const Secret& identity, FileKey& file_key) {
    const std::vector<std::uint8_t> bytes = *argument_bytes(stanza.args[1], kX25519KeySize);
    X25519PublicKey share{};
    std::copy(bytes.begin(), bytes.end(), share.begin());
    const X25519PublicKey recipient = x25519_public_key(identity.bytes);
    Wiped32 shared;
    if (!x25519_shared_secret(identity.bytes.span().first<kX25519KeySize>(), share, shared.bytes))
        throw Error(ErrorCause::corrupted,
                    "age header: an X25519 stanza's share is a point of low order (the shared "
                    "secret is zero); refusing the file");
    WipedKey wrap_key;
    derive_wrap_key(shared.bytes, share, recipient, wrap_key);
    return open_file_key(wrap_key.span(), stanza.body, file_key);
}

}  // namespace

const StanzaKind kX25519Stanza{
    .tag = kX25519Tag,
    .secret_type = SlotType::x25519,
    .secret = "identity",
    .alone = false,
    .problem = problem,
    .kdf_memory_kib = no_kdf,
    .wrap = wrap,
    .unwrap = unwrap,
};

}  // namespace warp::formats::age
