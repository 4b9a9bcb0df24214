// SPEC 4: key slots. A slot holds the file key sealed under a wrapping key that only the
// slot's secret (passphrase or key-file secret) derives. Version 2 slots commit to that
// secret with a key-check value; version 1 slots (SPEC 10) are read for old files.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "engine/aead.hpp"
#include "formats/constants.hpp"
#include "formats/container.hpp"

namespace warp::formats {

// A slot's fields as stored; the decoders do not judge them (header.cpp does).
struct SlotFields {
    std::uint8_t version = kVersion;  // of the header it came from: how it opens
    std::uint8_t type = 0;
    std::size_t body_size = 0;        // version 2: the length field
    std::array<std::uint8_t, kSlotSaltSize> salt{};
    KdfParams kdf{0, 0};  // the params field, read as passphrase params whatever the type
    std::vector<std::uint8_t> aad;  // what the wrapping AEAD authenticates (SPEC 4.2)
    std::array<std::uint8_t, kSlotCheckSize> check{};  // version 2
    std::array<std::uint8_t, kWrappedKeySize> wrapped{};

    // A type this reader can open; slots of other types are skipped (SPEC 4.4).
    bool known() const {
        return type == static_cast<std::uint8_t>(SlotType::passphrase) ||
               type == static_cast<std::uint8_t>(SlotType::key_file);
    }
    bool is_passphrase() const { return type == static_cast<std::uint8_t>(SlotType::passphrase); }
};

// Version 2: `type`, and its `body` (the bytes after the length field). A body of the wrong
// size for a known type leaves the fields unread (slot_problem says so).
SlotFields decode_slot(std::uint8_t type, std::span<const std::uint8_t> body);
// Version 1 (SPEC 10): one 73-byte slot.
SlotFields decode_v1_slot(std::span<const std::uint8_t, kV1SlotSize> bytes);

// Why a slot of a known type is malformed (SPEC 7, item 3), or empty when it is fine.
std::string slot_problem(const SlotFields& slot);

// Seals `file_key` for `recipient` with a fresh salt drawn from `random`: the whole version 2
// slot, type and length included.
std::vector<std::uint8_t> make_slot(const Secret& recipient,
                                    std::span<const std::uint8_t, kFileKeySize> file_key,
                                    const AeadImpl& aead, const RandomFn& random);

// Opens the slot with `secret` (of the slot's type); true and the file key in `file_key` when
// the key-check value matches (version 2) and the wrapped key authenticates. Runs Argon2id
// for passphrase slots: check the caps first.
bool open_slot(const SlotFields& slot, const Secret& secret, const AeadImpl& aead,
               std::span<std::uint8_t, kFileKeySize> file_key);

}  // namespace warp::formats
