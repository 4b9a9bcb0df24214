// The age plugin protocol's client (formats/age/plugin_client.hpp) and its stanza reader
// (plugin_stanza.hpp) against scripted plugins: what the client sends in phase 1, how it
// answers each phase-2 command, and every protocol violation refused as the plugin's failure
// (Error(io)); plugin keys' text forms and names (plugin_keys.hpp). The real process, PATH and
// age 1.1.1 are tests/cli/plugin_test.cpp's.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "engine/error.hpp"
#include "engine/stream/memory_io.hpp"
#include "formats/age/base64.hpp"
#include "formats/age/plugin_client.hpp"
#include "formats/age/plugin_stanza.hpp"
#include "formats/keys/bech32.hpp"
#include "formats/keys/key_kind.hpp"
#include "formats/keys/plugin_keys.hpp"

namespace warp::formats::age {
namespace {

std::span<const std::uint8_t> bytes_of(std::string_view text) {
    return {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()};
}

// A plugin whose whole output is fixed; what the client sends is kept, stanza by stanza.
class Scripted final : public PluginChannel {
public:
    explicit Scripted(std::string output) : text_(std::move(output)), output_(bytes_of(text_)) {}
    ByteSource& output() override { return output_; }
    void send(std::string_view text) override {
        stream::SpanSource one(bytes_of(text));
        sent.push_back(read_plugin_stanza(one));
    }
    std::vector<Stanza> sent;

private:
    std::string text_;  // before output_, which reads it
    stream::SpanSource output_;
};

std::string b64(std::string_view text) {
    return base64_encode(std::span<const std::uint8_t>(
                             reinterpret_cast<const std::uint8_t*>(text.data()), text.size()),
                         false);
}

std::string stanza(std::vector<std::string> args, std::string_view body = "") {
    return stanza_text(Stanza{std::move(args), {body.begin(), body.end()}});
}

Secret recipient() {
    return kPluginKey.decode_recipient(bech32::encode("age1test", std::vector<std::uint8_t>(8, 7)));
}

std::vector<std::string> commands(const std::vector<Stanza>& sent) {
    std::vector<std::string> out;
    for (const Stanza& s : sent)
        if (!s.args[0].starts_with("grease-")) out.push_back(s.args[0]);
    return out;
}

ErrorCause cause_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const Error& error) {
        return error.cause();
    }
    ADD_FAILURE() << "no error";
    return ErrorCause::usage;
}

const FileKey kFileKey = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};

TEST(PluginProtocol, RecipientV1SendsPhaseOneAsAgeDoesAndCollectsStanzasAndLabels) {
    Scripted plugin(stanza({"labels", "zeta", "alpha"}) +
                    stanza({"recipient-stanza", "0", "test", "arg"}, "wrapped") +
                    stanza({"done"}));
    const PluginWrap wrapped = run_recipient_v1(plugin, recipient(), kFileKey, PluginUi{});
    EXPECT_EQ(commands(plugin.sent),
              (std::vector<std::string>{"add-recipient", "wrap-file-key", "extension-labels",
                                        "done", "ok", "ok"}));
    EXPECT_EQ(plugin.sent[0].args[1],
              plugin_key_text(recipient()));
    const auto key = std::find_if(plugin.sent.begin(), plugin.sent.end(),
                                  [](const Stanza& s) { return s.args[0] == "wrap-file-key"; });
    EXPECT_TRUE(std::equal(key->body.begin(), key->body.end(), kFileKey.begin(), kFileKey.end()));
    ASSERT_EQ(wrapped.stanzas.size(), 1u);
    EXPECT_EQ(wrapped.stanzas[0].args, (std::vector<std::string>{"test", "arg"}));
    EXPECT_EQ(std::string(wrapped.stanzas[0].body.begin(), wrapped.stanzas[0].body.end()), "wrapped");
    EXPECT_EQ(wrapped.labels, (std::vector<std::string>{"alpha", "zeta"}));
}

