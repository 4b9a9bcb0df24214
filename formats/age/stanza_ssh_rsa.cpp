// agessh, the ssh-rsa recipient type (C2SP age.md names it): "-> ssh-rsa <tag>", the tag the
// first 4 bytes of SHA-256 of the SSH public key (formats/keys/ssh.hpp); the body is the file
// key under RSA-OAEP with SHA-256 and the label "age-encryption.org/v1/ssh-rsa"
// (formats/keys/rsa_oaep.hpp, OpenSSL's). Keys of 2048 bits and more.
#include "engine/error.hpp"
#include "formats/age/stanza_kind.hpp"
#include "formats/keys/rsa_oaep.hpp"
#include "formats/keys/ssh.hpp"

namespace warp::formats::age {
namespace {

std::string problem(const Stanza& stanza) {
    if (stanza.args.size() != 2)
        return "an ssh-rsa stanza has 2 arguments, not " + std::to_string(stanza.args.size());
    if (!argument_bytes(stanza.args[1], kSshTagSize))
        return "an ssh-rsa stanza's tag is not canonical base64 of 4 bytes";
    if (stanza.body.empty()) return "an ssh-rsa stanza's body is empty";
    return "";
}

Stanza wrap(const Secret& recipient, const FileKey& file_key, const RandomFn&) {
    const ssh::RsaPublic key = ssh::rsa_public_of(recipient.bytes.span());
    std::vector<std::uint8_t> body =
        rsa::oaep_encrypt({key.n, key.e}, file_key, kSshRsaLabel);  // OpenSSL draws the seed
    return Stanza{{std::string(kSshRsaTag), ssh::key_tag(recipient.bytes.span())}, std::move(body)};
}

Unwrapped unwrap(const Stanza& stanza, const Secret& identity, FileKey& file_key) {
    const ssh::RsaPrivate key = ssh::rsa_private_of(identity.bytes.span());
    if (stanza.args[1] != ssh::key_tag(key.wire))
        return Unwrapped::no_match;  // another key's stanza
    return rsa::oaep_decrypt({key.n, key.e, key.d, key.p, key.q, key.iqmp}, stanza.body,
                             kSshRsaLabel, file_key)
               ? Unwrapped::opened
               : Unwrapped::named_but_failed;
}

}  // namespace

const StanzaKind kSshRsaStanza{
    .tag = kSshRsaTag,
    .key_type = KeyType::ssh_rsa,
    .secret = "SSH identity",
    .alone = false,
    .problem = problem,
    .kdf_memory_kib = no_kdf_memory,
    .wrap = wrap,
    .unwrap = unwrap,
};

}  // namespace warp::formats::age
