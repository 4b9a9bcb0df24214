// age's SSH keys (agessh) as key kinds, ssh-ed25519 and ssh-rsa: a recipient is an
// authorized_keys line, an identity an OpenSSH or PEM private key file, of either type
// (formats/keys/ssh.hpp). age files only: the warp format has no SSH slot (its message says to
// use --format age). Classic, not post-quantum.
#include <algorithm>

#include "engine/error.hpp"
#include "formats/keys/key_kind.hpp"
#include "formats/keys/ssh.hpp"

namespace warp::formats {
namespace {

KeyType type_of(std::string_view ssh_type) {
    return ssh_type == ssh::kRsaType ? KeyType::ssh_rsa : KeyType::ssh_ed25519;
}

Secret decode_ssh_recipient(std::string_view text) {
    ssh::ParsedKey key = ssh::parse_recipient(text);
    return Secret{type_of(key.type), std::move(key.bytes), {}};
}

// One OpenSSH private key file is one identity, of the type it holds.
Secret decode_ssh_identity(std::string_view text) {
    ssh::ParsedKey key = ssh::parse_identity(text);
    return Secret{type_of(key.type), std::move(key.bytes), {}};
}

std::string ed25519_recipient_of(const Secret& identity) {
    return ssh::ed25519_recipient_text(ssh::ed25519_public_key(identity.bytes));
}

std::string rsa_recipient_of(const Secret& identity) {
    return ssh::rsa_recipient_text(ssh::rsa_private_of(identity.bytes.span()).wire);
}

std::string ed25519_problem(const Secret& recipient) {
    if (recipient.bytes.size() != ssh::kEd25519KeySize) return "an ssh-ed25519 key is 32 bytes";
    ssh::Ed25519PublicKey key{};
    std::copy_n(recipient.bytes.data(), key.size(), key.begin());
    try {
        ssh::x25519_public_of(key);
    } catch (const Error& error) {
        return error.what();
    }
    return "";
}

std::string rsa_problem(const Secret& recipient) {
    try {
        ssh::rsa_public_of(recipient.bytes.span());  // its size was checked when it was read
    } catch (const Error& error) {
        return error.what();
    }
    return "";
}

}  // namespace

bool identity_needs_passphrase(std::string_view text) { return ssh::needs_passphrase(text); }

Secret decode_identity_with_passphrase(std::string_view text, const SecretBytes& passphrase,
                                       const KdfLimits& kdf_limits) {
    ssh::ParsedKey key = ssh::parse_identity(text, &passphrase, kdf_limits);
    return Secret{type_of(key.type), std::move(key.bytes), {}};
}

const KeyKind kSshEd25519Key{
    .type = KeyType::ssh_ed25519,
    .name = "ssh-ed25519",
    .secret = "SSH identity",
    .post_quantum = false,
    .recipient_hrp = "",
    .identity_hrp = "",
    .decode_recipient = decode_ssh_recipient,
    .decode_identity = decode_ssh_identity,
    .recipient_of = ed25519_recipient_of,
    .recipient_problem = ed25519_problem,
    .recipient_prefix = "ssh-ed25519 ",
    .is_identity_file = ssh::is_private_key_file,  // either type's file: decode says which
};

const KeyKind kSshRsaKey{
    .type = KeyType::ssh_rsa,
    .name = "ssh-rsa",
    .secret = "SSH identity",
    .post_quantum = false,
    .recipient_hrp = "",
    .identity_hrp = "",
    .decode_recipient = decode_ssh_recipient,
    .decode_identity = decode_ssh_identity,
    .recipient_of = rsa_recipient_of,
    .recipient_problem = rsa_problem,
    .recipient_prefix = "ssh-rsa ",
    .is_identity_file = nullptr,
};

}  // namespace warp::formats
