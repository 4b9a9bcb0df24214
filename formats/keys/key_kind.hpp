// What makes one kind of key what it is, for both formats (after age's Recipient and
// Identity): how its recipients and identities are written as text, what a recipient must
// be, and what it is called in messages. Each format then makes its own slot (warp,
// formats/warp/slot_kind.hpp) or stanza (age, formats/age/stanza_kind.hpp) of a kind with a
// small adapter; the CLI reads every key through this list and never names a kind.
//
// A new key kind is: one file here (key_kind_NAME.cpp, defining its KeyKind and its text
// forms), its KeyType (key.hpp), one line in key_kind_list.cpp, and in each format one
// adapter file and one line in its list (warp: slot_kind_list.cpp; age:
// stanza_kind_list.cpp), or a refusal there that says which format to use.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "formats/common/kdf_limits.hpp"
#include "formats/keys/key.hpp"

namespace warp::formats {

struct KeyKind {
    KeyType type;
    std::string_view name;    // "passphrase", "key-file", "x25519": info and messages
    std::string_view secret;  // what opens it, in messages: "passphrase", "key file", "identity"
    // Whether a file sealed to it stays closed to whoever later has a quantum computer: true
    // for the symmetric kinds (a 256-bit key; a passphrase as strong as it is) and the hybrid,
    // false for X25519, whose recipients are warned about (age 1.4's policy).
    bool post_quantum;
    // Text forms in age's Bech32 encoding: the human-readable part of its recipients
    // ("age"), and of its identities ("age-secret-key-"); empty for kinds without one
    // (passphrases, key files), whose decoders below are then null.
    std::string_view recipient_hrp;
    std::string_view identity_hrp;
    // Throw Error(usage) saying what is wrong, never quoting a secret.
    Secret (*decode_recipient)(std::string_view text);
    Secret (*decode_identity)(std::string_view text);
    // The recipient text of an identity of this kind (keygen -y).
    std::string (*recipient_of)(const Secret& identity);
    // Why no file can be sealed to `recipient`, or empty (checked before any output).
    std::string (*recipient_problem)(const Secret& recipient);
    // Text forms that are not Bech32 (SSH keys): a recipient's first word and the space after
    // it ("ssh-ed25519 "), and whether a file is one identity as a whole (an OpenSSH or PEM
    // private key); empty and null for the other kinds.
    std::string_view recipient_prefix = "";
    bool (*is_identity_file)(std::string_view text) = nullptr;
    // An age plugin's keys (age-plugin.md): what a file to one is (post-quantum or not, its
    // labels) is known only once the plugin has wrapped the file key, so the checks made
    // before (post_quantum_mix_problem, the classic-recipient warning) pass over it, and the
    // age writer compares labels after wrapping (formats/age/plugin_client.hpp). Its
    // human-readable parts above are prefixes ("age1" NAME, "age-plugin-" NAME "-"), matched
    // after every other kind's.
    bool plugin = false;

    // A public key (its recipients have a text form), rather than a symmetric secret.
    bool public_key() const { return !recipient_hrp.empty() || !recipient_prefix.empty(); }
    // A public key known to be classic (X25519, SSH), or known to be post-quantum, before it is
    // used: a plugin's is neither until its labels say (`plugin` above).
    bool classic_public_key() const { return public_key() && !plugin && !post_quantum; }
    bool post_quantum_public_key() const { return public_key() && !plugin && post_quantum; }
};

// The kinds, one line each (key_kind_list.cpp), and each defined in its own file.
std::span<const KeyKind* const> key_kinds();
const KeyKind& key_kind_of(KeyType type);
extern const KeyKind kPassphraseKey;  // key_kind_symmetric.cpp
extern const KeyKind kKeyFileKey;     // key_kind_symmetric.cpp
extern const KeyKind kX25519Key;      // key_kind_x25519.cpp
extern const KeyKind kHybridKey;      // key_kind_mlkem768x25519.cpp: ML-KEM-768 + X25519
extern const KeyKind kSshEd25519Key;  // key_kind_ssh.cpp: age's ssh-ed25519
extern const KeyKind kSshRsaKey;      // key_kind_ssh.cpp: age's ssh-rsa
extern const KeyKind kPluginKey;      // key_kind_plugin.cpp: an age plugin's (age-plugin.md)
extern const KeyKind kTagKey;         // key_kind_tag.cpp: hardware keys' p256tag
extern const KeyKind kTagPqKey;       // key_kind_tag.cpp: hardware keys' mlkem768p256tag

// The kind whose recipient (or identity) `text` is, told by its Bech32 human-readable part
// (before the last "1", in any case); nullptr when none is.
const KeyKind* recipient_kind_of(std::string_view text);
const KeyKind* identity_kind_of(std::string_view text);

// Why one file cannot be sealed to keys of these kinds together, or empty: a classic X25519
// recipient beside a post-quantum one (age 1.4's rule, for both formats): whoever breaks
// X25519 later would open the file through the classic one, and the post-quantum recipient
// would protect nothing. Passphrases and key files may sit beside either: they are symmetric.
// For a rekey, `rekey_entries` names what the format calls its entries ("slots", "stanzas"),
// and the message says to remove the classic ones in the same rekey.
std::string post_quantum_mix_problem(std::span<const KeyType> kinds,
                                     std::string_view rekey_entries = {});
// The same rule for a rekey (SPEC 4.7): what it keeps is kept as it was, so a file that mixes
// already (written by another tool) may keep mixing, as long as the rekey adds no public-key
// entry of either kind; otherwise the entries after it must not mix.
std::string rekey_mix_problem(std::span<const KeyType> kept, std::span<const KeyType> added,
                              std::string_view rekey_entries);

// An identity file that is an OpenSSH private key protected with a passphrase, and its key
// opened with `passphrase` (a wrong one is Error(wrong_key)); no other kind needs one.
bool identity_needs_passphrase(std::string_view text);
// bcrypt draws on `kdf_limits`, the run's (Error(usage) naming --kdf-max-work when over).
Secret decode_identity_with_passphrase(std::string_view text, const SecretBytes& passphrase,
                                       const KdfLimits& kdf_limits = {});

// One recipient of any kind; Error(usage) saying what is wrong.
Secret decode_recipient_text(std::string_view text);
// An identity file (several identities, of any kinds, as age-keygen writes them) and a
// recipients file: "#" comments and blank lines ignored; Error(usage) naming the line.
std::vector<Secret> decode_identity_file_text(std::string_view text);
// A recipients file may hold SSH keys of types age has no stanza for (ecdsa, sk-, ssh-dss:
// forges serve them beside Ed25519 ones): with `skipped`, such a line is left out and listed
// there for the caller to warn about, as age does; a file with no usable line is still an
// error. Without it, such a line is an error, as on the command line.
struct SkippedLine {
    std::size_t number;  // from 1
    std::string type;    // "ecdsa-sha2-nistp256"
};
std::vector<Secret> decode_recipients_file_text(std::string_view text,
                                                std::vector<SkippedLine>* skipped = nullptr);

}  // namespace warp::formats
