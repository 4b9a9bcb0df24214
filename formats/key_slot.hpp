// SPEC 4: key slots. A slot holds the file key sealed under a wrapping key that only the
// slot's secret (passphrase or key-file secret) derives.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "engine/aead.hpp"
#include "formats/constants.hpp"
#include "formats/container.hpp"

namespace warp::format {

using SlotBytes = std::array<std::uint8_t, kSlotSize>;

// A slot's fields as stored; decode_slot does not judge them (header.cpp does).
struct SlotFields {
    std::uint8_t type = 0;
    std::array<std::uint8_t, kSlotSaltSize> salt{};
    KdfParams kdf{0, 0};  // the params field, read as passphrase params whatever the type
    std::array<std::uint8_t, kSlotPrefixSize> prefix{};  // type || salt || params: the AAD
    std::array<std::uint8_t, kWrappedKeySize> wrapped{};
};

SlotFields decode_slot(std::span<const std::uint8_t, kSlotSize> bytes);

// Why the slot's fields are out of range (SPEC 7, item 3), or nullptr when they are fine.
// The type must be known already.
const char* slot_params_problem(const SlotFields& slot);

// Seals `file_key` for `recipient` with a fresh salt drawn from `random`.
SlotBytes make_slot(const Secret& recipient, std::span<const std::uint8_t, kFileKeySize> file_key,
                    const AeadImpl& aead, const RandomFn& random);

// Opens the slot with `secret` (of the slot's type); true and the file key in `file_key` when
// it authenticates. Runs Argon2id for passphrase slots: check the memory cap first.
bool open_slot(const SlotFields& slot, const Secret& secret, const AeadImpl& aead,
               std::span<std::uint8_t, kFileKeySize> file_key);

}  // namespace warp::format
