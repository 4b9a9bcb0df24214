// age.md's rules for the stanzas of a header a writer makes (stanza_plan.hpp).
#include "formats/age/stanza_plan.hpp"

#include <algorithm>
#include <bit>
#include <optional>
#include <string>

#include "engine/error.hpp"
#include "formats/age/plugin_client.hpp"
#include "formats/keys/key_kind.hpp"
#include "formats/keys/plugin_keys.hpp"

namespace warp::formats::age {
namespace {

[[noreturn]] void refuse(const std::string& what) { throw Error(ErrorCause::usage, what); }

using Labels = std::vector<std::string>;

// age's native recipients: the hybrid says "postquantum", the classic ones nothing.
Labels native_labels(KeyType type) {
    if (key_kind_of(type).post_quantum_public_key()) return {"postquantum"};
    return {};
}

std::string labels_text(const Labels& labels) {
    if (labels.empty()) return "no labels";
    std::string text = "labels";
    for (const std::string& label : labels) text += " " + label;
    return text;
}

}  // namespace

std::string kinds_problem(std::span<const KeyType> kinds, std::size_t unknown, bool rekey,
                          std::size_t kept) {
    for (const KeyType type : kinds) {
        if (key_kind_of(type).plugin) continue;  // its plugin makes its stanzas
        const StanzaKind* kind = stanza_kind_for(type);
        if (kind == nullptr)
            return "age files have no key-file recipients: use -r/-R (age1...) or a passphrase, "
                   "or the warp format";
        if (kind->alone && kinds.size() + unknown != 1)
            return "an age file with a passphrase holds nothing else (age.md: an scrypt stanza "
                   "is alone in its header)";
    }
    return rekey_mix_problem(kinds.first(kept), kinds.subspan(kept), rekey ? "stanzas" : "");
}

void check_stanza_plan(std::span<const StanzaKind* const> kept, std::span<const Secret> added) {
    const std::size_t after = kept.size() + added.size();
    if (after == 0) refuse("an age file needs a recipient or a passphrase");
    if (after > kMaxStanzas)
        refuse("an age file holds at most " + std::to_string(kMaxStanzas) + " stanzas, and this "
               "would make " + std::to_string(after));
    const bool keeps_alone = std::any_of(kept.begin(), kept.end(), [](const StanzaKind* kind) {
        return kind != nullptr && kind->alone;
    });
    if (keeps_alone && !added.empty())
        refuse("the file's scrypt stanza must stay alone in its header (age.md), so nothing can "
               "be added beside it; remove it in the same rekey to replace it");
    std::vector<KeyType> kinds;
    // A kept stanza of a type this build does not know is someone's recipient all the same.
    std::size_t unknown = 0;
    for (const StanzaKind* kind : kept) {
        if (kind) kinds.push_back(kind->key_type);
        else ++unknown;
    }
    const std::size_t kept_known = kinds.size();
    for (const Secret& r : added) kinds.push_back(r.type);
    if (std::string why = kinds_problem(kinds, unknown, !kept.empty(), kept_known); !why.empty())
        refuse(why);
    for (const Secret& r : added) {
        if (r.type == KeyType::passphrase &&
            (!std::has_single_bit(r.kdf.memory_kib) ||
             scrypt_memory_kib(kDefaultScryptLog2N - 5) > r.kdf.memory_kib))
            refuse("an age passphrase's scrypt memory is a power of two from 8 MiB (work "
                   "factor 13), not " + std::to_string(r.kdf.memory_kib / 1024) + " MiB");
        if (std::string why = key_kind_of(r.type).recipient_problem(r); !why.empty()) refuse(why);
    }
}

}  // namespace warp::formats::age

namespace warp::formats::age {

std::vector<Stanza> wrap_recipients(std::span<const StanzaKind* const> kept,
                                    std::span<const Secret> recipients, const FileKey& file_key,
                                    const RandomFn& random, const PluginUi& ui) {
    std::vector<Stanza> stanzas;
    // The first recipient's labels, and who had them, to compare every other with.
    std::optional<Labels> first;
    std::string first_who;
    auto agree = [&](const Labels& labels, const std::string& who) {
        if (!first) {
            first = labels;
            first_who = who;
        } else if (labels != *first) {
            refuse("the recipients' labels conflict: " + first_who + " has " +
                   labels_text(*first) + ", " + who + " has " + labels_text(labels) +
                   " (age's rule: a file is not written to recipients whose labels differ, "
                   "such as a post-quantum one beside a classic one, which would protect "
                   "nothing)");
        }
    };
    for (std::size_t i = 0; i < kept.size(); ++i)
        if (kept[i]) agree(native_labels(kept[i]->key_type), "kept stanza " + std::to_string(i + 1));
    for (std::size_t i = 0; i < recipients.size(); ++i) {
        const Secret& recipient = recipients[i];
        const std::string who = "recipient " + std::to_string(i + 1);
        if (recipient.type != KeyType::plugin) {
            // check_stanza_plan: every other recipient has a kind.
            stanzas.push_back(stanza_kind_for(recipient.type)->wrap(recipient, file_key, random));
            agree(native_labels(recipient.type), who);
            continue;
        }
        PluginWrap wrapped = plugin_wrap(recipient, file_key, ui);
        agree(wrapped.labels, who + " (" + plugin_name_of(recipient) + " plugin)");
        if (stanzas.size() + kept.size() + wrapped.stanzas.size() > kMaxStanzas)
            refuse("an age file holds at most " + std::to_string(kMaxStanzas) +
                   " stanzas, and the plugins' stanzas make more");
        for (Stanza& stanza : wrapped.stanzas) stanzas.push_back(std::move(stanza));
    }
    return stanzas;
}

}  // namespace warp::formats::age
