// age's ssh-ed25519 keys (agessh) as a key kind: a recipient is an authorized_keys line, an
// identity an OpenSSH private key file (formats/keys/ssh.hpp). age files only: the warp format
// has no SSH slot (its message says to use --format age). Classic, not post-quantum: X25519
// under the hood.
#include <algorithm>

#include "engine/error.hpp"
#include "formats/keys/key_kind.hpp"
#include "formats/keys/ssh.hpp"

namespace warp::formats {
namespace {

Secret decode_ssh_recipient(std::string_view text) {
    const ssh::Ed25519PublicKey key = ssh::parse_ed25519_recipient(text);
    return Secret{KeyType::ssh_ed25519, SecretBytes(std::span<const std::uint8_t>(key)), {}};
}

Secret decode_ssh_identity(std::string_view text) {
    return Secret{KeyType::ssh_ed25519, ssh::parse_ed25519_identity(text), {}};
}

std::string recipient_of(const Secret& identity) {
    return ssh::ed25519_recipient_text(ssh::ed25519_public_key(identity.bytes));
}

std::string recipient_problem(const Secret& recipient) {
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

}  // namespace

const KeyKind kSshEd25519Key{
    .type = KeyType::ssh_ed25519,
    .name = "ssh-ed25519",
    .secret = "SSH identity",
    .post_quantum = false,
    .recipient_hrp = "",
    .identity_hrp = "",
    .decode_recipient = decode_ssh_recipient,
    .decode_identity = decode_ssh_identity,
    .recipient_of = recipient_of,
    .recipient_problem = recipient_problem,
    .recipient_prefix = "ssh-ed25519 ",
    .identity_file_prefix = ssh::kPrivateKeyBegin,
};

}  // namespace warp::formats
