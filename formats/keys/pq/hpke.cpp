// RFC 9180 base mode (hpke.hpp). The KEM's shared secret goes into the key schedule as it is
// (hpke-pq.md: the hybrid KEMs have no DHKEM-style ExtractAndExpand around it; DHKEM(P-256)
// applies its own, formats/keys/tag/).
#include "formats/keys/pq/hpke.hpp"

#include <algorithm>
#include <string_view>

#include "engine/aead_key.hpp"
#include "engine/error.hpp"
#include "engine/selection.hpp"
#include "formats/keys/pq/sha3.hpp"

namespace warp::formats::pq {
namespace {

constexpr std::string_view kVersion = "HPKE-v1";
constexpr std::uint8_t kModeBase = 0x00;

std::span<const std::uint8_t> text(std::string_view s) { return label_bytes(s); }

}  // namespace

HpkeSuiteId hpke_suite_id(std::uint16_t kem_id) {
    // "HPKE" || I2OSP(kem_id, 2) || I2OSP(kdf_id, 2) || I2OSP(aead_id, 2): HKDF-SHA256 (1),
    // ChaCha20-Poly1305 (3).
    return {'H', 'P', 'K', 'E', static_cast<std::uint8_t>(kem_id >> 8),
            static_cast<std::uint8_t>(kem_id), 0x00, 0x01, 0x00, 0x03};
}

// LabeledExtract(salt, label, ikm) = HKDF-Extract(salt, "HPKE-v1" || suite_id || label || ikm);
// an empty salt is HMAC's empty key, the same as HashLen zero bytes.
Mac labeled_extract(std::span<const std::uint8_t> suite_id, std::span<const std::uint8_t> salt,
                    std::string_view label, std::span<const std::uint8_t> ikm) {
    return hmac_sha256(salt, {text(kVersion), suite_id, text(label), ikm});
}

// LabeledExpand(prk, label, info, L) = HKDF-Expand(prk, I2OSP(L, 2) || "HPKE-v1" || suite_id ||
// label || info, L).
void labeled_expand(std::span<const std::uint8_t> suite_id, std::span<const std::uint8_t> prk,
                    std::string_view label, std::span<const std::uint8_t> info,
                    std::span<std::uint8_t> out) {
    if (out.size() > 255 * 32) throw Error(ErrorCause::invalid_argument, "HPKE: Expand too long");
    const std::array<std::uint8_t, 2> length = {static_cast<std::uint8_t>(out.size() >> 8),
                                                static_cast<std::uint8_t>(out.size())};
    Mac block{};
    std::size_t done = 0;
    for (std::uint8_t counter = 1; done < out.size(); ++counter) {
        const std::array<std::uint8_t, 1> counter_byte = {counter};
        const std::span<const std::uint8_t> previous =
            counter == 1 ? std::span<const std::uint8_t>() : std::span<const std::uint8_t>(block);
        block = hmac_sha256(prk, {previous, length, text(kVersion), suite_id, text(label), info,
                                  counter_byte});
        const std::size_t n = std::min(block.size(), out.size() - done);
        std::copy_n(block.begin(), n, out.begin() + static_cast<std::ptrdiff_t>(done));
        done += n;
    }
    secure_wipe(block.data(), block.size());
}

namespace {

const AeadImpl& chacha() {
    static const AeadImpl& impl = *select(Aead::chacha20_poly1305, SizeHint::exactly(32)).impl;
    return impl;
}

}  // namespace

HpkeContext::~HpkeContext() { secure_wipe(base_nonce_.data(), base_nonce_.size()); }

void HpkeContext::key_schedule(std::span<const std::uint8_t> shared_secret,
                               std::span<const std::uint8_t> info) {
    const HpkeSuiteId suite = hpke_suite_id(kem_id_);
    const Mac psk_id_hash = labeled_extract(suite, {}, "psk_id_hash", {});
    const Mac info_hash = labeled_extract(suite, {}, "info_hash", info);
    std::array<std::uint8_t, 1 + 2 * 32> context{};
    context[0] = kModeBase;
    std::copy(psk_id_hash.begin(), psk_id_hash.end(), context.begin() + 1);
    std::copy(info_hash.begin(), info_hash.end(), context.begin() + 33);
    Mac secret = labeled_extract(suite, shared_secret, "secret", {});
    labeled_expand(suite, secret, "key", context, key_.span());
    labeled_expand(suite, secret, "base_nonce", context, base_nonce_);
    labeled_expand(suite, secret, "exp", context, exporter_.span());
    secure_wipe(secret.data(), secret.size());
    sequence_ = 0;
}

std::array<std::uint8_t, kHpkeNonceSize> HpkeContext::next_nonce() {
    // The sequence number never wraps here: each format seals one message per context.
    if (sequence_ == UINT64_MAX) throw Error(ErrorCause::invalid_argument, "HPKE: message limit");
    std::array<std::uint8_t, kHpkeNonceSize> nonce = base_nonce_;
    for (std::size_t i = 0; i < 8; ++i)
        nonce[kHpkeNonceSize - 1 - i] ^= static_cast<std::uint8_t>(sequence_ >> (8 * i));
    ++sequence_;
    return nonce;
}

void HpkeContext::seal(std::span<const std::uint8_t> aad, std::span<const std::uint8_t> plaintext,
                       std::span<std::uint8_t> out) {
    if (out.size() != plaintext.size() + kHpkeTagSize)
        throw Error(ErrorCause::invalid_argument, "HPKE Seal: output size");
    const auto nonce = next_nonce();
    const AeadKey aead(chacha(), key_.span());
    const AeadChunk chunk{nonce.data(), nonce.size(), aad.data(), aad.size(), plaintext.data(),
                          out.data(), plaintext.size(), out.data() + plaintext.size()};
    aead.seal({&chunk, 1});
}

bool HpkeContext::open(std::span<const std::uint8_t> aad, std::span<const std::uint8_t> ciphertext,
                       std::span<std::uint8_t> out) {
    if (ciphertext.size() < kHpkeTagSize || out.size() != ciphertext.size() - kHpkeTagSize)
        throw Error(ErrorCause::invalid_argument, "HPKE Open: output size");
    const auto nonce = next_nonce();
    // The tag is read from a copy: the backends take a writable tag pointer for both directions.
    std::array<std::uint8_t, kHpkeTagSize> tag{};
    std::copy_n(ciphertext.end() - kHpkeTagSize, kHpkeTagSize, tag.begin());
    const AeadKey aead(chacha(), key_.span());
    const AeadChunk chunk{nonce.data(), nonce.size(), aad.data(), aad.size(), ciphertext.data(),
                          out.data(), out.size(), tag.data()};
    bool ok = false;
    aead.open({&chunk, 1}, &ok);
    return ok;
}

void HpkeContext::export_secret(std::span<const std::uint8_t> exporter_context,
                                std::span<std::uint8_t> out) const {
    labeled_expand(hpke_suite_id(kem_id_), exporter_.span(), "sec", exporter_context, out);
}

bool hpke_setup_sender(const HybridPublicKey& recipient, std::span<const std::uint8_t> info,
                       std::span<const std::uint8_t, kHybridRandomSize> randomness, HybridEnc& enc,
                       HpkeContext& context) {
    HybridShared shared;
    if (!hybrid_encapsulate(recipient, randomness, enc, shared)) return false;
    context.key_schedule(shared.bytes, info);
    return true;
}

bool hpke_setup_receiver(const HybridKeyPair& key, std::span<const std::uint8_t> enc,
                         std::span<const std::uint8_t> info, HpkeContext& context) {
    HybridShared shared;
    if (!hybrid_decapsulate(key, enc, shared)) return false;
    context.key_schedule(shared.bytes, info);
    return true;
}

std::array<std::uint8_t, kHybridSeedSize> hpke_derive_key_seed(std::span<const std::uint8_t> ikm) {
    // ikm || "HPKE-v1" || "KEM" || I2OSP(kem_id, 2) || I2OSP(len(label), 2) || label ||
    // I2OSP(L, 2) || context (empty).
    constexpr KemSuiteId kKemSuite = kem_suite_id(kHybridKemId);
    constexpr std::string_view kLabel = "DeriveKeyPair";
    const std::array<std::uint8_t, 2> label_length = {0, static_cast<std::uint8_t>(kLabel.size())};
    const std::array<std::uint8_t, 2> output_length = {0, kHybridSeedSize};
    std::array<std::uint8_t, kHybridSeedSize> seed{};
    shake256({ikm, text(kVersion), kKemSuite, label_length, text(kLabel), output_length}, seed);
    return seed;
}

}  // namespace warp::formats::pq
