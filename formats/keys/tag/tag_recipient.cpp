// age's tagged recipients (tag_recipient.hpp).
#include "formats/keys/tag/tag_recipient.hpp"

#include <sodium.h>

#include <algorithm>

#include "engine/error.hpp"
#include "formats/common/kdf.hpp"
#include "formats/keys/bech32.hpp"
#include "formats/keys/pq/hpke.hpp"
#include "formats/keys/pq/sha3.hpp"

namespace warp::formats::tag {
namespace {

[[noreturn]] void refuse(const std::string& what) { throw Error(ErrorCause::usage, what); }

bool hybrid(const TagType& type) { return type.kem_id == kHybrid.kem_id; }

// The P-256 point a key holds: all of a classic one (compressed), the last 65 bytes of a hybrid.
std::optional<p256::Uncompressed> point_of(const TagType& type, std::span<const std::uint8_t> key) {
    if (key.size() != type.key_size) return std::nullopt;
    return p256::decode_point(hybrid(type) ? key.last(p256::kUncompressedSize) : key);
}

// DHKEM(P-256)'s own suite_id (RFC 9180 4.1).
constexpr pq::KemSuiteId kDhkemSuite = pq::kem_suite_id(kClassic.kem_id);

// RFC 9180 7.1.3, DeriveKeyPair for P-256: candidates from the labeled HKDF until one is a
// scalar (the bitmask is 0xff: nothing to clear).
std::optional<SecretBytes> derive_scalar(std::span<const std::uint8_t> ikm) {
    Mac prk = pq::labeled_extract(kDhkemSuite, {}, "dkp_prk", ikm);
    std::optional<SecretBytes> scalar;
    SecretBytes candidate(p256::kScalarSize);
    for (unsigned counter = 0; counter < 256 && !scalar; ++counter) {
        const std::array<std::uint8_t, 1> counter_byte = {static_cast<std::uint8_t>(counter)};
        pq::labeled_expand(kDhkemSuite, prk, "candidate", counter_byte,
                           std::span(candidate.data(), candidate.size()));
        scalar = p256::random_scalar(candidate.span());
    }
    secure_wipe(prk.data(), prk.size());
    return scalar;
}

bool encapsulate_classic(const p256::Uncompressed& recipient, std::span<const std::uint8_t> ikm,
                         std::vector<std::uint8_t>& enc, SecretBytes& shared) {
    const std::optional<SecretBytes> ephemeral = derive_scalar(ikm);
    if (!ephemeral) return false;
    const p256::Uncompressed public_key = p256::public_of(*ephemeral);
    const SecretBytes dh = p256::shared_x(*ephemeral, recipient);
    // ExtractAndExpand(dh, kem_context = enc || pkRm).
    std::array<std::uint8_t, 2 * p256::kUncompressedSize> context{};
    std::copy(public_key.begin(), public_key.end(), context.begin());
    std::copy(recipient.begin(), recipient.end(), context.begin() + p256::kUncompressedSize);
    Mac prk = pq::labeled_extract(kDhkemSuite, {}, "eae_prk", dh.span());
    shared = SecretBytes(32);
    pq::labeled_expand(kDhkemSuite, prk, "shared_secret", context,
                       std::span(shared.data(), shared.size()));
    secure_wipe(prk.data(), prk.size());
    enc.assign(public_key.begin(), public_key.end());
    return true;
}

// hpke-pq.md's EncapsDerand for MLKEM768-P256.
bool encapsulate_hybrid(std::span<const std::uint8_t> key, const p256::Uncompressed& ek_t,
                        std::span<const std::uint8_t> randomness, std::vector<std::uint8_t>& enc,
                        SecretBytes& shared) {
    constexpr std::string_view kLabel = "MLKEM768-P256";
    pq::mlkem768::Ciphertext ct_pq{};
    pq::mlkem768::SharedKey ss_pq;
    if (randomness.size() < pq::mlkem768::kMessageSize ||
        !pq::mlkem768::encapsulate(key.first(pq::mlkem768::kEncapsulationKeySize),
                               randomness.first<pq::mlkem768::kMessageSize>(), ct_pq, ss_pq))
        return false;
    const std::optional<SecretBytes> ephemeral =
        p256::random_scalar(randomness.subspan(pq::mlkem768::kMessageSize));
    if (!ephemeral) return false;
    const p256::Uncompressed ct_t = p256::public_of(*ephemeral);
    const SecretBytes ss_t = p256::shared_x(*ephemeral, ek_t);
    const auto combined = pq::sha3_256({ss_pq.bytes, ss_t.span(), ct_t, ek_t, label_bytes(kLabel)});
    shared = SecretBytes(std::span<const std::uint8_t>(combined));
    enc.assign(ct_pq.begin(), ct_pq.end());
    enc.insert(enc.end(), ct_t.begin(), ct_t.end());
    return true;
}

}  // namespace

SecretBytes decode_recipient(const TagType& type, std::string_view text) {
    std::string why;
    std::optional<SecretBytes> key = bech32::decode_key(text, type.hrp, type.key_size, why);
    if (!key) refuse("not a " + std::string(type.stanza) + " recipient (" + std::string(type.hrp) +
                     "1...): " + why);
    if (std::string problem = recipient_problem(type, key->span()); !problem.empty())
        refuse(problem);
    return std::move(*key);
}

std::string encode_recipient(const TagType& type, std::span<const std::uint8_t> key) {
    return bech32::encode(type.hrp, key);
}

std::string recipient_problem(const TagType& type, std::span<const std::uint8_t> key) {
    const std::string name = "a " + std::string(type.stanza) + " recipient";
    if (key.size() != type.key_size)
        return name + " is " + std::to_string(type.key_size) + " bytes, not " +
               std::to_string(key.size());
    if (!point_of(type, key)) return name + "'s key is not a point of P-256";
    // A classic key is compressed (what age1tag1 holds); the hybrid's P-256 part uncompressed.
    if (hybrid(type) && key[pq::mlkem768::kEncapsulationKeySize] != 0x04)
        return name + "'s P-256 part is not an uncompressed point";
    if (!hybrid(type) && key[0] != 0x02 && key[0] != 0x03)
        return name + "'s key is not a compressed point";
    if (hybrid(type) &&
        !pq::mlkem768::encapsulation_key_valid(key.first(pq::mlkem768::kEncapsulationKeySize)))
        return name + "'s ML-KEM-768 half fails FIPS 203's modulus check";
    return "";
}

bool encapsulate(const TagType& type, std::span<const std::uint8_t> key,
                 std::span<const std::uint8_t> randomness, std::vector<std::uint8_t>& enc,
                 SecretBytes& shared) {
    const std::optional<p256::Uncompressed> point = point_of(type, key);
    if (!point)
        refuse("a " + std::string(type.stanza) + " recipient's key is not a point of P-256");
    return hybrid(type) ? encapsulate_hybrid(key, *point, randomness, enc, shared)
                        : encapsulate_classic(*point, randomness, enc, shared);
}

std::array<std::uint8_t, kTagSize> stanza_tag(const TagType& type,
                                              std::span<const std::uint8_t> enc,
                                              std::span<const std::uint8_t> key) {
    ensure_sodium();
    // R: the compressed point (p256tag), the hybrid's uncompressed P-256 part (its last bytes).
    const std::span<const std::uint8_t> r = hybrid(type) ? key.last(p256::kUncompressedSize) : key;
    std::array<std::uint8_t, crypto_hash_sha256_BYTES> digest{};
    crypto_hash_sha256(digest.data(), r.data(), r.size());
    const Mac extracted =
        hmac_sha256(label_bytes(type.label), {enc, std::span(digest).first(kTagSize)});
    std::array<std::uint8_t, kTagSize> tag{};
    std::copy_n(extracted.begin(), kTagSize, tag.begin());
    return tag;
}

Wrapped wrap(const TagType& type, std::span<const std::uint8_t> key,
             std::span<const std::uint8_t> file_key, std::span<const std::uint8_t> randomness) {
    Wrapped out;
    SecretBytes shared;
    if (!encapsulate(type, key, randomness, out.enc, shared))
        throw Error(ErrorCause::io, "no P-256 scalar from the randomness; try again");
    pq::HpkeContext context(type.kem_id);
    context.key_schedule(shared.span(), label_bytes(type.label));
    out.body.resize(file_key.size() + pq::kHpkeTagSize);
    context.seal({}, file_key, out.body);
    out.tag = stanza_tag(type, out.enc, key);
    return out;
}

}  // namespace warp::formats::tag
