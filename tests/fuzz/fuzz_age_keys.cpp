// fuzz-age-keys: the readers of keys in age's encoding on arbitrary bytes: each input as an
// identity file and as a recipients file, read as the CLI reads them (formats/keys/key_kind.hpp,
// every key kind by its Bech32 part or its SSH form: X25519, post-quantum, ssh-ed25519 and
// ssh-rsa in authorized_keys lines and OpenSSH and PEM private key files (opened with a
// passphrase too), age plugins' keys, the tagged hardware-key recipients), and as a
// single key of each kind (formats/keys/x25519.hpp, formats/keys/pq/hybrid_keys.hpp, and under
// them formats/keys/bech32.hpp).
//
// Invariants: a refusal is Error(usage) and nothing else; an accepted key encodes back to a
// key that decodes to the same bytes (and, for an identity, the same recipient); a key of a
// kind without a text form never comes out of a file.
#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "formats/keys/key_kind.hpp"
#include "formats/keys/plugin_keys.hpp"
#include "formats/keys/pq/hybrid_keys.hpp"
#include "formats/keys/ssh.hpp"
#include "formats/keys/tag/tag_recipient.hpp"
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

bool same_bytes(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
}

// A plugin's key is its text, which reads back as itself, of a plugin with a valid name.
void check_plugin_key(const formats::Secret& key, bool identity) {
    check(formats::valid_plugin_name(formats::plugin_name_of(key)),
          "a plugin key with an invalid plugin name was accepted");
    check(formats::is_plugin_identity(key) == identity, "a plugin key of the wrong side");
    const std::string_view text = formats::plugin_key_text(key);
    const formats::Secret again = identity ? formats::kPluginKey.decode_identity(text)
                                           : formats::kPluginKey.decode_recipient(text);
    check(same_bytes(again.bytes.span(), key.bytes.span()), "a plugin key does not read back");
}

// Any kind's identity from a file: its recipient text reads back as a recipient of that kind.
void check_any_identity(const formats::Secret& identity) {
    const formats::KeyKind& kind = formats::key_kind_of(identity.type);
    check(kind.public_key(), "an identity file gave a key of a kind without a text form");
    if (identity.type == formats::KeyType::plugin) return check_plugin_key(identity, true);
    if (identity.type == formats::KeyType::x25519) {
        check_identity({SecretBytes(identity.bytes.span()), formats::x25519_public_key(identity.bytes)});
        return;
    }
    if (identity.type == formats::KeyType::ssh_ed25519 ||
        identity.type == formats::KeyType::ssh_rsa) {  // an OpenSSH file: its recipient
        const formats::Secret recipient = formats::decode_recipient_text(kind.recipient_of(identity));
        check(recipient.type == identity.type, "an SSH identity's recipient is of another kind");
        return;
    }
    std::string text = formats::pq::encode_hybrid_identity(identity.bytes);
    const SecretBytes again = formats::pq::decode_hybrid_identity(text);
    secure_wipe(text.data(), text.size());
    check(same_bytes(again.span(), identity.bytes.span()), "an identity does not survive encoding");
    const formats::Secret recipient = formats::decode_recipient_text(kind.recipient_of(identity));
    check(recipient.type == identity.type, "an identity's recipient is of another kind");
}

