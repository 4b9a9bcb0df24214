// SPEC 4: key slots.
#include "formats/key_slot.hpp"

#include <algorithm>

#include "engine/aead_key.hpp"
#include "engine/error.hpp"
#include "formats/big_endian.hpp"
#include "formats/kdf.hpp"

namespace warp::format {
namespace {

constexpr std::size_t kTypeOffset = 0;
constexpr std::size_t kSaltOffset = kTypeOffset + 1;
constexpr std::size_t kPassesOffset = kSaltOffset + kSlotSaltSize;
constexpr std::size_t kMemoryOffset = kPassesOffset + 4;
constexpr std::size_t kWrappedOffset = kMemoryOffset + 4;
static_assert(kWrappedOffset == kSlotPrefixSize && kWrappedOffset + kWrappedKeySize == kSlotSize);

// Every wrapping key seals exactly one message (its salt is fresh), so the nonce is zero.
constexpr std::array<std::uint8_t, kNonceSize> kWrapNonce{};

void derive_wrap_key(std::uint8_t type, std::span<const std::uint8_t, kSlotSaltSize> salt,
                     const KdfParams& kdf, const SecretBytes& secret, WipedKey& wrap_key) {
    if (type == static_cast<std::uint8_t>(SlotType::passphrase)) {
        argon2id(secret.span(), salt, kdf.passes, kdf.memory_kib, wrap_key.span());
        return;
    }
    const std::string_view label = kKeyFileSlotLabel;
    hkdf_sha256(secret.span(), salt,
                {reinterpret_cast<const std::uint8_t*>(label.data()), label.size()},
                wrap_key.span());
}

}  // namespace

SlotFields decode_slot(std::span<const std::uint8_t, kSlotSize> bytes) {
    SlotFields slot;
    slot.type = bytes[kTypeOffset];
    std::copy_n(bytes.begin() + kSaltOffset, kSlotSaltSize, slot.salt.begin());
    slot.kdf.passes = load_be<std::uint32_t>(bytes.data() + kPassesOffset);
    slot.kdf.memory_kib = load_be<std::uint32_t>(bytes.data() + kMemoryOffset);
    std::copy_n(bytes.begin(), kSlotPrefixSize, slot.prefix.begin());
    std::copy_n(bytes.begin() + kWrappedOffset, kWrappedKeySize, slot.wrapped.begin());
    return slot;
}

const char* slot_params_problem(const SlotFields& slot) {
    if (slot.type == static_cast<std::uint8_t>(SlotType::key_file))
        return slot.kdf.passes == 0 && slot.kdf.memory_kib == 0 ? nullptr
                                                                 : "key-file params are not zero";
    if (slot.kdf.passes < kMinKdfPasses || slot.kdf.passes > kMaxKdfPasses)
        return "Argon2id passes outside 1..16";
    if (slot.kdf.memory_kib < kMinKdfMemoryKib || slot.kdf.memory_kib > kMaxKdfMemoryKib)
        return "Argon2id memory outside 8 KiB..4 GiB";
    return nullptr;
}

SlotBytes make_slot(const Secret& recipient, std::span<const std::uint8_t, kFileKeySize> file_key,
                    const AeadImpl& aead, const RandomFn& random) {
    const bool passphrase = recipient.type == SlotType::passphrase;
    SlotBytes bytes{};
    bytes[kTypeOffset] = static_cast<std::uint8_t>(recipient.type);
    random(bytes.data() + kSaltOffset, kSlotSaltSize);
    store_be<std::uint32_t>(bytes.data() + kPassesOffset, passphrase ? recipient.kdf.passes : 0);
    store_be<std::uint32_t>(bytes.data() + kMemoryOffset,
                            passphrase ? recipient.kdf.memory_kib : 0);

    const SlotFields fields = decode_slot(bytes);
    WipedKey wrap_key;
    derive_wrap_key(fields.type, fields.salt, fields.kdf, recipient.bytes, wrap_key);
    const AeadKey key(aead, wrap_key.span());
    std::uint8_t* wrapped = bytes.data() + kWrappedOffset;
    const AeadChunk chunk{kWrapNonce.data(), kWrapNonce.size(), bytes.data(), kSlotPrefixSize,
                          file_key.data(), wrapped, kFileKeySize, wrapped + kFileKeySize};
    key.seal({&chunk, 1});
    return bytes;
}

bool open_slot(const SlotFields& slot, const Secret& secret, const AeadImpl& aead,
               std::span<std::uint8_t, kFileKeySize> file_key) {
    WipedKey wrap_key;
    derive_wrap_key(slot.type, slot.salt, slot.kdf, secret.bytes, wrap_key);
    const AeadKey key(aead, wrap_key.span());
    // AeadChunk's tag pointer is writable (seal writes it); open only reads this copy.
    std::array<std::uint8_t, kWrappedKeySize> wrapped = slot.wrapped;
    const AeadChunk chunk{kWrapNonce.data(), kWrapNonce.size(), slot.prefix.data(),
                          slot.prefix.size(), wrapped.data(), file_key.data(),
                          kFileKeySize, wrapped.data() + kFileKeySize};
    bool ok = false;
    key.open({&chunk, 1}, &ok);
    return ok;
}

}  // namespace warp::format
