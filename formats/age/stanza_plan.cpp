// age.md's rules for the stanzas of a header a writer makes (stanza_plan.hpp).
#include "formats/age/stanza_plan.hpp"

#include <algorithm>
#include <bit>
#include <string>

#include "engine/error.hpp"
#include "formats/keys/key_kind.hpp"

namespace warp::formats::age {
namespace {

[[noreturn]] void refuse(const std::string& what) { throw Error(ErrorCause::usage, what); }

}  // namespace

std::string kinds_problem(std::span<const KeyType> kinds, std::size_t unknown, bool rekey) {
    for (const KeyType type : kinds) {
        const StanzaKind* kind = stanza_kind_for(type);
        if (kind == nullptr)
            return "age files have no key-file recipients: use -r/-R (age1...) or a passphrase, "
                   "or the warp format";
        if (kind->alone && kinds.size() + unknown != 1)
            return "an age file with a passphrase holds nothing else (age.md: an scrypt stanza "
                   "is alone in its header)";
    }
    return post_quantum_mix_problem(kinds, rekey ? "stanzas" : "");
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
    for (const Secret& r : added) kinds.push_back(r.type);
    if (std::string why = kinds_problem(kinds, unknown, !kept.empty()); !why.empty()) refuse(why);
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
