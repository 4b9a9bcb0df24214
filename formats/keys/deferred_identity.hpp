// Identities that need the user before they can be used: an SSH key under a passphrase, a
// passphrase-protected identity file (and, in the CLI's words, whatever asks a question or a
// touch). Opened only when needed, as age does: after the identities that need nothing have not
// opened the file, in the order given, and only when the file has an entry it could open: a
// stanza that names the SSH key by its tag, or any public-key entry for an identity file, whose
// keys are not known until it is open. docs/format-age.md, "Order in which identities are
// tried", says the whole order. Nothing is asked when nothing could match.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "formats/keys/key.hpp"

namespace warp::formats {

class DeferredIdentity {
public:
    // `open` asks for the secret and returns the identities it unlocks; it throws as its
    // caller words it (a wrong passphrase, no terminal). `ssh_type` (ssh_ed25519 or ssh_rsa)
    // and `ssh_tag` (ssh::key_tag of its public key; empty when not known) for an SSH key;
    // nullopt for an identity file.
    DeferredIdentity(std::optional<KeyType> ssh_type, std::string ssh_tag,
                     std::function<std::vector<Secret>()> open);

    // Whether it may open an entry of `type` (nullopt: a stanza type no native kind reads,
    // which a plugin in an identity file might) that carries `tag` (age's SSH stanzas' first
    // argument; empty otherwise).
    bool may_open(std::optional<KeyType> type, std::string_view tag) const;
    // Whether it may hold plugin identities (an identity file may).
    bool may_hold_plugins() const { return !ssh_type_; }
    // Its identities, opened on the first call (the question asked once per run, however many
    // times a file is tried); copies share them.
    const std::vector<Secret>& open() const;

private:
    std::optional<KeyType> ssh_type_;
    std::string ssh_tag_;
    std::function<std::vector<Secret>()> open_;
    std::shared_ptr<std::optional<std::vector<Secret>>> opened_;
};

}  // namespace warp::formats
