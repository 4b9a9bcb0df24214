// SPEC 4.8: the ML-KEM-768 + X25519 slot, the warp format's adapter of age's post-quantum key
// kind. Fields: enc[1120], the hybrid KEM's encapsulation (ct_PQ || ct_X), fresh for every
// slot; it salts the check and the wrap key. s = HKDF(ss, enc || pk, "warpcrypt v2
// mlkem768x25519 slot"). The identity's seed gives the key pair, and the pair ss back.
// Nothing in the slot names the recipient: a reader tries each identity on each slot.
#include "formats/warp/slot_mlkem768x25519.hpp"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "engine/error.hpp"
#include "formats/keys/key_kind.hpp"
#include "formats/keys/pq/hybrid_key_cache.hpp"
#include "formats/warp/key_slot.hpp"
#include "formats/warp/slot_kind.hpp"

namespace warp::formats::warp_format {
namespace {

static_assert(kHybridEncSize == pq::kHybridEncSize);  // constants.hpp, without the KEM's header

void seal(const Secret& recipient, const RandomFn& random, std::span<std::uint8_t> fields,
          WipedKey& s) {
    pq::HybridPublicKey public_key{};
    std::copy_n(recipient.bytes.data(), pq::kHybridPublicKeySize, public_key.begin());
    // m, then the X25519 ephemeral secret (SPEC 4.8's order).
    SecretBytes randomness(pq::kHybridRandomSize);
    random(randomness.data(), randomness.size());
    pq::HybridEnc enc{};
    pq::HybridShared shared;
    if (!pq::hybrid_encapsulate(public_key, randomness.span().first<pq::kHybridRandomSize>(),
                                enc, shared))
        throw Error(ErrorCause::usage, kHybridKey.recipient_problem(recipient));
    std::copy(enc.begin(), enc.end(), fields.begin());
    hybrid_slot_secret(shared, enc, public_key, s);
}

bool derive(const SlotFields& slot, const Secret& identity, WipedKey& s) {
    // Expanded once per run, not once per slot tried (hybrid_key_cache.hpp).
    const std::shared_ptr<const pq::HybridKeyPair> key =
        pq::hybrid_expand_cached(identity.bytes.span().first<pq::kHybridSeedSize>());
    pq::HybridShared shared;
    // False only for an X25519 share of low order: the slot opens for no one (one outcome,
    // SPEC 4.3). A wrong identity gives a shared secret all the same (ML-KEM's implicit
    // rejection), which the check then refuses.
    if (!pq::hybrid_decapsulate(*key, slot.fields, shared)) return false;
    hybrid_slot_secret(shared, slot.fields, key->public_key, s);
    return true;
}

std::string recipient_problem(const Secret& recipient) {
    return kHybridKey.recipient_problem(recipient);
}
std::string no_problem(const SlotFields&) { return ""; }
std::optional<KdfParams> no_kdf(const SlotFields&) { return std::nullopt; }

}  // namespace

void hybrid_slot_secret(const pq::HybridShared& shared, std::span<const std::uint8_t> enc,
                        const pq::HybridPublicKey& public_key, WipedKey& s) {
    std::vector<std::uint8_t> salt(enc.begin(), enc.end());
    salt.insert(salt.end(), public_key.begin(), public_key.end());
    hkdf_sha256(shared.bytes, salt, label_bytes(kHybridSlotLabel), s.span());
}

const SlotKind kHybridSlot{
    .type = SlotType::mlkem768x25519,
    .key_type = KeyType::mlkem768x25519,
    .name = "mlkem768x25519",
    .secret = "post-quantum identity",
    .fields_size = kHybridEncSize,
    .salt_size = kHybridEncSize,
    .in_version1 = false,
    .one_per_file = false,
    .recipient_problem = recipient_problem,
    .seal = seal,
    .derive = derive,
    .problem = no_problem,
    .kdf = no_kdf,
    .info_note = "recipient not recorded: every post-quantum identity is tried",
};

}  // namespace warp::formats::warp_format
