// age.md, "Header" (the MAC) and "Native recipient types" (which stanzas to try, and when to
// refuse): from a header and the user's secrets to the file key.
#include "formats/age/unlock.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "engine/error.hpp"
#include "formats/age/plugin_client.hpp"
#include "formats/keys/plugin_keys.hpp"
#include "formats/common/distinct_names.hpp"

namespace warp::formats::age {
namespace {

// The types of the header's stanzas, each once, a few named: for messages.
std::string stanza_types(const Header& header) {
    DistinctNames types;
    for (const Stanza& s : header.stanzas) types.add(s.args[0]);
    return types.text();
}

std::string stanza_count(std::size_t n) {
    return std::to_string(n) + (n == 1 ? " stanza" : " stanzas");
}

[[noreturn]] void none_opened(const Header& header) {
    throw Error(ErrorCause::wrong_key,
                "wrong key or passphrase, or an altered header: none of the age file's " +
                    stanza_count(header.stanzas.size()) + " opened (types: " +
                    stanza_types(header) + ")");
}

// The file key's MAC over the header: whether `file_key` is the header's.
bool mac_verifies(const Header& header, const FileKey& file_key) {
    WipedKey mac_key;
    derive_key(file_key, {}, kHeaderLabel, mac_key);
    const std::array<std::uint8_t, kMacSize> mac = header_mac(header.mac_input, mac_key.span());
    return equal_in_constant_time(mac.data(), header.mac.data(), kMacSize);
}

// age-plugin.md: each plugin identity's plugin gets every stanza of the header and sends the
// file key if its identity opens one. Tried after the native identities, which need no other
// program and no question to the user. A plugin that fails is passed over for the next
// identity ("MAY ignore the failure ... and try another identity"), and its error is what is
// reported if none opens the file. Returns false when none did.
bool open_with_plugins(const Header& header, std::span<const Secret* const> plugins,
                       const Options& options, FileKey& file_key, std::string* plugin) {
    std::optional<Error> first_failure;
    for (const Secret* identity : plugins) {
        try {
            if (!plugin_unwrap(*identity, header.stanzas, options.plugin_ui, file_key)) continue;
        } catch (const Error& error) {
            if (!first_failure) first_failure = error;
            continue;
        }
        if (mac_verifies(header, file_key)) {
            if (plugin) *plugin = plugin_name_of(*identity);
            return true;
        }
        none_opened(header);  // a file key that fails the MAC: an altered header, as below
    }
    if (first_failure) throw *first_failure;
    return false;
}

// Whether a deferred identity may open one of the header's stanzas (an SSH stanza names its
// key by the tag in its first argument).
bool may_open_any(const Header& header, const DeferredIdentity& identity) {
    return std::any_of(header.stanzas.begin(), header.stanzas.end(), [&](const Stanza& s) {
        const StanzaKind* kind = stanza_kind_of(s);
        return identity.may_open(kind ? std::optional(kind->key_type) : std::nullopt,
                                 s.args.size() > 1 ? std::string_view(s.args[1]) : "");
    });
}

// The native identities of `identities` against every stanza; plugin ones are put aside in
// `plugins`, for after every native identity. The stanza opened, or nullopt.
std::optional<std::size_t> open_with_natives(const Header& header, const Options& options,
                                             std::span<const Secret> identities,
                                             FileKey& file_key, std::size_t& attempts,
                                             std::vector<const Secret*>& plugins) {
    for (const Secret& identity : identities)
        if (identity.type == KeyType::plugin) plugins.push_back(&identity);
    // Identities a stanza named by their tag and did not open: tried on nothing else
    // (Unwrapped::named_but_failed, age's rule), so that an SSH identity costs at most one
    // private-key operation per file, however many stanzas carry its public tag.
    std::vector<bool> spent(identities.size(), false);
    for (std::size_t i = 0; i < header.stanzas.size(); ++i) {
        const Stanza& stanza = header.stanzas[i];
        const StanzaKind* kind = stanza_kind_of(stanza);
        if (kind == nullptr) continue;  // "MUST ignore unrecognized stanzas"
        for (std::size_t j = 0; j < identities.size(); ++j) {
            const Secret& identity = identities[j];
            if (identity.type != kind->key_type || spent[j]) continue;
            const std::optional<std::uint64_t> kib = kind->kdf_memory_kib(stanza);
            if (kib) {
                // The run's KDF limits, memory and work (kdf_limits.hpp), before any work.
                const std::string why = options.kdf_limits.draw(
                    "stanza " + std::to_string(i + 1), "scrypt", *kib, scrypt_work_kib(*kib),
                    "one pass over " + std::to_string(*kib / 1024) + " MiB");
                if (!why.empty()) throw Error(ErrorCause::usage, why);
            }
            ++attempts;
            const Unwrapped result = kind->unwrap(stanza, identity, file_key);
            if (result == Unwrapped::named_but_failed) spent[j] = true;
            const bool unwrapped = result == Unwrapped::opened;
            // The header MAC is computed once, for the first file key a stanza gives, as age
            // does: a header of many stanzas costs one pass over it, not one per stanza and
            // identity tried. Every stanza of a valid header wraps the same file key, so a key
            // that fails the MAC means an altered header, and nothing else is tried.
            // A passphrase stanza is alone in its (small) header: its attempt computes the MAC
            // unwrapped or not, so that a stanza crafted to open under several passphrases
            // cannot tell "opened" from "did not" by the steps taken (the warp format's
            // SPEC 4.3).
            if (!unwrapped && !kib) continue;
            const bool mac_ok = mac_verifies(header, file_key);
            if (unwrapped && mac_ok) return i;
            if (unwrapped) none_opened(header);  // the MAC failed: one outcome with no match
        }
    }
    return std::nullopt;
}

}  // namespace

void derive_key(const FileKey& file_key, std::span<const std::uint8_t> salt,
                std::string_view label, WipedKey& out) {
    hkdf_sha256(file_key, salt, label_bytes(label), out.span());
}

void check_stanzas(const Header& header) {
    for (std::size_t i = 0; i < header.stanzas.size(); ++i) {
        const StanzaKind* kind = stanza_kind_of(header.stanzas[i]);
        if (kind == nullptr) continue;
        if (std::string why = kind->problem(header.stanzas[i]); !why.empty())
            throw Error(ErrorCause::corrupted,
                        "age header: stanza " + std::to_string(i + 1) + ": " + why);
        if (kind->alone && header.stanzas.size() != 1)
            throw Error(ErrorCause::corrupted,
                        "age header: an " + std::string(kind->tag) +
                            " stanza must be alone in its header, and this one has " +
                            std::to_string(header.stanzas.size()) + " stanzas");
    }
}

std::size_t open_file_key(const Header& header, const Options& options, FileKey& file_key,
                          std::string* plugin) {
    if (options.identities.empty() && options.deferred_identities.empty())
        throw Error(ErrorCause::usage, "no identity or passphrase to open the file with");
    const bool any_known = std::any_of(header.stanzas.begin(), header.stanzas.end(),
                                       [](const Stanza& s) { return stanza_kind_of(s); });
    // A plugin may know any stanza type: with a plugin identity (or an identity file not yet
    // open, which may hold one), nothing is unknown yet.
    const bool any_plugin =
        std::any_of(options.identities.begin(), options.identities.end(),
                    [](const Secret& identity) { return identity.type == KeyType::plugin; }) ||
        std::any_of(options.deferred_identities.begin(), options.deferred_identities.end(),
                    [](const DeferredIdentity& identity) { return identity.may_hold_plugins(); });
    // Worded as the warp format's file without a known slot (SPEC 4.4), with its exit code.
    if (!any_known && !any_plugin)
        throw Error(ErrorCause::unsupported,
                    "unsupported stanzas: none of the file's " +
                        stanza_count(header.stanzas.size()) +
                        " is of a type this warpcrypt can open (types: " + stanza_types(header) +
                        ")");
    // The order (docs/format-age.md): the identities that need nothing, then, in the order
    // given, those that need the user and may open a stanza, then every plugin.
    std::size_t attempts = 0;
    std::vector<const Secret*> plugins;
    if (auto opened = open_with_natives(header, options, options.identities, file_key, attempts,
                                        plugins))
        return *opened;
    for (const DeferredIdentity& deferred : options.deferred_identities) {
        if (!may_open_any(header, deferred)) continue;
        if (auto opened = open_with_natives(header, options, deferred.open(), file_key,
                                            attempts, plugins))
            return *opened;
    }
    if (!plugins.empty()) {
        if (open_with_plugins(header, plugins, options, file_key, plugin)) return 0;
        none_opened(header);
    }
    if (attempts > 0) none_opened(header);
    throw Error(ErrorCause::wrong_key, "no identity or passphrase given matches the age file's "
                                       "stanzas (types: " + stanza_types(header) + ")");
}

}  // namespace warp::formats::age
