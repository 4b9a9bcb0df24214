// C2SP age-plugin.md, the client side: the recipient-v1 state machine wraps a file key for a
// plugin recipient (age1NAME1...), identity-v1 unwraps one with a plugin identity
// (AGE-PLUGIN-NAME-1...), one plugin run each, as age's plugin/client.go does: grease in
// phase 1, age's extension-labels (the plugin may answer with its recipient's labels), and the
// plugin's questions answered through PluginUi. The state machines run over any PluginChannel
// (the fuzz target drives them with bytes); plugin_wrap and plugin_unwrap start the plugin.
//
// Every failure is an Error whose message starts with "NAME plugin: ", one line: the plugin's
// own error text (control characters replaced), a protocol violation, a timeout, or an early
// exit. Causes: usage when the plugin is not on PATH; corrupted when it calls a header stanza
// invalid; io for the rest (it failed, or broke the protocol).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "formats/age/plugin_process.hpp"
#include "formats/age/stanza_kind.hpp"
#include "formats/options.hpp"

namespace warp::formats::age {

// The most commands a plugin may send in one run (questions and stanzas): a plugin that loops
// on `msg` must end too.
inline constexpr std::size_t kMaxPluginCommands = 4096;

struct PluginWrap {
    std::vector<Stanza> stanzas;      // one at least
    std::vector<std::string> labels;  // sorted (age compares them so)
};

// recipient-v1 for one recipient (or identity, `add-identity`) over `channel`.
PluginWrap run_recipient_v1(PluginChannel& channel, const Secret& recipient,
                            const FileKey& file_key, const PluginUi& ui);
// identity-v1 for one identity and one file's stanzas: true with the file key in `file_key`,
// false when the plugin sends none (its identity opens no stanza).
bool run_identity_v1(PluginChannel& channel, const Secret& identity,
                     std::span<const Stanza> stanzas, const PluginUi& ui, FileKey& file_key);

// The same, the plugin started for the run (age-plugin-NAME on PATH).
PluginWrap plugin_wrap(const Secret& recipient, const FileKey& file_key, const PluginUi& ui);
bool plugin_unwrap(const Secret& identity, std::span<const Stanza> stanzas, const PluginUi& ui,
                   FileKey& file_key);

}  // namespace warp::formats::age
