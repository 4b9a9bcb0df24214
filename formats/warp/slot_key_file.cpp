// SPEC 4.1 and 4.2: the key-file slot. Fields: salt[16];
// s = HKDF(key_file_secret, salt, "warpcrypt v2 key-file slot"). Version 1 (SPEC 10): fields
// salt || 8 zero bytes, and the label "warpcrypt v1 key-file slot".
#include <algorithm>
#include <string>

#include "formats/warp/key_slot.hpp"
#include "formats/keys/key_file.hpp"
#include "formats/warp/slot_kind.hpp"

namespace warp::formats::warp_format {
namespace {

std::string_view label_for(std::uint8_t version) {
    return version == kVersion1 ? kV1KeyFileSlotLabel : kKeyFileSlotLabel;
}

std::string recipient_problem(const Secret& recipient) {
    if (recipient.bytes.size() != kKeyFileSecretSize)
        return "a key-file secret is " + std::to_string(kKeyFileSecretSize) + " bytes, not " +
               std::to_string(recipient.bytes.size());
    return "";
}

void seal(const Secret& recipient, const RandomFn& random, std::span<std::uint8_t> fields,
          WipedKey& s) {
    random(fields.data(), kSlotSaltSize);
    hkdf_sha256(recipient.bytes.span(), fields.first(kSlotSaltSize),
                label_bytes(label_for(kVersion)), s.span());
}

bool derive(const SlotFields& slot, const Secret& identity, WipedKey& s) {
    hkdf_sha256(identity.bytes.span(), slot.salt(), label_bytes(label_for(slot.version)),
                s.span());
    return true;
}

// Version 1 stored a params field in every slot; a key file's is zero.
std::string problem(const SlotFields& slot) {
    const bool params_zero = std::all_of(slot.fields.begin() + kSlotSaltSize, slot.fields.end(),
                                         [](std::uint8_t b) { return b == 0; });
    return params_zero ? "" : "key-file params are not zero";
}

std::optional<KdfParams> no_kdf(const SlotFields&) { return std::nullopt; }

}  // namespace

const SlotKind kKeyFileSlot{
    .type = SlotType::key_file,
    .key_type = KeyType::key_file,
    .name = "key-file",
    .secret = "key file",
    .fields_size = kSlotSaltSize,
    .salt_size = kSlotSaltSize,
    .in_version1 = true,
    .one_per_file = false,
    .recipient_problem = recipient_problem,
    .seal = seal,
    .derive = derive,
    .problem = problem,
    .kdf = no_kdf,
    .info_note = "",
};

}  // namespace warp::formats::warp_format
