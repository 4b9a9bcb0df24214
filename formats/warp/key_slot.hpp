// SPEC 4: key slots. A slot holds the file key sealed under a wrapping key that only the
// slot's secret derives (passphrase, key-file secret, X25519 identity: slot_kind.hpp says how
// each type derives s). Version 2 slots commit to that secret with a key-check value; version
// 1 slots (SPEC 10) are read for old files.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "engine/aead.hpp"
#include "formats/warp/constants.hpp"
#include "formats/warp/slot_kind.hpp"

namespace warp::formats::warp_format {

// A slot's fields as stored; the decoders do not judge them (header.cpp does).
struct SlotFields {
    std::uint8_t version = kVersion;  // of the header it came from: how it opens
    std::uint8_t type = 0;
    const SlotKind* kind = nullptr;   // nullptr: a type this reader does not know (SPEC 4.4)
    std::size_t body_size = 0;        // version 2: the length field
    std::vector<std::uint8_t> stored;  // the whole slot as stored (rekey keeps it as it is)
    // The type's own fields (slot_kind.hpp): salt || params, salt, or the ephemeral share.
    // Version 1: salt || params for both types. Empty when the body's size is not the type's.
    std::vector<std::uint8_t> fields;
    std::vector<std::uint8_t> aad;  // what the wrapping AEAD authenticates (SPEC 4.2)
    std::array<std::uint8_t, kSlotCheckSize> check{};  // version 2
    std::array<std::uint8_t, kWrappedKeySize> wrapped{};

    // A type this reader can open; slots of other types are skipped (SPEC 4.4).
    bool known() const { return kind != nullptr; }
    // What salts the check and the wrap key (SPEC 4.2): the first bytes of the fields.
    std::span<const std::uint8_t> salt() const { return {fields.data(), kind->salt_size}; }
};

// Version 2: `type`, and its `body` (the bytes after the length field). A body of the wrong
// size for a known type leaves the fields unread (slot_problem says so).
SlotFields decode_slot(std::uint8_t type, std::span<const std::uint8_t> body);
// Version 1 (SPEC 10): one 73-byte slot.
SlotFields decode_v1_slot(std::span<const std::uint8_t, kV1SlotSize> bytes);

// How many of `slots` are of `kind`.
std::size_t slots_of_kind(std::span<const SlotFields> slots, const SlotKind& kind);

// Why a slot of a known type is malformed (SPEC 7, item 3), or empty when it is fine.
std::string slot_problem(const SlotFields& slot);

// The slots a header will hold: those a rekey keeps (`kept`, their kinds, in order; none for a
// new file), then one for each of `added`. Refuses (Error(usage)) a count outside
// kMinSlots..kMaxSlots, a second slot of a one-per-file kind (SPEC 4.3), and a recipient no
// slot can be made for, before any key is tried. `rekey` words the messages for a change.
// `kept_indices`: where each kept slot is in the old header, for the messages.
void check_slot_plan(std::span<const SlotKind* const> kept, std::span<const Secret> added,
                     bool rekey, std::span<const std::size_t> kept_indices = {});

// Seals `file_key` for `recipient` with fresh randomness drawn from `random`: the whole
// version 2 slot, type and length included. Throws Error(usage) for a recipient no slot can
// be made for (an X25519 key of low order).
std::vector<std::uint8_t> make_slot(const Secret& recipient,
                                    std::span<const std::uint8_t, kFileKeySize> file_key,
                                    const AeadImpl& aead, const RandomFn& random);

// What open_slot does once the slot's type has derived s (slot_kind.hpp): the check, then
// the wrap key and the wrapped key (version 1: s is the wrap key). For the constant-time
// check, which runs it on a secret s of its own.
bool open_with_slot_secret(const SlotFields& slot, const WipedKey& s, const AeadImpl& aead,
                           std::span<std::uint8_t, kFileKeySize> file_key);

// Opens the slot with `secret` (of the slot's type); true and the file key in `file_key` when
// the key-check value matches (version 2) and the wrapped key authenticates. Runs Argon2id
// for passphrase slots: check the caps (SlotKind::kdf) first.
bool open_slot(const SlotFields& slot, const Secret& secret, const AeadImpl& aead,
               std::span<std::uint8_t, kFileKeySize> file_key);

}  // namespace warp::formats::warp_format