TEST(PluginProtocol, QuestionsAreAnsweredThroughTheUiAndFailWithoutOne) {
    const std::string script = stanza({"msg"}, "hello\x1b[2J") +
                               stanza({"request-secret"}, "PIN?") +
                               stanza({"confirm", b64("yes"), b64("no")}, "sure?") +
                               stanza({"something-new"}) +
                               stanza({"recipient-stanza", "0", "t"}) + stanza({"done"});
    PluginUi ui;
    std::string shown;
    ui.message = [&](std::string_view, std::string_view m) {
        shown = m;
        return true;
    };
    ui.request = [](std::string_view, std::string_view, bool secret) {
        EXPECT_TRUE(secret);
        const std::string pin = "2468";
        return std::optional<SecretBytes>(SecretBytes(std::span<const std::uint8_t>(
            reinterpret_cast<const std::uint8_t*>(pin.data()), pin.size())));
    };
    ui.confirm = [](std::string_view, std::string_view, std::string_view yes, std::string_view no) {
        EXPECT_EQ(yes, "yes");
        EXPECT_EQ(no, "no");
        return std::optional<bool>(false);
    };
    Scripted answered(script);
    run_recipient_v1(answered, recipient(), kFileKey, ui);
    // As the plugin sent it: the UI escapes it, as the CLI does every text from outside
    // (cli/report.hpp, escape_controls; tests/cli/plugin_test.cpp checks the terminal side).
    EXPECT_EQ(shown, "hello\x1b[2J");
    const std::vector<std::string> all = commands(answered.sent);
    const std::vector<std::string> replies(all.begin() + 4, all.end());
    EXPECT_EQ(replies, (std::vector<std::string>{"ok", "ok", "ok", "unsupported", "ok"}));
    EXPECT_EQ(std::string(answered.sent[answered.sent.size() - 4].body.begin(),
                          answered.sent[answered.sent.size() - 4].body.end()),
              "2468");
    EXPECT_EQ(answered.sent[answered.sent.size() - 3].args,
              (std::vector<std::string>{"ok", "no"}));

    Scripted unanswered(script);
    run_recipient_v1(unanswered, recipient(), kFileKey, PluginUi{});
    const std::vector<std::string> all_failed = commands(unanswered.sent);
    const std::vector<std::string> failed(all_failed.begin() + 4, all_failed.end());
    EXPECT_EQ(failed, (std::vector<std::string>{"fail", "fail", "fail", "unsupported", "ok"}));
}

TEST(PluginProtocol, IdentityV1SendsEveryStanzaAndTakesOneFileKey) {
    const std::vector<Stanza> header = {{{"X25519", "abc"}, std::vector<std::uint8_t>(32, 9)},
                                        {{"test", "x", "y"}, {}}};
    const Secret identity = plugin_identity_without_data("test");
    Scripted plugin(stanza({"file-key", "0"}, std::string(kFileKey.begin(), kFileKey.end())) +
                    stanza({"done"}));
    FileKey got{};
    ASSERT_TRUE(run_identity_v1(plugin, identity, header, PluginUi{}, got));
    EXPECT_EQ(got, kFileKey);
    EXPECT_EQ(commands(plugin.sent),
              (std::vector<std::string>{"add-identity", "recipient-stanza", "recipient-stanza",
                                        "done", "ok"}));
    const auto first = std::find_if(plugin.sent.begin(), plugin.sent.end(), [](const Stanza& s) {
        return s.args[0] == "recipient-stanza";
    });
    EXPECT_EQ(first->args, (std::vector<std::string>{"recipient-stanza", "0", "X25519", "abc"}));
    EXPECT_EQ(first->body, std::vector<std::uint8_t>(32, 9));

    Scripted none(stanza({"done"}));
    EXPECT_FALSE(run_identity_v1(none, identity, header, PluginUi{}, got));
}

