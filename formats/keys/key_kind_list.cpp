// The key kinds, one line each (key_kind.hpp), and reading keys of any kind from text.
#include "formats/keys/key_kind.hpp"

#include <algorithm>
#include <vector>

#include <array>
#include <cctype>

#include "engine/error.hpp"
#include "formats/common/text_lines.hpp"
#include "formats/keys/ssh.hpp"

namespace warp::formats {
namespace {

constexpr std::array<const KeyKind*, 9> kKinds = {
    &kPassphraseKey,  // key_kind_symmetric.cpp
    &kKeyFileKey,     // key_kind_symmetric.cpp
    &kX25519Key,      // key_kind_x25519.cpp
    &kHybridKey,      // key_kind_mlkem768x25519.cpp
    &kSshEd25519Key,  // key_kind_ssh.cpp
    &kSshRsaKey,      // key_kind_ssh.cpp
    &kTagKey,         // key_kind_tag.cpp: hardware keys' p256tag (recipients only)
    &kTagPqKey,       // key_kind_tag.cpp: hardware keys' mlkem768p256tag (recipients only)
    &kPluginKey,      // key_kind_plugin.cpp: matched last, by the prefix of its HRPs
};

// The kind that reads text no kind's human-readable part names, so that the message says
// what a recipient or an identity looks like.
const KeyKind& kDefaultTextKind = kX25519Key;

// Bech32's human-readable part: what comes before the last "1", lower-cased.
std::string hrp_of(std::string_view text) {
    const std::size_t one = text.rfind('1');
    std::string hrp(text.substr(0, one == std::string_view::npos ? 0 : one));
    for (char& c : hrp) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return hrp;
}

}  // namespace

// An SSH key of a type age has no stanza for ("ecdsa-sha2-...", "sk-...", "ssh-dss") is read
// by the SSH kind, so that the message names its type.
static const KeyKind* other_ssh_type(std::string_view text) {
    for (std::string_view prefix : {"ssh-", "ecdsa-", "sk-"})
        if (text.starts_with(prefix) && text.find(' ') != std::string_view::npos)
            return &kSshEd25519Key;
    return nullptr;
}

std::span<const KeyKind* const> key_kinds() { return kKinds; }

const KeyKind& key_kind_of(KeyType type) {
    for (const KeyKind* kind : kKinds)
        if (kind->type == type) return *kind;
    throw Error(ErrorCause::usage, "unknown key type");  // every KeyType has a kind
}

const KeyKind* recipient_kind_of(std::string_view text) {
    for (const KeyKind* kind : kKinds)
        if (!kind->recipient_prefix.empty() && text.starts_with(kind->recipient_prefix)) return kind;
    if (const KeyKind* ssh = other_ssh_type(text)) return ssh;
    const std::string hrp = hrp_of(text);
    for (const KeyKind* kind : kKinds)
        if (!kind->recipient_hrp.empty() && kind->recipient_hrp == hrp) return kind;
    // "age1" NAME: any other recipient in age's form is a plugin's (age1pq1... is matched
    // above, so ML-KEM keys never go to a plugin called "pq").
    if (hrp.starts_with(kPluginKey.recipient_hrp)) return &kPluginKey;
    return nullptr;
}

const KeyKind* identity_kind_of(std::string_view text) {
    const std::string hrp = hrp_of(text);
    for (const KeyKind* kind : kKinds)
        if (!kind->identity_hrp.empty() && kind->identity_hrp == hrp) return kind;
    if (hrp.starts_with(kPluginKey.identity_hrp)) return &kPluginKey;
    return nullptr;
}

std::string rekey_mix_problem(std::span<const KeyType> kept, std::span<const KeyType> added,
                              std::string_view rekey_entries) {
    std::vector<KeyType> after(kept.begin(), kept.end());
    after.insert(after.end(), added.begin(), added.end());
    std::string why = post_quantum_mix_problem(after, rekey_entries);
    if (why.empty()) return why;
    const bool adds_public_key = std::any_of(added.begin(), added.end(), [](KeyType type) {
        const KeyKind& kind = key_kind_of(type);
        return kind.classic_public_key() || kind.post_quantum_public_key();
    });
    if (!adds_public_key && !post_quantum_mix_problem(kept).empty()) return "";
    return why;
}

std::string post_quantum_mix_problem(std::span<const KeyType> kinds,
                                     std::string_view rekey_entries) {
    bool post_quantum = false, classic = false;
    for (const KeyType type : kinds) {
        post_quantum = post_quantum || key_kind_of(type).post_quantum_public_key();
        classic = classic || key_kind_of(type).classic_public_key();
    }
    if (!post_quantum || !classic) return "";
    std::string why = "a file to post-quantum recipients (age1pq1...) takes no classic X25519 "
                      "recipient (age1...): whoever breaks X25519 later would open it through "
                      "that one";
    if (!rekey_entries.empty())
        why += "; remove the X25519 " + std::string(rekey_entries) + " in the same rekey "
               "(--remove-slot) to move the file to post-quantum recipients";
    return why;
}

Secret decode_recipient_text(std::string_view text) {
    const KeyKind* kind = recipient_kind_of(text);
    return (kind ? *kind : kDefaultTextKind).decode_recipient(text);
}

std::vector<Secret> decode_identity_file_text(std::string_view text) {
    // A file that is one identity as a whole (an OpenSSH or PEM private key).
    for (const KeyKind* kind : kKinds)
        if (kind->is_identity_file != nullptr && kind->is_identity_file(text)) {
            std::vector<Secret> one;
            one.push_back(kind->decode_identity(text));
            return one;
        }
    return decode_lines(
        text,
        [](std::string_view line) {
            const KeyKind* kind = identity_kind_of(line);
            return (kind ? *kind : kDefaultTextKind).decode_identity(line);
        },
        "no identity (AGE-SECRET-KEY-PQ-1..., AGE-SECRET-KEY-1... or AGE-PLUGIN-...) in it");
}

std::vector<Secret> decode_recipients_file_text(std::string_view text,
                                                std::vector<SkippedLine>* skipped) {
    std::vector<Secret> recipients;
    std::vector<SkippedLine> left_out;
    // decode_lines' reading, with the line number the skipped lines need.
    for_each_entry(text, Indent::trimmed, [&](std::string_view line, std::size_t number) {
        if (std::string type = skipped ? ssh::unsupported_key_type(line) : ""; !type.empty()) {
            left_out.push_back({number, std::move(type)});
            return;
        }
        try {
            recipients.push_back(decode_recipient_text(line));
        } catch (const Error& error) {
            throw Error(ErrorCause::usage, "line " + std::to_string(number) + ": " + error.what());
        }
    });
    if (recipients.empty() && !left_out.empty())
        throw Error(ErrorCause::usage,
                    "no recipient age files can be encrypted to: its only keys are SSH keys of "
                    "types age has no stanza for (" + left_out.front().type + " at line " +
                        std::to_string(left_out.front().number) +
                        "); ssh-ed25519 and ssh-rsa keys can be used");
    if (recipients.empty())
        throw Error(ErrorCause::usage, "no recipient (age1pq1... or age1...) in it");
    if (skipped) *skipped = std::move(left_out);
    return recipients;
}

}  // namespace warp::formats
