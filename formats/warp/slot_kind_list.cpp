// SPEC 4.1: the slot types this reader knows, one line each (slot_kind.hpp).
#include "formats/warp/slot_kind.hpp"

#include <array>

namespace warp::formats::warp_format {
namespace {

constexpr std::array<const SlotKind*, 4> kKinds = {
    &kPassphraseSlot,  // 1, slot_passphrase.cpp
    &kKeyFileSlot,     // 2, slot_key_file.cpp
    &kX25519Slot,      // 3, slot_x25519.cpp
    &kHybridSlot,      // 4, slot_mlkem768x25519.cpp
};

}  // namespace

std::span<const SlotKind* const> slot_kinds() { return kKinds; }

const SlotKind* slot_kind_of(std::uint8_t type) {
    for (const SlotKind* kind : kKinds)
        if (static_cast<std::uint8_t>(kind->type) == type) return kind;
    return nullptr;
}

const SlotKind& slot_kind_of(SlotType type) {
    return *slot_kind_of(static_cast<std::uint8_t>(type));
}

const SlotKind* slot_kind_for(KeyType type) {
    for (const SlotKind* kind : kKinds)
        if (kind->key_type == type) return kind;
    return nullptr;
}

}  // namespace warp::formats::warp_format
