// What a header's stanzas may be, checked before any output and before any key is tried, for
// encrypt (a new header) and rekey (kept stanzas and new ones): age.md's rules and age's.
#pragma once

#include <span>
#include <string>

#include "formats/age/stanza_kind.hpp"
#include "formats/keys/key.hpp"


namespace warp::formats::age {

// `kept`: the kinds of the stanzas a rekey keeps (nullptr for one of a type this build does
// not know); none for a new file. `added`: a new stanza each. Throws Error(usage): no stanza
// at all, more than kMaxStanzas, a key age files cannot hold (a key file), an scrypt stanza
// beside any other (age.md: it is alone in its header), an scrypt cost that is not a power of
// two from 8 MiB, a recipient no stanza can be made for.
// What an age file cannot hold of these kinds of key, before any key is read (a key file; a
// passphrase beside anything else; classic and post-quantum recipients together), or empty.
// `unknown`: stanzas of types this build does not know beside them (a rekey keeps them);
// `rekey`: the kinds include kept stanzas (the mixing message says how to move the file);
// `kept`: the first `kept` kinds are stanzas a rekey keeps, which may mix already as long as
// nothing public is added (rekey_mix_problem, SPEC 4.7's rule for both formats).
// check_stanza_plan asks it too.
std::string kinds_problem(std::span<const KeyType> kinds, std::size_t unknown = 0,
                          bool rekey = false, std::size_t kept = 0);

void check_stanza_plan(std::span<const StanzaKind* const> kept, std::span<const Secret> added);

// The new stanzas for `recipients`, in order: each native kind's, and each plugin's (its
// plugin run now, its questions asked through `ui`: plugin_client.hpp). Then age's labels
// rule (age.go's RecipientWithLabels): every recipient's labels, the kept stanzas' included,
// must be the same set, else Error(usage) before anything is written. A native kind's labels
// are "postquantum" for a post-quantum public key and none otherwise; a kept stanza of a type
// this build does not know has labels nobody can tell (a header does not record them), so it
// is left out of the comparison.
std::vector<Stanza> wrap_recipients(std::span<const StanzaKind* const> kept,
                                    std::span<const Secret> recipients, const FileKey& file_key,
                                    const RandomFn& random, const PluginUi& ui);

}  // namespace warp::formats::age
