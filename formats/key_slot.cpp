// SPEC 4: key slots (version 2), and SPEC 10: version 1 slots, read for old files.
#include "formats/key_slot.hpp"

#include <algorithm>

#include "engine/aead_key.hpp"
#include "engine/error.hpp"
#include "formats/big_endian.hpp"
#include "formats/kdf.hpp"

namespace warp::formats {
namespace {

// Every wrapping key seals exactly one message (its salt is fresh), so the nonce is zero.
constexpr std::array<std::uint8_t, kNonceSize> kWrapNonce{};

std::span<const std::uint8_t> label_bytes(std::string_view label) {
    return {reinterpret_cast<const std::uint8_t*>(label.data()), label.size()};
}

std::size_t expected_body_size(const SlotFields& slot) {
    return slot.is_passphrase() ? kPassphraseSlotBodySize : kKeyFileSlotBodySize;
}

// SPEC 4.2: the slot secret s. Version 1 used it as the wrapping key itself.
void derive_slot_secret(const SlotFields& slot, const SecretBytes& secret, WipedKey& out) {
    if (slot.is_passphrase()) {
        argon2id(secret.span(), slot.salt, slot.kdf.passes, slot.kdf.memory_kib, out.span());
        return;
    }
    const std::string_view label = slot.version == kVersion1 ? kV1KeyFileSlotLabel
                                                              : kKeyFileSlotLabel;
    hkdf_sha256(secret.span(), slot.salt, label_bytes(label), out.span());
}

// SPEC 4.2: check = HKDF(s, salt, "warpcrypt v2 slot check"), wrap_key = HKDF(s, salt,
// "warpcrypt v2 slot wrap").
void derive_check(const WipedKey& s, const SlotFields& slot,
                  std::span<std::uint8_t, kSlotCheckSize> check) {
    hkdf_sha256(s.span(), slot.salt, label_bytes(kSlotCheckLabel), check);
}
void derive_wrap_key(const WipedKey& s, const SlotFields& slot, WipedKey& wrap_key) {
    hkdf_sha256(s.span(), slot.salt, label_bytes(kSlotWrapLabel), wrap_key.span());
}

}  // namespace

SlotFields decode_slot(std::uint8_t type, std::span<const std::uint8_t> body) {
    SlotFields slot;
    slot.version = kVersion2;
    slot.type = type;
    slot.body_size = body.size();
    if (!slot.known() || body.size() != expected_body_size(slot)) return slot;
    std::size_t at = 0;
    std::copy_n(body.begin(), kSlotSaltSize, slot.salt.begin());
    at += kSlotSaltSize;
    if (slot.is_passphrase()) {
        slot.kdf.passes = load_be<std::uint32_t>(body.data() + at);
        slot.kdf.memory_kib = load_be<std::uint32_t>(body.data() + at + 4);
        at += kSlotParamsSize;
    }
    std::copy_n(body.begin() + static_cast<std::ptrdiff_t>(at), kSlotCheckSize, slot.check.begin());
    at += kSlotCheckSize;
    std::copy_n(body.begin() + static_cast<std::ptrdiff_t>(at), kWrappedKeySize,
                slot.wrapped.begin());
    // The AAD: every byte of the slot before the wrapped key, type and length included.
    slot.aad.resize(kSlotTypeAndLengthSize + at);
    slot.aad[0] = type;
    store_be<std::uint16_t>(slot.aad.data() + 1, static_cast<std::uint16_t>(body.size()));
    std::copy_n(body.data(), at, slot.aad.data() + kSlotTypeAndLengthSize);
    return slot;
}

SlotFields decode_v1_slot(std::span<const std::uint8_t, kV1SlotSize> bytes) {
    constexpr std::size_t kSaltOffset = 1;
    constexpr std::size_t kPassesOffset = kSaltOffset + kSlotSaltSize;
    constexpr std::size_t kMemoryOffset = kPassesOffset + 4;
    constexpr std::size_t kWrappedOffset = kMemoryOffset + 4;
    static_assert(kWrappedOffset == kV1SlotPrefixSize);
    SlotFields slot;
    slot.version = kVersion1;
    slot.type = bytes[0];
    slot.body_size = kV1SlotSize - 1;
    std::copy_n(bytes.begin() + kSaltOffset, kSlotSaltSize, slot.salt.begin());
    slot.kdf.passes = load_be<std::uint32_t>(bytes.data() + kPassesOffset);
    slot.kdf.memory_kib = load_be<std::uint32_t>(bytes.data() + kMemoryOffset);
    slot.aad.assign(bytes.begin(), bytes.begin() + kV1SlotPrefixSize);
    std::copy_n(bytes.begin() + kWrappedOffset, kWrappedKeySize, slot.wrapped.begin());
    return slot;
}

std::string slot_problem(const SlotFields& slot) {
    if (slot.version == kVersion2 && slot.body_size != expected_body_size(slot))
        return std::string(slot.is_passphrase() ? "a passphrase" : "a key-file") + " slot is " +
               std::to_string(expected_body_size(slot)) + " bytes, not " +
               std::to_string(slot.body_size);
    if (!slot.is_passphrase())
        return slot.version == kVersion1 && (slot.kdf.passes != 0 || slot.kdf.memory_kib != 0)
                   ? "key-file params are not zero"
                   : "";
    if (slot.kdf.passes < kMinKdfPasses || slot.kdf.passes > kMaxKdfPasses)
        return "Argon2id passes outside " + bounds_text(kMinKdfPasses, kMaxKdfPasses);
    if (slot.kdf.memory_kib < kMinKdfMemoryKib || slot.kdf.memory_kib > kMaxKdfMemoryKib)
        return "Argon2id memory outside " + kdf_memory_bounds_text();
    return "";
}

std::vector<std::uint8_t> make_slot(const Secret& recipient,
                                    std::span<const std::uint8_t, kFileKeySize> file_key,
                                    const AeadImpl& aead, const RandomFn& random) {
    const bool passphrase = recipient.type == SlotType::passphrase;
    const std::size_t body_size = passphrase ? kPassphraseSlotBodySize : kKeyFileSlotBodySize;
    std::vector<std::uint8_t> bytes(kSlotTypeAndLengthSize + body_size);
    bytes[0] = static_cast<std::uint8_t>(recipient.type);
    store_be<std::uint16_t>(bytes.data() + 1, static_cast<std::uint16_t>(body_size));
    std::uint8_t* p = bytes.data() + kSlotTypeAndLengthSize;
    random(p, kSlotSaltSize);
    p += kSlotSaltSize;
    if (passphrase) {
        store_be<std::uint32_t>(p, recipient.kdf.passes);
        store_be<std::uint32_t>(p + 4, recipient.kdf.memory_kib);
        p += kSlotParamsSize;
    }
    const SlotFields fields =
        decode_slot(bytes[0], {bytes.data() + kSlotTypeAndLengthSize, body_size});
    WipedKey s, wrap_key;
    derive_slot_secret(fields, recipient.bytes, s);
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
    WipedKey s, wrap_key;
    derive_slot_secret(slot, secret.bytes, s);
    if (slot.version == kVersion1) {
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

}  // namespace warp::formats
