// fuzz-age-plugin: the client side of the age plugin protocol (formats/age/plugin_client.hpp)
// against a plugin that says anything: the input, after its first byte, is everything the
// plugin writes, read by the protocol's stanza reader (formats/age/plugin_stanza.hpp); the
// first byte picks the state machine, recipient-v1 (even) or identity-v1 (odd). What the client
// sends goes to a channel that reads it back with the same stanza reader, so every line the
// client writes must be grammatical.
//
// Invariants: a refusal is Error(io) (the plugin failed or broke the protocol), or
// Error(corrupted) for identity-v1's `error stanza`, nothing else; a wrap that succeeds has
// 1..kMaxStanzas stanzas whose lines are a header's, and sorted labels; the client never
// sends more than the plugin's commands call for (one answer each, bounded).
#include <algorithm>
#include <string>
#include <vector>

#include "engine/stream/memory_io.hpp"
#include "formats/age/plugin_client.hpp"
#include "formats/age/plugin_stanza.hpp"
#include "formats/keys/bech32.hpp"
#include "formats/keys/key_kind.hpp"
#include "formats/keys/plugin_keys.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace warp::fuzz {
namespace {

std::span<const std::uint8_t> bytes_of(std::string_view text) {
    return {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()};
}

// The plugin's side: its output is the input; what the client sends is parsed back.
class ScriptedPlugin final : public formats::age::PluginChannel {
public:
    ScriptedPlugin(const std::uint8_t* data, std::size_t size) : output_({data, size}) {}
    ByteSource& output() override { return output_; }
    void send(std::string_view text) override {
        stream::SpanSource sent(bytes_of(text));
        try {
            formats::age::read_plugin_stanza(sent);
        } catch (const Error&) {
            check(false, "the client sent something that is not a stanza");
        }
        check(sent.position() == text.size(), "the client sent more than one stanza at once");
        ++sent_;
    }
    std::size_t sent() const { return sent_; }

private:
    stream::SpanSource output_;
    std::size_t sent_ = 0;
};

formats::PluginUi answering_ui() {
    formats::PluginUi ui;
    // A plugin's words reach the UI as it sent them, shortened: the UI escapes them as it does
    // every text from outside (cli/report.hpp), so the client's promise is their length.
    ui.message = [](std::string_view, std::string_view message) {
        check(message.size() <= 300 + 3, "a plugin's message reached the user unshortened");
        return true;
    };
    ui.request = [](std::string_view, std::string_view, bool) {
        const std::string pin = "123456";
        return std::optional<SecretBytes>(SecretBytes(std::span<const std::uint8_t>(
            reinterpret_cast<const std::uint8_t*>(pin.data()), pin.size())));
    };
    ui.confirm = [](std::string_view, std::string_view, std::string_view, std::string_view) {
        return std::optional<bool>(true);
    };
    return ui;
}

// The recipient "age1fuzz1..." of 32 zero bytes.
formats::Secret plugin_recipient() {
    const std::vector<std::uint8_t> zeros(32);
    return formats::kPluginKey.decode_recipient(formats::bech32::encode("age1fuzz", zeros));
}

}  // namespace
}  // namespace warp::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace warp;
    if (size == 0) return 0;
    const bool identity_v1 = (data[0] & 1) != 0;
    fuzz::ScriptedPlugin plugin(data + 1, size - 1);
    const formats::PluginUi ui = fuzz::answering_ui();
    formats::age::FileKey file_key{};
    try {
        if (identity_v1) {
            const formats::Secret identity = formats::plugin_identity_without_data("fuzz");
            const std::vector<formats::age::Stanza> stanzas = {
                {{"X25519", "share"}, std::vector<std::uint8_t>(32, 1)},
                {{"fuzz", "a", "b"}, {}}};
            formats::age::run_identity_v1(plugin, identity, stanzas, ui, file_key);
        } else {
            const formats::Secret recipient = fuzz::plugin_recipient();
            const formats::age::PluginWrap wrapped =
                formats::age::run_recipient_v1(plugin, recipient, file_key, ui);
            fuzz::check(!wrapped.stanzas.empty() &&
                            wrapped.stanzas.size() <= formats::age::kMaxStanzas,
                        "a wrap with no stanza, or too many, was accepted");
            fuzz::check(std::is_sorted(wrapped.labels.begin(), wrapped.labels.end()),
                        "labels are not sorted");
            for (const formats::age::Stanza& stanza : wrapped.stanzas) {
                const std::string text = formats::age::stanza_text(stanza);
                stream::SpanSource again(fuzz::bytes_of(text));
                const formats::age::Stanza read = formats::age::read_plugin_stanza(again);
                fuzz::check(read.args == stanza.args && read.body == stanza.body,
                            "a stanza from a plugin does not survive the header's encoding");
            }
        }
    } catch (const Error& error) {
        fuzz::check(error.cause() == ErrorCause::io ||
                        (identity_v1 && error.cause() == ErrorCause::corrupted),
                    "a plugin's failure with a cause other than io (or corrupted for a stanza)");
    }
    // Phase 1 is a few stanzas; then at most one answer per command the plugin sent.
    fuzz::check(plugin.sent() <= 8 + formats::age::kMaxPluginCommands,
                "the client sent more than the plugin's commands call for");
    return 0;
}
