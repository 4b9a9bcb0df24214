// age.md, "The MLKEM768-X25519 hybrid recipient type": "-> mlkem768x25519 <enc>", enc the
// 1120-byte encapsulation of HPKE (RFC 9180) base mode with the MLKEM768-X25519 KEM,
// HKDF-SHA256 and ChaCha20-Poly1305 under the info "age-encryption.org/mlkem768x25519"; the
// body is the file key sealed with that context (empty AAD, the first nonce): 32 bytes. The
// KEM and HPKE are formats/keys/pq/; this is the adapter of the key kind to age's stanzas.
#include <algorithm>
#include <array>
#include <memory>

#include "engine/error.hpp"
#include "formats/age/base64.hpp"
#include "formats/age/stanza_kind.hpp"
#include "formats/common/kdf.hpp"
#include "formats/keys/pq/hpke.hpp"
#include "formats/keys/pq/hybrid_key_cache.hpp"

namespace warp::formats::age {
namespace {

std::string problem(const Stanza& stanza) {
    if (stanza.args.size() != 2)
        return "an mlkem768x25519 stanza has 2 arguments, not " +
               std::to_string(stanza.args.size());
    if (!argument_bytes(stanza.args[1], pq::kHybridEncSize))
        return "an mlkem768x25519 stanza's encapsulation is not canonical base64 of " +
               std::to_string(pq::kHybridEncSize) + " bytes";
    if (stanza.body.size() != kWrappedFileKeySize)
        return "an mlkem768x25519 stanza's body is " + std::to_string(stanza.body.size()) +
               " bytes, not " + std::to_string(kWrappedFileKeySize);
    return "";
}

Stanza wrap(const Secret& recipient, const FileKey& file_key, const RandomFn& random) {
    pq::HybridPublicKey public_key{};
    std::copy_n(recipient.bytes.data(), pq::kHybridPublicKeySize, public_key.begin());
    SecretBytes randomness(pq::kHybridRandomSize);
    random(randomness.data(), randomness.size());
    pq::HybridEnc enc{};
    pq::HpkeContext context;
    if (!pq::hpke_setup_sender(public_key, label_bytes(kHybridLabel),
                               randomness.span().first<pq::kHybridRandomSize>(), enc, context))
        throw Error(ErrorCause::usage, "the post-quantum recipient's X25519 half is of low "
                                       "order, for which no key agreement is secret");
    std::vector<std::uint8_t> body(kWrappedFileKeySize);
    context.seal({}, file_key, body);
    return Stanza{{std::string(kHybridTag), base64_encode(enc, false)}, std::move(body)};
}

Unwrapped unwrap(const Stanza& stanza, const Secret& identity, FileKey& file_key) {
    const std::vector<std::uint8_t> enc = *argument_bytes(stanza.args[1], pq::kHybridEncSize);
    // Expanded once per run, not once per stanza tried (hybrid_key_cache.hpp).
    const std::shared_ptr<const pq::HybridKeyPair> key =
        pq::hybrid_expand_cached(identity.bytes.span().first<pq::kHybridSeedSize>());
    pq::HpkeContext context;
    // The KEM refuses only an X25519 share of low order (the enc's size was checked): age
    // aborts there, as for its X25519 stanza. A wrong key gives a context all the same
    // (ML-KEM's implicit rejection), and the body does not open under it.
    if (!pq::hpke_setup_receiver(*key, enc, label_bytes(kHybridLabel), context))
        throw Error(ErrorCause::corrupted,
                    "age header: an mlkem768x25519 stanza's X25519 share is a point of low "
                    "order (the shared secret is zero); refusing the file");
    return context.open({}, stanza.body, file_key) ? Unwrapped::opened : Unwrapped::no_match;
}

}  // namespace

const StanzaKind kHybridStanza{
    .tag = kHybridTag,
    .key_type = KeyType::mlkem768x25519,
    .secret = "post-quantum identity",
    .alone = false,
    .problem = problem,
    .kdf_memory_kib = no_kdf_memory,
    .wrap = wrap,
    .unwrap = unwrap,
};

}  // namespace warp::formats::age
