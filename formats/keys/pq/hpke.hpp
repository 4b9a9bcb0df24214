// HPKE (RFC 9180) in base mode with HKDF-SHA256 (0x0001) and ChaCha20-Poly1305 (0x0003), over
// the MLKEM768-X25519 KEM (0x647a, mlkem768x25519.hpp: the suite of age's post-quantum recipient
// and of warp's hybrid slot) or the tag recipients' KEMs (formats/keys/tag/: DHKEM(P-256),
// MLKEM768-P256). Only what those need: a context set up for
// the sender or the receiver, Seal/Open with the sequence-numbered nonce, and Export (for the
// known-answer test; neither format exports).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "formats/common/kdf.hpp"
#include "formats/keys/pq/mlkem768x25519.hpp"

namespace warp::formats::pq {

inline constexpr std::size_t kHpkeNonceSize = 12;
inline constexpr std::size_t kHpkeTagSize = 16;

// RFC 9180's labeled HKDF-SHA256 steps under a suite_id ("HPKE" || ids, or a DHKEM's "KEM" ||
// kem_id): what the key schedule and DHKEM's ExtractAndExpand share.
Mac labeled_extract(std::span<const std::uint8_t> suite_id, std::span<const std::uint8_t> salt,
                    std::string_view label, std::span<const std::uint8_t> ikm);
void labeled_expand(std::span<const std::uint8_t> suite_id, std::span<const std::uint8_t> prk,
                    std::string_view label, std::span<const std::uint8_t> info,
                    std::span<std::uint8_t> out);
// The suite_id of base mode with `kem_id`, HKDF-SHA256 and ChaCha20-Poly1305; and a KEM's
// own, "KEM" || I2OSP(kem_id, 2) (RFC 9180 4.1; hpke-pq.md's DeriveKeyPair).
using HpkeSuiteId = std::array<std::uint8_t, 10>;
HpkeSuiteId hpke_suite_id(std::uint16_t kem_id);
using KemSuiteId = std::array<std::uint8_t, 5>;
constexpr KemSuiteId kem_suite_id(std::uint16_t kem_id) {
    return {'K', 'E', 'M', static_cast<std::uint8_t>(kem_id >> 8), static_cast<std::uint8_t>(kem_id)};
}

class HpkeContext {
public:
    // The KEM whose shared secret the context is made of: the suite_id names it.
    explicit HpkeContext(std::uint16_t kem_id = kHybridKemId) : kem_id_(kem_id) {}
    ~HpkeContext();
    HpkeContext(const HpkeContext&) = delete;
    HpkeContext& operator=(const HpkeContext&) = delete;

    // RFC 9180 5.1, KeySchedule(mode_base, shared_secret, info, "", "").
    void key_schedule(std::span<const std::uint8_t> shared_secret, std::span<const std::uint8_t> info);

    // ContextS.Seal / ContextR.Open (5.2): the next sequence number's nonce. `out` is
    // plaintext + 16 bytes (Seal) or ciphertext - 16 bytes (Open); Open returns false, `out`
    // zeroed, when the tag is wrong.
    void seal(std::span<const std::uint8_t> aad, std::span<const std::uint8_t> plaintext,
              std::span<std::uint8_t> out);
    bool open(std::span<const std::uint8_t> aad, std::span<const std::uint8_t> ciphertext,
              std::span<std::uint8_t> out);
    // Context.Export (5.3).
    void export_secret(std::span<const std::uint8_t> exporter_context, std::span<std::uint8_t> out) const;

    // For the known-answer test.
    std::span<const std::uint8_t, kKeySize> key() const { return key_.span(); }
    std::span<const std::uint8_t, kHpkeNonceSize> base_nonce() const { return base_nonce_; }
    std::span<const std::uint8_t, kKeySize> exporter_secret() const { return exporter_.span(); }

private:
    std::array<std::uint8_t, kHpkeNonceSize> next_nonce();
    WipedKey key_;
    std::array<std::uint8_t, kHpkeNonceSize> base_nonce_{};
    WipedKey exporter_;
    std::uint64_t sequence_ = 0;
    std::uint16_t kem_id_;
};

// SetupBaseS(pkR, info) with EncapsDerand's randomness: enc, and the context; false when the
// encapsulation fails (a public key of low order: hybrid_public_key_problem tells first).
bool hpke_setup_sender(const HybridPublicKey& recipient, std::span<const std::uint8_t> info,
                       std::span<const std::uint8_t, kHybridRandomSize> randomness, HybridEnc& enc,
                       HpkeContext& context);
// SetupBaseR(enc, skR, info): false when enc is malformed (its size, a zero X25519 result).
bool hpke_setup_receiver(const HybridKeyPair& key, std::span<const std::uint8_t> enc,
                         std::span<const std::uint8_t> info, HpkeContext& context);

// DeriveKeyPair's seed from `ikm` (hpke-pq.md, SHAKE256.LabeledDerive(ikm, "DeriveKeyPair", "",
// 32)): for the known-answer test, whose keys are made so.
std::array<std::uint8_t, kHybridSeedSize> hpke_derive_key_seed(std::span<const std::uint8_t> ikm);

}  // namespace warp::formats::pq