// Any kind's recipient from a file: it encodes back to the same bytes.
void check_any_recipient(const formats::Secret& secret) {
    const formats::KeyKind& kind = formats::key_kind_of(secret.type);
    check(kind.public_key(), "a recipients file gave a key of a kind without a text form");
    check(kind.recipient_problem(secret).empty(), "a recipient with a problem was accepted");
    if (secret.type == formats::KeyType::plugin) return check_plugin_key(secret, false);
    std::string text;
    if (secret.type == formats::KeyType::x25519) {
        text = formats::encode_recipient(formats::x25519_key_of(secret.bytes.span()));
    } else if (secret.type == formats::KeyType::ssh_rsa) {
        text = formats::ssh::rsa_recipient_text(secret.bytes.span());
    } else if (secret.type == formats::KeyType::ssh_ed25519) {
        formats::ssh::Ed25519PublicKey key{};
        std::copy_n(secret.bytes.data(), key.size(), key.begin());
        text = formats::ssh::ed25519_recipient_text(key);
    } else if (secret.type == formats::KeyType::p256tag) {
        text = formats::tag::encode_recipient(formats::tag::kClassic, secret.bytes.span());
    } else if (secret.type == formats::KeyType::mlkem768p256tag) {
        text = formats::tag::encode_recipient(formats::tag::kHybrid, secret.bytes.span());
    } else {
        formats::pq::HybridPublicKey key{};
        std::copy_n(secret.bytes.data(), key.size(), key.begin());
        text = formats::pq::encode_hybrid_recipient(key);
    }
    check(same_bytes(formats::decode_recipient_text(text).bytes.span(), secret.bytes.span()),
          "a recipient from a file does not survive encoding");
}

}  // namespace
}  // namespace warp::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace warp;
    const std::string_view text(reinterpret_cast<const char*>(data), size);

    std::vector<formats::Secret> identities;
    if (!fuzz::refused_as_usage([&] { identities = formats::decode_identity_file_text(text); }))
        for (const formats::Secret& identity : identities) fuzz::check_any_identity(identity);

    std::vector<formats::Secret> recipients;
    if (!fuzz::refused_as_usage([&] { recipients = formats::decode_recipients_file_text(text); }))
        for (const formats::Secret& secret : recipients) fuzz::check_any_recipient(secret);
    // As -R reads it: SSH keys of types age cannot use skipped, the rest as above.
    std::vector<formats::SkippedLine> skipped;
    if (!fuzz::refused_as_usage(
            [&] { recipients = formats::decode_recipients_file_text(text, &skipped); }))
        for (const formats::Secret& secret : recipients) fuzz::check_any_recipient(secret);

    // A PEM or OpenSSH private key under a passphrase (ssh_pem.hpp; ssh.hpp), opened with one:
    // only usage or a wrong passphrase, and what opens is an identity whose recipient reads back.
    if (formats::ssh::is_private_key_file(text)) {
        const SecretBytes passphrase(std::string_view("fuzz"));
        try {
            const formats::ssh::ParsedKey key = formats::ssh::parse_identity(text, &passphrase);
            fuzz::check_any_identity({key.type == formats::ssh::kRsaType
                                          ? formats::KeyType::ssh_rsa
                                          : formats::KeyType::ssh_ed25519,
                                      SecretBytes(key.bytes.span()), {}});
        } catch (const Error& error) {
            fuzz::check(error.cause() == ErrorCause::usage || error.cause() == ErrorCause::wrong_key,
                        "a private key was refused with a cause other than usage or wrong_key");
        }
        (void)formats::ssh::stated_public_key(text);
    }

    formats::X25519Identity one;
    if (!fuzz::refused_as_usage([&] { one = formats::decode_identity(text); }))
        fuzz::check_identity(one);
    formats::X25519PublicKey key{};
    if (!fuzz::refused_as_usage([&] { key = formats::decode_recipient(text); }))
        fuzz::check(formats::decode_recipient(formats::encode_recipient(key)) == key,
                    "a recipient does not survive encoding");
    SecretBytes seed;
    if (!fuzz::refused_as_usage([&] { seed = formats::pq::decode_hybrid_identity(text); }))
        fuzz::check_any_identity({formats::KeyType::mlkem768x25519, std::move(seed), {}});
    formats::pq::HybridPublicKey hybrid{};
    if (!fuzz::refused_as_usage([&] { hybrid = formats::pq::decode_hybrid_recipient(text); }))
        fuzz::check_any_recipient({formats::KeyType::mlkem768x25519,
                                   SecretBytes(std::span<const std::uint8_t>(hybrid)), {}});
    return 0;
}
