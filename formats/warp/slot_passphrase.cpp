// SPEC 4.1 and 4.2: the passphrase slot. Fields: salt[16] || u32 passes || u32 memory_kib;
// s = Argon2id(passphrase, salt, passes, memory_kib). The same in version 1 (SPEC 10).
#include <string>

#include "formats/common/big_endian.hpp"
#include "formats/warp/key_slot.hpp"
#include "formats/warp/slot_kind.hpp"

namespace warp::formats::warp_format {
namespace {

constexpr std::size_t kParamsOffset = kSlotSaltSize;

std::string params_problem(const KdfParams& kdf) {
    if (kdf.passes < kMinKdfPasses || kdf.passes > kMaxKdfPasses)
        return "Argon2id passes outside " + bounds_text(kMinKdfPasses, kMaxKdfPasses);
    if (kdf.memory_kib < kMinKdfMemoryKib || kdf.memory_kib > kMaxKdfMemoryKib)
        return "Argon2id memory outside " + kdf_memory_bounds_text();
    return "";
}

KdfParams stored_params(const SlotFields& slot) {
    return {load_be<std::uint32_t>(slot.fields.data() + kParamsOffset),
            load_be<std::uint32_t>(slot.fields.data() + kParamsOffset + 4)};
}

std::span<const std::uint8_t, kSlotSaltSize> salt_of(std::span<const std::uint8_t> fields) {
    return fields.first<kSlotSaltSize>();
}

std::string recipient_problem(const Secret& recipient) {
    const KdfParams& kdf = recipient.kdf;
    if (kdf.passes < kMinKdfPasses || kdf.passes > kMaxKdfPasses)
        return "Argon2id passes must be " + bounds_text(kMinKdfPasses, kMaxKdfPasses) +
               ", not " + std::to_string(kdf.passes);
    if (kdf.memory_kib < kMinKdfMemoryKib || kdf.memory_kib > kMaxKdfMemoryKib)
        return "Argon2id memory must be " + kdf_memory_bounds_text() + ", not " +
               std::to_string(kdf.memory_kib) + " KiB";
    return "";
}

void seal(const Secret& recipient, const RandomFn& random, std::span<std::uint8_t> fields,
          WipedKey& s) {
    random(fields.data(), kSlotSaltSize);
    store_be<std::uint32_t>(fields.data() + kParamsOffset, recipient.kdf.passes);
    store_be<std::uint32_t>(fields.data() + kParamsOffset + 4, recipient.kdf.memory_kib);
    argon2id(recipient.bytes.span(), salt_of(fields), recipient.kdf.passes,
             recipient.kdf.memory_kib, s.span());
}

bool derive(const SlotFields& slot, const Secret& identity, WipedKey& s) {
    const KdfParams kdf = stored_params(slot);
    argon2id(identity.bytes.span(), salt_of(slot.fields), kdf.passes, kdf.memory_kib, s.span());
    return true;
}

std::string problem(const SlotFields& slot) { return params_problem(stored_params(slot)); }

std::optional<KdfParams> kdf(const SlotFields& slot) { return stored_params(slot); }

}  // namespace

const SlotKind kPassphraseSlot{
    .type = SlotType::passphrase,
    .key_type = KeyType::passphrase,
    .name = "passphrase",
    .secret = "passphrase",
    .fields_size = kSlotSaltSize + kSlotParamsSize,
    .salt_size = kSlotSaltSize,
    .in_version1 = true,
    .one_per_file = true,
    .recipient_problem = recipient_problem,
    .seal = seal,
    .derive = derive,
    .problem = problem,
    .kdf = kdf,
    .info_note = "",
};

}  // namespace warp::formats::warp_format