TEST(PluginProtocol, ProtocolViolationsAreThePluginsFailure) {
    const std::vector<Stanza> header = {{{"test"}, {}}};
    const Secret identity = plugin_identity_without_data("test");
    const std::string key(kFileKey.begin(), kFileKey.end());
    FileKey got{};
    auto unwrap = [&](const std::string& script) {
        return cause_of([&] {
            Scripted plugin(script);
            run_identity_v1(plugin, identity, header, PluginUi{}, got);
        });
    };
    auto wrap = [&](const std::string& script) {
        return cause_of([&] {
            Scripted plugin(script);
            run_recipient_v1(plugin, recipient(), kFileKey, PluginUi{});
        });
    };
    EXPECT_EQ(unwrap(""), ErrorCause::io) << "closed before done";
    EXPECT_EQ(unwrap("-> msg\n"), ErrorCause::io) << "closed inside a stanza";
    EXPECT_EQ(unwrap("not a stanza\n"), ErrorCause::io);
    EXPECT_EQ(unwrap(stanza({"file-key", "1"}, key)), ErrorCause::io);
    EXPECT_EQ(unwrap(stanza({"file-key", "0"}, "short")), ErrorCause::io);
    EXPECT_EQ(unwrap(stanza({"file-key", "0"}, key) + stanza({"file-key", "0"}, key)),
              ErrorCause::io);
    EXPECT_EQ(unwrap(stanza({"error", "internal"}, "broken")), ErrorCause::io);
    EXPECT_EQ(unwrap(stanza({"error", "stanza", "0", "0"}, "bad")), ErrorCause::corrupted);
    EXPECT_EQ(unwrap(stanza({"confirm"}, "no options")), ErrorCause::io);
    EXPECT_EQ(unwrap("-> msg\n!!!\n"), ErrorCause::io) << "a body that is not base64";
    EXPECT_EQ(unwrap("-> msg\n" + std::string(65, 'A') + "\n"), ErrorCause::io);
    EXPECT_EQ(unwrap("-> " + std::string(kMaxPluginLineBytes, 'a') + "\n\n"), ErrorCause::io);
    std::string chatty;
    for (std::size_t i = 0; i <= kMaxPluginCommands; ++i) chatty += stanza({"msg"}, "hi");
    EXPECT_EQ(unwrap(chatty), ErrorCause::io) << "a plugin that never stops talking ends too";

    EXPECT_EQ(wrap(stanza({"done"})), ErrorCause::io) << "no stanza";
    EXPECT_EQ(wrap(stanza({"recipient-stanza", "1", "t"}) + stanza({"done"})), ErrorCause::io);
    EXPECT_EQ(wrap(stanza({"recipient-stanza", "0"}) + stanza({"done"})), ErrorCause::io);
    EXPECT_EQ(wrap(stanza({"labels", "a"}) + stanza({"labels", "b"})), ErrorCause::io);
    EXPECT_EQ(wrap(stanza({"error", "recipient", "0"}, "no")), ErrorCause::io);
    EXPECT_EQ(wrap(stanza({"error", "stanza", "0", "1"}, "no")), ErrorCause::io)
        << "recipient-v1 has no error stanza: no header is involved (found by fuzz-age-plugin)";
}

TEST(PluginKeys, NamesAreCheckedAndKeysKeepTheirText) {
    const std::string text = bech32::encode("age1yubikey", std::vector<std::uint8_t>(33, 2));
    const Secret key = decode_recipient_text(text);
    EXPECT_EQ(key.type, KeyType::plugin);
    EXPECT_EQ(plugin_name_of(key), "yubikey");
    EXPECT_FALSE(is_plugin_identity(key));
    EXPECT_EQ(plugin_key_text(key), text);
    // age1pq1... is ML-KEM's, never a plugin called "pq"; age1... is X25519's.
    EXPECT_EQ(recipient_kind_of("age1pq1qqqq"), &kHybridKey);
    EXPECT_EQ(recipient_kind_of("age1qqqq"), &kX25519Key);

    const std::vector<Secret> ids = decode_identity_file_text(
        "# a YubiKey\n" + bech32::encode("age-plugin-yubikey-", std::vector<std::uint8_t>(5, 1),
                                         bech32::Case::upper) + "\n");
    ASSERT_EQ(ids.size(), 1u);
    EXPECT_TRUE(is_plugin_identity(ids[0]));
    EXPECT_EQ(plugin_name_of(ids[0]), "yubikey");
    EXPECT_EQ(plugin_name_of(plugin_identity_without_data("se.1_x+y-z")), "se.1_x+y-z");

    for (const char* name : {"a/b", "..\\x", "a b", "", "caf\xc3\xa9"})
        EXPECT_THROW(plugin_identity_without_data(name), Error) << name;
    // A name that could make a path is refused in a recipient too (age 1.2.1's rule).
    for (const char* hrp : {"age1../bin/sh", "age1a/b", "age1"})
        EXPECT_THROW(decode_recipient_text(bech32::encode(hrp, std::vector<std::uint8_t>(4, 0))),
                     Error)
            << hrp;
    for (const char* name : {"yubikey", "tpm", "se", "fido2-hmac", "a.b_c+d", "0"})
        EXPECT_TRUE(valid_plugin_name(name)) << name;
}

TEST(PluginKeys, PostQuantumMixingLeavesPluginsToTheirLabels) {
    const std::vector<KeyType> with_pq = {KeyType::mlkem768x25519, KeyType::plugin};
    const std::vector<KeyType> with_classic = {KeyType::x25519, KeyType::plugin};
    EXPECT_EQ(post_quantum_mix_problem(with_pq), "");
    EXPECT_EQ(post_quantum_mix_problem(with_classic), "");
}

}  // namespace
}  // namespace warp::formats::age
