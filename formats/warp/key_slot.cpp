// SPEC 4: key slots (version 2), and SPEC 10: version 1 slots, read for old files. What every
// type shares: the layout, the check, the wrap key and the wrapped file key. How a type gets
// its s from its secret is the type's own (slot_kind.hpp).
#include "formats/warp/key_slot.hpp"

#include <algorithm>

#include "engine/aead_key.hpp"
#include "engine/error.hpp"
#include "formats/common/big_endian.hpp"
#include "formats/common/kdf.hpp"
#include "formats/keys/key_kind.hpp"

namespace warp::formats::warp_format {
namespace {

// Every wrapping key seals exactly one message (its salt is fresh), so the nonce is zero.
constexpr std::array<std::uint8_t, kNonceSize> kWrapNonce{};

// SPEC 4.2: check = HKDF(s, salt, "warpcrypt v2 slot check"), wrap_key = HKDF(s, salt,
// "warpcrypt v2 slot wrap").
void derive_check(const WipedKey& s, const SlotFields& slot,
                  std::span<std::uint8_t, kSlotCheckSize> check) {
    hkdf_sha256(s.span(), slot.salt(), label_bytes(kSlotCheckLabel), check);
}
void derive_wrap_key(const WipedKey& s, const SlotFields& slot, WipedKey& wrap_key) {
    hkdf_sha256(s.span(), slot.salt(), label_bytes(kSlotWrapLabel), wrap_key.span());
}

}  // namespace

SlotFields decode_slot(std::uint8_t type, std::span<const std::uint8_t> body) {
    SlotFields slot;
    slot.version = kVersion2;
    slot.type = type;
    slot.kind = slot_kind_of(type);
    slot.body_size = body.size();
    if (!slot.known() || body.size() != slot.kind->body_size()) return slot;
    const std::size_t fields_size = slot.kind->fields_size;
    slot.fields.assign(body.begin(), body.begin() + static_cast<std::ptrdiff_t>(fields_size));
    std::copy_n(body.begin() + static_cast<std::ptrdiff_t>(fields_size), kSlotCheckSize,
                slot.check.begin());
    const std::size_t prefix = fields_size + kSlotCheckSize;
    std::copy_n(body.begin() + static_cast<std::ptrdiff_t>(prefix), kWrappedKeySize,
                slot.wrapped.begin());
    // The AAD: every byte of the slot before the wrapped key, type and length included.
    slot.aad.resize(kSlotTypeAndLengthSize + prefix);
    slot.aad[0] = type;
    store_be<std::uint16_t>(slot.aad.data() + 1, static_cast<std::uint16_t>(body.size()));
    std::copy_n(body.data(), prefix, slot.aad.data() + kSlotTypeAndLengthSize);
    return slot;
}

SlotFields decode_v1_slot(std::span<const std::uint8_t, kV1SlotSize> bytes) {
    constexpr std::size_t kFieldsOffset = 1;  // salt || params
    constexpr std::size_t kWrappedOffset = kFieldsOffset + kSlotSaltSize + kSlotParamsSize;
    static_assert(kWrappedOffset == kV1SlotPrefixSize);
    SlotFields slot;
    slot.version = kVersion1;
    slot.type = bytes[0];
    const SlotKind* kind = slot_kind_of(bytes[0]);
    slot.kind = kind != nullptr && kind->in_version1 ? kind : nullptr;
    slot.body_size = kV1SlotSize - 1;
    slot.fields.assign(bytes.begin() + kFieldsOffset, bytes.begin() + kWrappedOffset);
    slot.aad.assign(bytes.begin(), bytes.begin() + kV1SlotPrefixSize);
    std::copy_n(bytes.begin() + kWrappedOffset, kWrappedKeySize, slot.wrapped.begin());
    return slot;
}

std::size_t slots_of_kind(std::span<const SlotFields> slots, const SlotKind& kind) {
    return static_cast<std::size_t>(std::count_if(
        slots.begin(), slots.end(), [&](const SlotFields& slot) { return slot.kind == &kind; }));
}

std::string slot_problem(const SlotFields& slot) {
    if (slot.version == kVersion2 && slot.body_size != slot.kind->body_size())
        return std::string(std::string_view("aeiox").find(slot.kind->name[0]) ==
                                   std::string_view::npos
                               ? "a "
                               : "an ") +  // "an x25519 slot"
               std::string(slot.kind->name) + " slot is " +
               std::to_string(slot.kind->body_size()) + " bytes, not " +
               std::to_string(slot.body_size);
    return slot.kind->problem(slot);
}

void check_slot_plan(std::span<const SlotKind* const> kept, std::span<const Secret> added,
                     bool rekey, std::span<const std::size_t> kept_indices) {
    auto refuse = [](const std::string& what) { throw Error(ErrorCause::usage, what); };
    const std::size_t after = kept.size() + added.size();
    if (rekey && after < kMinSlots)
        refuse("that would remove the last key slot, and a file needs one to open");
    if (after < kMinSlots || after > kMaxSlots)
        refuse("a file holds " + std::to_string(kMinSlots) + " to " + std::to_string(kMaxSlots) +
               " key slots" +
               (rekey ? ", and this would leave " + std::to_string(after)
                      : "; " + std::to_string(after) + " were asked for"));
    for (const SlotKind* kind : slot_kinds()) {
        if (!kind->one_per_file) continue;
        const auto first_kept = std::find(kept.begin(), kept.end(), kind);
        const auto n_added = std::count_if(added.begin(), added.end(), [&](const Secret& s) {
            return s.type == kind->key_type;
        });
        const std::size_t n =
            static_cast<std::size_t>(std::count(kept.begin(), kept.end(), kind) + n_added);
        if (n <= kMaxPassphraseSlots) continue;
        if (rekey && first_kept != kept.end() && n_added > 0)
            refuse("the file has a " + std::string(kind->name) + " slot already (key slot " +
                   std::to_string(kept_indices[static_cast<std::size_t>(first_kept - kept.begin())] + 1) +
                   "), and a file holds one at most; remove it in the same rekey to replace it");
        refuse("a file holds at most one " + std::string(kind->name) + " slot" +
               (rekey ? std::string()
                      : "; " + std::to_string(n) + " " + std::string(kind->secret) +
                            "s were given"));
    }
    std::vector<KeyType> kept_kinds, added_kinds;
    for (const SlotKind* kind : kept)
        if (kind) kept_kinds.push_back(kind->key_type);
    for (const Secret& r : added) added_kinds.push_back(r.type);
    if (std::string why = rekey_mix_problem(kept_kinds, added_kinds, rekey ? "slots" : "");
        !why.empty())
        refuse(why);
    for (std::size_t i = 0; i < added.size(); ++i) {
        const SlotKind* kind = slot_kind_for(added[i].type);
        if (kind == nullptr)
            refuse("the warp format has no slot for " + std::string(key_kind_of(added[i].type).name) +
                   " keys, which are age's: write an age file (--format age)");
        if (std::string why = kind->recipient_problem(added[i]); !why.empty())
            refuse("key slot " + std::to_string(kept.size() + i + 1) + ": " + why);
    }
}

std::vector<std::uint8_t> make_slot(const Secret& recipient,
                                    std::span<const std::uint8_t, kFileKeySize> file_key,
                                    const AeadImpl& aead, const RandomFn& random) {
    const SlotKind& kind = *slot_kind_for(recipient.type);  // check_slot_plan: one exists
    const std::size_t body_size = kind.body_size();
    std::vector<std::uint8_t> bytes(kSlotTypeAndLengthSize + body_size);
    bytes[0] = static_cast<std::uint8_t>(kind.type);
    store_be<std::uint16_t>(bytes.data() + 1, static_cast<std::uint16_t>(body_size));
    std::uint8_t* p = bytes.data() + kSlotTypeAndLengthSize;
    WipedKey s, wrap_key;
    kind.seal(recipient, random, {p, kind.fields_size}, s);
    p += kind.fields_size;
    const SlotFields fields =
        decode_slot(bytes[0], {bytes.data() + kSlotTypeAndLengthSize, body_size});
    derive_check(s, fields, std::span<std::uint8_t, kSlotCheckSize>(p, kSlotCheckSize));
    derive_wrap_key(s, fields, wrap_key);
    p += kSlotCheckSize;
    const AeadKey key(aead, wrap_key.span());
    const AeadChunk chunk{kWrapNonce.data(), kWrapNonce.size(), bytes.data(),
                          static_cast<std::size_t>(p - bytes.data()),
                          file_key.data(), p, kFileKeySize, p + kFileKeySize};
    key.seal({&chunk, 1});
    return bytes;
}

bool open_slot(const SlotFields& slot, const Secret& secret, const AeadImpl& aead,
               std::span<std::uint8_t, kFileKeySize> file_key) {
    WipedKey s;
    if (!slot.kind->derive(slot, secret, s)) return false;
    return open_with_slot_secret(slot, s, aead, file_key);
}

bool open_with_slot_secret(const SlotFields& slot, const WipedKey& s, const AeadImpl& aead,
                           std::span<std::uint8_t, kFileKeySize> file_key) {
    WipedKey wrap_key;
    if (slot.version == kVersion1) {
        // SPEC 10: s was the wrapping key itself.
        std::copy_n(s.data(), kKeySize, wrap_key.data());
    } else {
        // The commitment: only the one s whose check is stored opens the slot (SPEC 4.3).
        WipedKey check;
        derive_check(s, slot, check.span());
        if (!equal_in_constant_time(check.data(), slot.check.data(), kSlotCheckSize))
            return false;
        derive_wrap_key(s, slot, wrap_key);
    }
    const AeadKey key(aead, wrap_key.span());
    // AeadChunk's tag pointer is writable (seal writes it); open only reads this copy.
    std::array<std::uint8_t, kWrappedKeySize> wrapped = slot.wrapped;
    const AeadChunk chunk{kWrapNonce.data(), kWrapNonce.size(), slot.aad.data(), slot.aad.size(),
                          wrapped.data(), file_key.data(), kFileKeySize,
                          wrapped.data() + kFileKeySize};
    bool ok = false;
    key.open({&chunk, 1}, &ok);
    return ok;
}

}  // namespace warp::formats::warp_format
