// age.md, "Header" and "Native recipient types": from a parsed header and the user's
// identities and passphrases to the file key, the header MAC verified; what decrypt and
// range decryption share.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "formats/age/header.hpp"
#include "formats/age/stanza_kind.hpp"
#include "formats/options.hpp"
#include "formats/common/kdf.hpp"

namespace warp::formats::age {

struct WipedFileKey {
    FileKey bytes{};
    ~WipedFileKey() { secure_wipe(bytes.data(), bytes.size()); }
};

// HKDF-SHA-256(ikm = file key, salt, info = label): the MAC key ("header", empty salt) and
// the payload key ("payload", the nonce).
void derive_key(const FileKey& file_key, std::span<const std::uint8_t> salt,
                std::string_view label, WipedKey& out);

// The rules no grammar says: each known stanza well formed, a stanza that must be alone
// alone. Throws Error(corrupted) naming the stanza (a header failure).
void check_stanzas(const Header& header);

// The file key from the first stanza an identity opens, which must verify the MAC (computed
// once: a key that fails it ends the search, as in age); returns its index. Unknown stanzas
// are ignored. Throws Error(wrong_key) when none opens (or the MAC fails: one outcome),
// Error(unsupported) when no stanza is of a known type (or only post-quantum ones could open),
// Error(usage) for an scrypt stanza over the KDF memory cap, or no identity at all.
// A plugin identity that opened it puts its plugin's name in `plugin` (the plugin does not
// say which stanza), and the index returned is 0.
std::size_t open_file_key(const Header& header, const Options& options, FileKey& file_key,
                          std::string* plugin = nullptr);

}  // namespace warp::formats::age
