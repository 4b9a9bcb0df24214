// SPEC 4: what makes one slot type what it is, behind one interface, like age's Recipient.Wrap
// and Identity.Unwrap. Every type derives a 32-byte value `s` from its secret and its stored
// fields; everything after that (the key-check value, the wrapping key, the wrapped file key,
// the slot's layout) is the same for all types and lives in key_slot.cpp. The header code,
// unlock and info ask the kind; none of them names a type.
//
// A slot type is the adapter of one key kind (formats/keys/key_kind.hpp) to this format: a new
// one is one file (slot_NAME.cpp, defining its SlotKind), its code in SlotType (below), and one
// line in slot_kind_list.cpp.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "formats/common/kdf.hpp"
#include "formats/keys/key.hpp"
#include "formats/options.hpp"
#include "formats/warp/constants.hpp"

namespace warp::formats::warp_format {

// SPEC 4.1: the slot types' codes, the bytes of the format.
enum class SlotType : std::uint8_t { passphrase = 1, key_file = 2, x25519 = 3, mlkem768x25519 = 4 };

struct SlotFields;

struct SlotKind {
    SlotType type;
    KeyType key_type;  // the key kind it adapts: what it is made for and opened with
    std::string_view name;    // "passphrase", "key-file", "x25519": info and messages
    std::string_view secret;  // what opens it, in messages: "passphrase", "key file", "identity"
    // Version 2 (SPEC 4.1): the type's own fields, the first part of the body, before the
    // check and the wrapped key. Their first salt_size bytes salt the check and the wrap key
    // (SPEC 4.2): fresh for every slot.
    std::size_t fields_size;
    std::size_t salt_size;
    bool in_version1;   // SPEC 10: the type exists in version 1 headers (fields: salt || params)
    bool one_per_file;  // SPEC 4.3: a slot whose opening tests a guess (passphrase)

    // Encrypt: why `recipient` cannot get a slot of this type, or empty (checked before any
    // output is written).
    std::string (*recipient_problem)(const Secret& recipient);
    // Encrypt: writes a new slot's fields (fields_size bytes), drawing fresh randomness from
    // `random`, and derives s. Throws Error(usage) for a recipient no slot can be made for.
    void (*seal)(const Secret& recipient, const RandomFn& random, std::span<std::uint8_t> fields,
                 WipedKey& s);
    // Decrypt: derives s from a stored slot and an identity of this type; false when the
    // identity gives none (X25519: an all-zero shared secret). Runs Argon2id for passphrase
    // slots: check kdf() against the caps first.
    bool (*derive)(const SlotFields& slot, const Secret& identity, WipedKey& s);
    // Why a stored slot's fields are out of range (SPEC 7, item 3), or empty.
    std::string (*problem)(const SlotFields& slot);
    // The Argon2id cost one opening takes (SPEC 4.5), for the caps and for info; nullopt for
    // types that run no KDF.
    std::optional<KdfParams> (*kdf)(const SlotFields& slot);
    // What info adds about a slot of this type ("" for nothing).
    std::string_view info_note;

    std::size_t body_size() const { return fields_size + kSlotCheckSize + kWrappedKeySize; }
};

// The kinds this reader knows (slot_kind_list.cpp), in SlotType order.
std::span<const SlotKind* const> slot_kinds();
// The kind of a type byte, or nullptr for a type this reader does not know (SPEC 4.4).
const SlotKind* slot_kind_of(std::uint8_t type);
const SlotKind& slot_kind_of(SlotType type);  // a known type
// The kind that makes slots for keys of `type`, or nullptr (none in this format).
const SlotKind* slot_kind_for(KeyType type);

// The kinds, defined one per file (slot_passphrase.cpp, slot_key_file.cpp, slot_x25519.cpp).
extern const SlotKind kPassphraseSlot;
extern const SlotKind kKeyFileSlot;
extern const SlotKind kX25519Slot;
extern const SlotKind kHybridSlot;  // slot_mlkem768x25519.cpp: SPEC 4.8

}  // namespace warp::formats::warp_format
