// age's tagged recipients for hardware keys (C2SP age.md; FiloSottile/age tag/tag.go; str4d/rage
// `tag`, `tagpq`): what age-plugin-se hands out, and age-plugin-yubikey's current keys. Written
// to natively, as age >= 1.3 and rage do; the identity stays in its hardware, behind its plugin,
// so a file to one is opened through the plugin protocol, never here.
//
//   p256tag          age1tag1...   the 33-byte compressed P-256 point; HPKE base mode with
//                                  DHKEM(P-256, HKDF-SHA256) (0x0010); enc: 65 bytes
//   mlkem768p256tag  age1tagpq1... the 1249-byte MLKEM768-P256 key, ML-KEM-768's ek (1184) ||
//                                  the uncompressed P-256 point (65); hpke-pq.md's hybrid
//                                  (0x0050); enc: 1153 bytes
//
// Both: KDF HKDF-SHA256, AEAD ChaCha20-Poly1305, info = the label below, and the body is the
// file key sealed with that context (empty AAD). The stanza is "-> TYPE TAG ENC"; TAG is the
// first 4 bytes of HKDF-Extract(salt = label, ikm = enc || SHA-256(R)[:4]), R being the
// compressed point (p256tag) or the hybrid key's uncompressed P-256 part (its last 65 bytes), as
// age 1.3 and rage compute it (the C2SP example stanzas still show an earlier draft). The
// hybrid carries age's "postquantum" label: it goes only with other post-quantum recipients.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/secure_memory.hpp"
#include "formats/keys/pq/mlkem768.hpp"
#include "formats/keys/tag/p256.hpp"

namespace warp::formats::tag {

struct TagType {
    std::string_view stanza;  // "p256tag"
    std::string_view label;   // HPKE's info, and the tag's salt
    std::string_view hrp;     // the recipient's Bech32 human-readable part
    std::uint16_t kem_id;
    std::size_t key_size;     // the recipient's bytes
    std::size_t enc_size;
    std::size_t random_size;  // the encapsulation's randomness
};
inline constexpr TagType kClassic{"p256tag", "age-encryption.org/p256tag", "age1tag", 0x0010,
                                  p256::kCompressedSize, p256::kUncompressedSize, 32};
inline constexpr TagType kHybrid{"mlkem768p256tag", "age-encryption.org/mlkem768p256tag",
                                 "age1tagpq", 0x0050,
                                 pq::mlkem768::kEncapsulationKeySize + p256::kUncompressedSize,
                                 pq::mlkem768::kCiphertextSize + p256::kUncompressedSize,
                                 // m, then three 32-byte chunks for the P-256 scalar's
                                 // rejection sampling (hpke-pq.md's vectors use 96 bytes)
                                 pq::mlkem768::kMessageSize + 3 * p256::kScalarSize};
inline constexpr std::size_t kTagSize = 4;

// The recipient's bytes of its text; Error(usage) saying what is wrong (a point off the curve,
// an ML-KEM key failing FIPS 203's check).
SecretBytes decode_recipient(const TagType& type, std::string_view text);
std::string encode_recipient(const TagType& type, std::span<const std::uint8_t> key);
// Why no file can be sealed to `key`, or empty.
std::string recipient_problem(const TagType& type, std::span<const std::uint8_t> key);

// The KEMs' encapsulation from given randomness (EncapsDerand; DHKEM's DeriveKeyPair(ikm) for
// the ephemeral key): false when the randomness gives no scalar (a chance under 2^-96).
// `shared` is 32 bytes.
bool encapsulate(const TagType& type, std::span<const std::uint8_t> key,
                 std::span<const std::uint8_t> randomness, std::vector<std::uint8_t>& enc,
                 SecretBytes& shared);

// TAG for `enc` and the recipient `key`.
std::array<std::uint8_t, kTagSize> stanza_tag(const TagType& type,
                                              std::span<const std::uint8_t> enc,
                                              std::span<const std::uint8_t> key);

// The stanza's arguments after the type (TAG, ENC; their bytes) and its body (the sealed
// `file_key`), from fresh `randomness` of type.random_size bytes.
struct Wrapped {
    std::array<std::uint8_t, kTagSize> tag{};
    std::vector<std::uint8_t> enc;
    std::vector<std::uint8_t> body;
};
Wrapped wrap(const TagType& type, std::span<const std::uint8_t> key,
             std::span<const std::uint8_t> file_key, std::span<const std::uint8_t> randomness);

}  // namespace warp::formats::tag
