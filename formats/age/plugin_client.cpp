// age-plugin.md's recipient-v1 and identity-v1, the client side (plugin_client.hpp).
#include "formats/age/plugin_client.hpp"

#include <sodium.h>

#include <algorithm>
#include <charconv>

#include "engine/error.hpp"
#include "formats/age/base64.hpp"
#include "formats/age/plugin_stanza.hpp"
#include "formats/keys/plugin_keys.hpp"

namespace warp::formats::age {
namespace {

[[noreturn]] void broken(const std::string& what) { throw Error(ErrorCause::io, what); }

// What a plugin says, cut to a length a message can hold. Not escaped here: whatever prints
// it escapes it (cli/report.hpp, escape_controls: the one escaping of outside text).
std::string shortened(std::span<const std::uint8_t> bytes) {
    constexpr std::size_t kMax = 300;
    std::string text(reinterpret_cast<const char*>(bytes.data()), std::min(bytes.size(), kMax));
    if (bytes.size() > kMax) text += "...";
    return text;
}

// A body may be a secret (a file key, a PIN): its copies are wiped once sent.
void send(PluginChannel& channel, std::vector<std::string> args,
          std::span<const std::uint8_t> body = {}) {
    Stanza stanza{std::move(args), {body.begin(), body.end()}};
    std::string text = stanza_text(stanza);
    secure_wipe(stanza.body.data(), stanza.body.size());
    try {
        channel.send(text);
    } catch (...) {
        secure_wipe(text.data(), text.size());
        throw;
    }
    secure_wipe(text.data(), text.size());
}

// age-plugin.md, "Grease": sometimes a stanza of a random command the plugin must ignore, with
// random arguments and body, so that plugins that choke on unknown commands are found early.
void send_grease(PluginChannel& channel) {
    if (randombytes_uniform(3) == 0) return;
    std::vector<std::string> args{"grease-" + std::to_string(randombytes_random())};
    for (std::uint32_t i = randombytes_uniform(3); i > 0; --i)
        args.push_back(std::to_string(randombytes_uniform(100)));
    std::vector<std::uint8_t> body(randombytes_uniform(2) == 0 ? 0 : randombytes_uniform(100));
    // (libsodium's pointer must not be null, which an empty vector's data() may be.)
    if (!body.empty()) randombytes_buf(body.data(), body.size());
    send(channel, std::move(args), body);
}

// "0", the only file index a run of one file uses.
bool is_index_zero(const std::string& arg) { return arg == "0"; }

// The questions of phase 2 (the same in both state machines); false for a command that is not
// one, which the caller answers "unsupported" unless it knows it.
bool answer_question(PluginChannel& channel, const Stanza& s, std::string_view name,
                     const PluginUi& ui) {
    const std::string& command = s.args[0];
    if (command == "msg") {
        const bool shown = ui.message && ui.message(name, shortened(s.body));
        send(channel, {shown ? "ok" : "fail"});
        return true;
    }
    if (command == "request-public" || command == "request-secret") {
        std::optional<SecretBytes> value;
        if (ui.request) value = ui.request(name, shortened(s.body), command == "request-secret");
        if (value) send(channel, {"ok"}, value->span());
        else send(channel, {"fail"});
        return true;
    }
    if (command == "confirm") {
        if (s.args.size() != 2 && s.args.size() != 3)
            broken("sent a confirm with " + std::to_string(s.args.size() - 1) +
                   " options; it has 1 or 2");
        std::vector<std::string> options;
        for (std::size_t i = 1; i < s.args.size(); ++i) {
            const std::optional<std::vector<std::uint8_t>> option = base64_decode(s.args[i], false);
            if (!option) broken("sent a confirm option that is not canonical base64");
            options.push_back(shortened(*option));
        }
        std::optional<bool> yes;
        if (ui.confirm)
            yes = ui.confirm(name, shortened(s.body), options[0],
                             options.size() == 2 ? options[1] : std::string());
        if (yes) send(channel, {"ok", *yes ? "yes" : "no"});
        else send(channel, {"fail"});
        return true;
    }
    return false;
}

// `error` from the plugin: acknowledged, then the run fails with its text. identity-v1's
// `error stanza` says a header stanza is malformed (a header failure); every other error, and
// any error of recipient-v1, which has no such variant, is the plugin's failure.
[[noreturn]] void plugin_error(PluginChannel& channel, const Stanza& s, bool unwrapping) {
    send(channel, {"ok"});
    const bool stanza_error = unwrapping && s.args.size() >= 2 && s.args[1] == "stanza";
    const std::string text = shortened(s.body);
    throw Error(stanza_error ? ErrorCause::corrupted : ErrorCause::io,
                text.empty() ? std::string("reported an error without a message") : text);
}

// Reads phase 2 until "done", handing each command to `on_command` (true: handled) after the
// questions, errors and the rest are taken care of.
template <typename OnCommand>
void run_phase_two(PluginChannel& channel, std::string_view name, const PluginUi& ui,
                   bool unwrapping, OnCommand on_command) {
    for (std::size_t n = 0;; ++n) {
        if (n == kMaxPluginCommands)
            broken("sent more than " + std::to_string(kMaxPluginCommands) + " commands");
        Stanza s = read_plugin_stanza(channel.output());
        // A body may hold a secret (a file key): wiped whatever the command, and whatever is
        // thrown (what must outlive it, a recipient's stanza, is copied).
        struct BodyWiped {
            Stanza& stanza;
            ~BodyWiped() { secure_wipe(stanza.body.data(), stanza.body.size()); }
        } wiped{s};
        const std::string& command = s.args[0];
        if (command == "done") return;
        if (command == "error") plugin_error(channel, s, unwrapping);
        if (answer_question(channel, s, name, ui) || on_command(s)) continue;
        send(channel, {"unsupported"});
    }
}

// Runs `body` with the plugin's name in front of any error it throws.
template <typename Body>
auto named(std::string_view name, Body body) {
    try {
        return body();
    } catch (const Error& error) {
        throw Error(error.cause(), std::string(name) + " plugin: " + error.what());
    }
}

}  // namespace

PluginWrap run_recipient_v1(PluginChannel& channel, const Secret& recipient,
                            const FileKey& file_key, const PluginUi& ui) {
    // (The stanzas the plugin sends are public: they go into the header.)
    const std::string name = plugin_name_of(recipient);
    // Phase 1: the recipient (or identity), the file key, the labels extension, done.
    send(channel, {is_plugin_identity(recipient) ? "add-identity" : "add-recipient",
                   std::string(plugin_key_text(recipient))});
    send_grease(channel);
    send(channel, {"wrap-file-key"}, file_key);
    send(channel, {"extension-labels"});
    send(channel, {"done"});

    PluginWrap wrapped;
    bool labelled = false;
    run_phase_two(channel, name, ui, false, [&](Stanza& s) {
        const std::string& command = s.args[0];
        if (command == "recipient-stanza") {
            if (s.args.size() < 3 || !is_index_zero(s.args[1]))
                broken("sent a recipient-stanza without file index 0 and a stanza type");
            if (wrapped.stanzas.size() == kMaxStanzas)
                broken("sent more than " + std::to_string(kMaxStanzas) + " stanzas");
            wrapped.stanzas.push_back(Stanza{{s.args.begin() + 2, s.args.end()}, s.body});
        } else if (command == "labels") {
            if (labelled) broken("sent its labels twice");
            labelled = true;
            wrapped.labels.assign(s.args.begin() + 1, s.args.end());
        } else {
            return false;
        }
        send(channel, {"ok"});
        return true;
    });
    if (wrapped.stanzas.empty()) broken("said done without a stanza for the recipient");
    std::sort(wrapped.labels.begin(), wrapped.labels.end());
    return wrapped;
}

bool run_identity_v1(PluginChannel& channel, const Secret& identity,
                     std::span<const Stanza> stanzas, const PluginUi& ui, FileKey& file_key) {
    const std::string name = plugin_name_of(identity);
    // Phase 1: the identity, every stanza of the header as file 0, done.
    send(channel, {"add-identity", std::string(plugin_key_text(identity))});
    send_grease(channel);
    for (const Stanza& stanza : stanzas) {
        std::vector<std::string> args{"recipient-stanza", "0"};
        args.insert(args.end(), stanza.args.begin(), stanza.args.end());
        send(channel, std::move(args), stanza.body);
    }
    send(channel, {"done"});

    bool unwrapped = false;
    run_phase_two(channel, name, ui, true, [&](Stanza& s) {
        if (s.args[0] != "file-key") return false;
        if (s.args.size() != 2 || !is_index_zero(s.args[1]))
            broken("sent a file-key without file index 0");
        if (unwrapped) broken("sent a second file key for the file");
        if (s.body.size() != kFileKeySize)
            broken("sent a file key of " + std::to_string(s.body.size()) + " bytes, not 16");
        std::copy(s.body.begin(), s.body.end(), file_key.begin());
        unwrapped = true;
        send(channel, {"ok"});
        return true;
    });
    return unwrapped;
}

PluginWrap plugin_wrap(const Secret& recipient, const FileKey& file_key, const PluginUi& ui) {
    const std::string name = plugin_name_of(recipient);
    return named(name, [&] {
        PluginProcess plugin(name, "recipient-v1", ui.silence_limit, [&] {
            if (ui.waiting) ui.waiting(name);
        });
        return run_recipient_v1(plugin, recipient, file_key, ui);
    });
}

bool plugin_unwrap(const Secret& identity, std::span<const Stanza> stanzas, const PluginUi& ui,
                   FileKey& file_key) {
    const std::string name = plugin_name_of(identity);
    return named(name, [&] {
        PluginProcess plugin(name, "identity-v1", ui.silence_limit, [&] {
            if (ui.waiting) ui.waiting(name);
        });
        return run_identity_v1(plugin, identity, stanzas, ui, file_key);
    });
}

}  // namespace warp::formats::age
