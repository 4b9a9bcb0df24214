// age.md, "Native recipient types": what makes one stanza type what it is, behind one
// interface, the age folder's counterpart of the warp format's slot_kind.hpp (and age's own
// Recipient.Wrap / Identity.Unwrap): a type wraps a file key for a recipient and unwraps it
// with an identity. The header code and decrypt iterate over stanzas and ask the kind of each.
//
// A stanza type is the adapter of one key kind (formats/keys/key_kind.hpp) to this format: a
// new one is one file (stanza_NAME.cpp) and one line in stanza_kind_list.cpp.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "formats/age/constants.hpp"
#include "formats/age/header.hpp"
#include "formats/keys/key.hpp"
#include "formats/options.hpp"

namespace warp::formats::age {

using FileKey = std::array<std::uint8_t, kFileKeySize>;

// What an identity made of a stanza. A stanza that names its identity (an SSH key's tag) and
// still does not open is age's "incorrect identity" no more but an error for that identity:
// the identity is tried on no other stanza of the file, so a header of many stanzas carrying
// a victim's public tag costs one private-key operation per identity, not one per stanza.
enum class Unwrapped {
    opened,             // the file key is out
    no_match,           // not this identity's, or (no tag to tell) not opened by it
    named_but_failed,   // this identity's tag, and it did not open: spent for this file
};

struct StanzaKind {
    std::string_view tag;   // args[0], compared case-sensitively ("X25519", "scrypt")
    KeyType key_type;       // the key kind it adapts: what it is made for and opened with
    std::string_view secret;  // what opens it, in messages: "identity", "passphrase"
    bool alone;             // MUST be the only stanza of its header (scrypt)

    // Why a stanza of this tag is malformed (wrong argument count or encoding, a body that is
    // not 32 bytes): a header failure, checked before anything is tried. Empty if fine.
    std::string (*problem)(const Stanza& stanza);
    // The KDF memory one unwrap costs (KiB), for the caps; nullopt for types without a KDF
    // (and for a malformed stanza).
    std::optional<std::uint64_t> (*kdf_memory_kib)(const Stanza& stanza);
    // Encrypt: the stanza for `recipient`, fresh randomness from `random`. Throws
    // Error(usage) for a recipient no stanza can be made for.
    Stanza (*wrap)(const Secret& recipient, const FileKey& file_key, const RandomFn& random);
    // Decrypt: the file key when `identity` opens the stanza (Unwrapped::opened). Throws
    // Error(corrupted) where age.md says to abort (an all-zero X25519 shared secret).
    Unwrapped (*unwrap)(const Stanza& stanza, const Secret& identity, FileKey& file_key);
};

// The kind of a stanza, by its first argument; nullptr for a type this build ignores.
const StanzaKind* stanza_kind_of(const Stanza& stanza);
const StanzaKind* stanza_kind_for(KeyType type);  // the kind that wraps a key; nullptr: none

extern const StanzaKind kX25519Stanza;  // stanza_x25519.cpp
extern const StanzaKind kScryptStanza;  // stanza_scrypt.cpp
extern const StanzaKind kHybridStanza;  // stanza_mlkem768x25519.cpp
extern const StanzaKind kSshEd25519Stanza;  // stanza_ssh_ed25519.cpp
extern const StanzaKind kSshRsaStanza;      // stanza_ssh_rsa.cpp
extern const StanzaKind kTagStanza;         // stanza_tag.cpp
extern const StanzaKind kTagPqStanza;       // stanza_tag.cpp

// What every type's body is: ChaCha20-Poly1305 of the file key, nonce 12 zero bytes.
std::array<std::uint8_t, kWrappedFileKeySize> seal_file_key(std::span<const std::uint8_t, 32> key,
                                                            const FileKey& file_key);
bool open_file_key(std::span<const std::uint8_t, 32> key, std::span<const std::uint8_t> body,
                   FileKey& file_key);

// kdf_memory_kib of every type without a KDF (all but scrypt).
std::optional<std::uint64_t> no_kdf_memory(const Stanza& stanza);

// "a canonical base64 encoding of an N-byte value": the bytes, or nullopt.
std::optional<std::vector<std::uint8_t>> argument_bytes(const std::string& arg, std::size_t n);

}  // namespace warp::formats::age
