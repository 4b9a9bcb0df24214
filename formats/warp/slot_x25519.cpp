// SPEC 4.6: the X25519 slot. Fields: E[32], the ephemeral share. A writer draws a fresh
// ephemeral secret e per slot; E = X25519(e, basepoint), shared = X25519(e, R) for the
// recipient R, refused when all zero; s = HKDF(shared, E || R, "warpcrypt v2 x25519 slot").
// The identity i reads shared = X25519(i, E) and R = X25519(i, basepoint). E salts the check
// and the wrap key. Nothing in the slot names R: a reader tries each identity on each slot.
#include "formats/slot_x25519.hpp"

#include <sodium.h>

#include <algorithm>
#include <string>

#include "engine/error.hpp"
#include "formats/key_slot.hpp"
#include "formats/slot_kind.hpp"

namespace warp::formats {
namespace {

X25519PublicKey key_of(std::span<const std::uint8_t> bytes) {
    X25519PublicKey key{};
    std::copy_n(bytes.begin(), kX25519KeySize, key.begin());
    return key;
}

std::string recipient_problem(const Secret& recipient) {
    if (recipient.bytes.size() != kX25519KeySize)
        return "an X25519 recipient is " + std::to_string(kX25519KeySize) + " bytes, not " +
               std::to_string(recipient.bytes.size());
    if (!x25519_canonical(key_of(recipient.bytes.span())))
        return "the recipient is not the canonical encoding of its X25519 point (u >= 2^255 - "
               "19 or bit 255 set), which no identity's recipient is: the file would open for "
               "no one";
    // A point of low order gives the all-zero shared secret with every scalar: with it, the
    // slot would be sealed under a key anyone can compute.
    std::array<std::uint8_t, kX25519KeySize> probe_scalar{};
    probe_scalar[0] = 9;
    X25519Secret shared;
    if (!x25519_shared_secret(probe_scalar, key_of(recipient.bytes.span()), shared.bytes))
        return "the recipient is an X25519 point of low order, for which no key agreement is "
               "secret";
    return "";
}

void seal(const Secret& recipient, const RandomFn& random, std::span<std::uint8_t> fields,
          WipedKey& s) {
    const X25519PublicKey recipient_key = key_of(recipient.bytes.span());
    X25519PublicKey share{};
    X25519Secret shared;
    if (!x25519_send(recipient_key, random, share, shared))
        throw Error(ErrorCause::usage, recipient_problem(recipient));
    std::copy(share.begin(), share.end(), fields.begin());
    x25519_slot_secret(shared.bytes, share, recipient_key, s);
}

bool derive(const SlotFields& slot, const Secret& identity, WipedKey& s) {
    const X25519PublicKey share = key_of(slot.fields);
    X25519PublicKey recipient{};
    X25519Secret shared;
    // All zero: E is of low order, and the slot opens for no one (one outcome, SPEC 4.3).
    if (!x25519_receive(identity.bytes, share, recipient, shared)) return false;
    x25519_slot_secret(shared.bytes, share, recipient, s);
    return true;
}

std::string no_problem(const SlotFields&) { return ""; }
std::optional<KdfParams> no_kdf(const SlotFields&) { return std::nullopt; }

}  // namespace

void x25519_hkdf(std::span<const std::uint8_t, kX25519KeySize> shared,
                 const X25519PublicKey& ephemeral_share, const X25519PublicKey& recipient,
                 std::string_view label, WipedKey& out) {
    std::array<std::uint8_t, 2 * kX25519KeySize> salt{};
    std::copy(ephemeral_share.begin(), ephemeral_share.end(), salt.begin());
    std::copy(recipient.begin(), recipient.end(), salt.begin() + kX25519KeySize);
    hkdf_sha256(shared, salt, label_bytes(label), out.span());
}

void x25519_slot_secret(std::span<const std::uint8_t, kX25519KeySize> shared,
                        const X25519PublicKey& ephemeral_share, const X25519PublicKey& recipient,
                        WipedKey& s) {
    x25519_hkdf(shared, ephemeral_share, recipient, kX25519SlotLabel, s);
}

bool x25519_send(const X25519PublicKey& recipient, const RandomFn& random,
                 X25519PublicKey& share, X25519Secret& shared) {
    X25519Secret ephemeral;
    random(ephemeral.bytes.data(), ephemeral.bytes.size());
    ensure_sodium();
    crypto_scalarmult_base(share.data(), ephemeral.bytes.data());
    return x25519_shared_secret(ephemeral.bytes, recipient, shared.bytes);
}

bool x25519_receive(const SecretBytes& identity, const X25519PublicKey& share,
                    X25519PublicKey& recipient, X25519Secret& shared) {
    recipient = x25519_public_key(identity);  // checks the size
    return x25519_shared_secret(identity.span().first<kX25519KeySize>(), share, shared.bytes);
}

bool x25519_shared_secret(std::span<const std::uint8_t, kX25519KeySize> scalar,
                          const X25519PublicKey& point,
                          std::span<std::uint8_t, kX25519KeySize> shared) {
    ensure_sodium();
    // libsodium returns -1 for the all-zero result (checked there in constant time).
    return crypto_scalarmult(shared.data(), scalar.data(), point.data()) == 0;
}

const SlotKind kX25519Slot{
    .type = SlotType::x25519,
    .name = "x25519",
    .secret = "identity",
    .fields_size = kX25519KeySize,
    .salt_size = kX25519KeySize,
    .in_version1 = false,
    .one_per_file = false,
    .recipient_problem = recipient_problem,
    .seal = seal,
    .derive = derive,
    .problem = no_problem,
    .kdf = no_kdf,
    .info_note = "recipient not recorded: no fingerprint is stored, so every identity is tried",
};

}  // namespace warp::formats
