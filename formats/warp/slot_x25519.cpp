// SPEC 4.6: the X25519 slot. Fields: E[32], the ephemeral share. A writer draws a fresh
// ephemeral secret e per slot; E = X25519(e, basepoint), shared = X25519(e, R) for the
// recipient R, refused when all zero; s = HKDF(shared, E || R, "warpcrypt v2 x25519 slot").
// The identity i reads shared = X25519(i, E) and R = X25519(i, basepoint). E salts the check
// and the wrap key. Nothing in the slot names R: a reader tries each identity on each slot.
#include "formats/warp/slot_x25519.hpp"

#include <algorithm>
#include <string>

#include "engine/error.hpp"
#include "formats/warp/key_slot.hpp"
#include "formats/warp/slot_kind.hpp"

namespace warp::formats::warp_format {
namespace {

void seal(const Secret& recipient, const RandomFn& random, std::span<std::uint8_t> fields,
          WipedKey& s) {
    const X25519PublicKey recipient_key = x25519_key_of(recipient.bytes.span());
    X25519PublicKey share{};
    X25519Secret shared;
    if (!x25519_send(recipient_key, random, share, shared))
        throw Error(ErrorCause::usage, x25519_recipient_problem(recipient));
    std::copy(share.begin(), share.end(), fields.begin());
    x25519_slot_secret(shared.bytes, share, recipient_key, s);
}

bool derive(const SlotFields& slot, const Secret& identity, WipedKey& s) {
    const X25519PublicKey share = x25519_key_of(slot.fields);
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

void x25519_slot_secret(std::span<const std::uint8_t, kX25519KeySize> shared,
                        const X25519PublicKey& ephemeral_share, const X25519PublicKey& recipient,
                        WipedKey& s) {
    x25519_hkdf(shared, ephemeral_share, recipient, kX25519SlotLabel, s);
}

const SlotKind kX25519Slot{
    .type = SlotType::x25519,
    .key_type = KeyType::x25519,
    .name = "x25519",
    .secret = "X25519 identity",
    .fields_size = kX25519KeySize,
    .salt_size = kX25519KeySize,
    .in_version1 = false,
    .one_per_file = false,
    .recipient_problem = x25519_recipient_problem,
    .seal = seal,
    .derive = derive,
    .problem = no_problem,
    .kdf = no_kdf,
    .info_note = "recipient not recorded: no fingerprint is stored, so every identity is tried",
};

}  // namespace warp::formats::warp_format
