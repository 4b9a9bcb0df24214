// age plugins' keys as a key kind (plugin_keys.hpp): recipients "age1NAME1..." and identities
// "AGE-PLUGIN-NAME-1...", checked as Bech32 with a valid name and kept as text for the
// plugin. age files only: the warp format has no plugin slot (its message says to use
// --format age), since a plugin makes age stanzas.
#include <algorithm>
#include <cctype>

#include "engine/error.hpp"
#include "formats/keys/bech32.hpp"
#include "formats/keys/key_kind.hpp"
#include "formats/keys/plugin_keys.hpp"

namespace warp::formats {
namespace {

[[noreturn]] void refuse(const std::string& what) { throw Error(ErrorCause::usage, what); }

std::string lower(std::string_view text) {
    std::string out(text);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

// The name inside a valid Bech32 plugin key, whose human-readable part starts with `prefix`
// (and ends with `suffix`); `what` names the key in messages, which never quote the data.
std::string checked_name(std::string_view text, std::string_view prefix, std::string_view suffix,
                         std::string_view what) {
    std::string why;
    const std::optional<bech32::DecodedWords> decoded = bech32::decode_words(text, why);
    if (!decoded) refuse("not a valid " + std::string(what) + ": " + why);
    const std::string& hrp = decoded->hrp;
    if (!hrp.starts_with(prefix) || !hrp.ends_with(suffix) ||
        hrp.size() <= prefix.size() + suffix.size())
        refuse("not a valid " + std::string(what) + ": no plugin name after \"" +
               std::string(prefix) + "\"");
    const std::string name = hrp.substr(prefix.size(), hrp.size() - prefix.size() - suffix.size());
    if (!valid_plugin_name(name))
        refuse("the " + std::string(what) + " names a plugin \"" + name +
               "\", and plugin names are letters a-z, digits and + - . _ only (age 1.2.1's "
               "rule: the name must never make a path)");
    if (!bech32::to_bytes(decoded->words, why)) refuse("not a valid " + std::string(what) + ": " + why);
    return name;
}

Secret plugin_secret(std::string_view text) {
    Secret secret;
    secret.type = KeyType::plugin;
    secret.bytes = SecretBytes(std::span<const std::uint8_t>(
        reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
    return secret;
}

Secret decode_plugin_recipient(std::string_view text) {
    checked_name(text, kPluginRecipientHrpPrefix, "", "plugin recipient (age1NAME1...)");
    return plugin_secret(text);
}

Secret decode_plugin_identity(std::string_view text) {
    checked_name(text, kPluginIdentityHrpPrefix, "-", "plugin identity (AGE-PLUGIN-NAME-1...)");
    return plugin_secret(text);
}

std::string recipient_of(const Secret& identity) {
    refuse("a plugin identity's recipient comes from its plugin: ask age-plugin-" +
           plugin_name_of(identity) + " for it (see its manual)");
}

std::string no_problem(const Secret&) { return ""; }

}  // namespace

bool valid_plugin_name(std::string_view name) {
    return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '-' ||
               c == '.' || c == '_';
    });
}

std::string_view plugin_key_text(const Secret& key) {
    return {reinterpret_cast<const char*>(key.bytes.data()), key.bytes.size()};
}

bool is_plugin_identity(const Secret& key) {
    return lower(plugin_key_text(key)).starts_with(kPluginIdentityHrpPrefix);
}

std::string plugin_name_of(const Secret& key) {
    const std::string text = lower(plugin_key_text(key));
    const std::string hrp = text.substr(0, text.rfind('1'));
    if (is_plugin_identity(key))
        return hrp.substr(kPluginIdentityHrpPrefix.size(),
                          hrp.size() - kPluginIdentityHrpPrefix.size() - 1);
    return hrp.substr(kPluginRecipientHrpPrefix.size());
}

Secret plugin_identity_without_data(std::string_view name) {
    if (!valid_plugin_name(name))
        refuse("-j: the plugin name \"" + std::string(name) +
               "\" is not letters a-z, digits and + - . _ (age 1.2.1's rule)");
    const std::string hrp = std::string(kPluginIdentityHrpPrefix) + std::string(name) + "-";
    return plugin_secret(bech32::encode_words(hrp, {}, bech32::Case::upper));
}

const KeyKind kPluginKey{
    .type = KeyType::plugin,
    .name = "plugin",
    .secret = "plugin identity",
    .post_quantum = false,  // unknown before it runs: `plugin` below
    .recipient_hrp = kPluginRecipientHrpPrefix,
    .identity_hrp = kPluginIdentityHrpPrefix,
    .decode_recipient = decode_plugin_recipient,
    .decode_identity = decode_plugin_identity,
    .recipient_of = recipient_of,
    .recipient_problem = no_problem,
    .plugin = true,
};

}  // namespace warp::formats
