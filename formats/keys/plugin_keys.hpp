// age plugins' recipients and identities as text (C2SP age-plugin.md, "Mapping recipients and
// identities to plugin binaries"): Bech32 under "age1" NAME (recipients, lower case) and
// "AGE-PLUGIN-" NAME "-" (identities, upper case), whose data only the plugin reads. The key
// kind (key_kind_plugin.cpp) keeps the whole text as the key's bytes, since that is what the
// plugin is given; formats/age/plugin_client.hpp runs the plugin.
#pragma once

#include <string>
#include <string_view>

#include "formats/keys/key.hpp"

namespace warp::formats {

// The prefixes of the human-readable parts (lower case, as bech32.hpp gives them).
inline constexpr std::string_view kPluginRecipientHrpPrefix = "age1";
inline constexpr std::string_view kPluginIdentityHrpPrefix = "age-plugin-";

// age 1.2.1's rule since GHSA-32gq-x56h-299c: a name is 1 or more of a-z 0-9 + - . _, so
// that "age-plugin-" NAME is a file name in a PATH directory and never a path.
bool valid_plugin_name(std::string_view name);

// A plugin key's text (KeyType::plugin keeps it as its bytes), as the plugin is given it.
std::string_view plugin_key_text(const Secret& key);

// The plugin a plugin key (KeyType::plugin) is for: its name in lower case.
std::string plugin_name_of(const Secret& key);

// Whether the key is an identity (AGE-PLUGIN-...) rather than a recipient (age1NAME1...).
bool is_plugin_identity(const Secret& key);

// -j NAME: the identity of `name` with no data (age's NewIdentityWithoutData), which asks the
// plugin to use its default key. Error(usage) for a name valid_plugin_name refuses.
Secret plugin_identity_without_data(std::string_view name);

}  // namespace warp::formats
