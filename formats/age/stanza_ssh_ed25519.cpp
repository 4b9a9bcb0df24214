// agessh, the ssh-ed25519 recipient type (C2SP age.md names it): "-> ssh-ed25519 <tag>
// <share>", the tag the first 4 bytes of SHA-256 of the SSH public key (formats/keys/ssh.hpp),
// the share an ephemeral X25519 public key E. The recipient's X25519 key R is its Ed25519
// key's Montgomery form; the exchange's secret is tweaked with X25519(HKDF(ikm "", salt the
// SSH key, label), shared); the body is the file key sealed under HKDF(tweaked, E || R, label).
#include <algorithm>

#include "engine/error.hpp"
#include "formats/age/base64.hpp"
#include "formats/age/stanza_kind.hpp"
#include "formats/common/kdf.hpp"
#include "formats/keys/ssh.hpp"
#include "formats/keys/x25519_exchange.hpp"

namespace warp::formats::age {
namespace {

std::string problem(const Stanza& stanza) {
    if (stanza.args.size() != 3)
        return "an ssh-ed25519 stanza has 3 arguments, not " + std::to_string(stanza.args.size());
    if (!argument_bytes(stanza.args[1], kSshTagSize))
        return "an ssh-ed25519 stanza's tag is not canonical base64 of 4 bytes";
    if (!argument_bytes(stanza.args[2], kX25519KeySize))
        return "an ssh-ed25519 stanza's share is not canonical base64 of 32 bytes";
    if (stanza.body.size() != kWrappedFileKeySize)
        return "an ssh-ed25519 stanza's body is " + std::to_string(stanza.body.size()) +
               " bytes, not 32";
    return "";
}

// The wrap key from the exchange's shared secret: tweaked with the SSH key, then HKDF with
// the share and the recipient's X25519 key; false when the tweak gives zero.
bool wrap_key_of(const X25519Secret& shared, std::span<const std::uint8_t> ssh_wire,
                 const X25519PublicKey& share, const X25519PublicKey& recipient, WipedKey& key) {
    // agessh: HKDF with no input keying material, the SSH key as the salt.
    WipedKey tweak;
    hkdf_sha256({}, ssh_wire, label_bytes(kSshEd25519Label), tweak.span());
    X25519Secret tweaked;
    if (!x25519_shared_secret(tweak.span(), x25519_key_of(shared.bytes), tweaked.bytes))
        return false;
    x25519_hkdf(tweaked.bytes, share, recipient, kSshEd25519Label, key);
    return true;
}

Stanza wrap(const Secret& recipient, const FileKey& file_key, const RandomFn& random) {
    ssh::Ed25519PublicKey ed25519{};
    std::copy_n(recipient.bytes.data(), ed25519.size(), ed25519.begin());
    const X25519PublicKey their_key = ssh::x25519_public_of(ed25519);
    const std::vector<std::uint8_t> wire = ssh::ed25519_wire(ed25519);
    X25519PublicKey share{};
    X25519Secret shared;
    WipedKey wrap_key;
    if (!x25519_send(their_key, random, share, shared) ||
        !wrap_key_of(shared, wire, share, their_key, wrap_key))
        throw Error(ErrorCause::usage, "the ssh-ed25519 key is a point of low order, for "
                                       "which no key agreement is secret");
    const auto body = seal_file_key(wrap_key.span(), file_key);
    return Stanza{{std::string(kSshEd25519Tag), ssh::key_tag(wire), base64_encode(share, false)},
                  std::vector<std::uint8_t>(body.begin(), body.end())};
}

Unwrapped unwrap(const Stanza& stanza, const Secret& identity, FileKey& file_key) {
    const std::vector<std::uint8_t> wire = ssh::ed25519_wire(ssh::ed25519_public_key(identity.bytes));
    if (stanza.args[1] != ssh::key_tag(wire)) return Unwrapped::no_match;  // another key's stanza
    const std::vector<std::uint8_t> bytes = *argument_bytes(stanza.args[2], kX25519KeySize);
    const X25519PublicKey share = x25519_key_of(bytes);
    const SecretBytes secret = ssh::x25519_secret_of(identity.bytes);
    X25519PublicKey our_key{};
    X25519Secret shared;
    WipedKey wrap_key;
    if (!x25519_receive(secret, share, our_key, shared) ||
        !wrap_key_of(shared, wire, share, our_key, wrap_key))
        throw Error(ErrorCause::corrupted,
                    "age header: an ssh-ed25519 stanza's share is a point of low order (the "
                    "shared secret is zero); refusing the file");
    return open_file_key(wrap_key.span(), stanza.body, file_key) ? Unwrapped::opened
                                                                  : Unwrapped::named_but_failed;
}

}  // namespace

const StanzaKind kSshEd25519Stanza{
    .tag = kSshEd25519Tag,
    .key_type = KeyType::ssh_ed25519,
    .secret = "SSH identity",
    .alone = false,
    .problem = problem,
    .kdf_memory_kib = no_kdf_memory,
    .wrap = wrap,
    .unwrap = unwrap,
};

}  // namespace warp::formats::age
