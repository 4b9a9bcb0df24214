// age's post-quantum keys (C2SP age.md, "The MLKEM768-X25519 hybrid recipient type") as text,
// for both formats: an identity is "AGE-SECRET-KEY-PQ-1" + Bech32 of the 32-byte seed, its
// recipient "age1pq1" + Bech32 of the 1216-byte public key (ML-KEM-768's encapsulation key,
// then the X25519 public key; about 1960 characters, which Bech32 here allows). The KEM itself
// is mlkem768x25519.hpp; this file only writes and reads the keys.
#pragma once

#include <string>
#include <string_view>

#include "engine/secure_memory.hpp"
#include "formats/keys/pq/mlkem768x25519.hpp"

namespace warp::formats::pq {

inline constexpr std::string_view kHybridRecipientHrp = "age1pq";
inline constexpr std::string_view kHybridIdentityHrp = "age-secret-key-pq-";

struct HybridIdentity {
    SecretBytes seed;               // kHybridSeedSize bytes
    HybridPublicKey public_key{};   // its recipient
};

HybridIdentity generate_hybrid_identity();  // libsodium's CSPRNG
HybridPublicKey hybrid_public_key(const SecretBytes& seed);

std::string encode_hybrid_recipient(const HybridPublicKey& public_key);  // "age1pq1..."
std::string encode_hybrid_identity(const SecretBytes& seed);  // "AGE-SECRET-KEY-PQ-1...": wipe it

// Throw Error(usage) saying what is wrong, never quoting a secret: a recipient whose key fails
// hybrid_public_key_problem (FIPS 203's modulus check, a non-canonical or low-order X25519
// half) is refused here, when it is read.
HybridPublicKey decode_hybrid_recipient(std::string_view text);
SecretBytes decode_hybrid_identity(std::string_view text);

// What `keygen --identity` writes, as age-keygen 1.4 does: "# created: <created>",
// "# public key: age1pq1...", then the identity. Holds the secret: wipe it.
std::string hybrid_identity_file_text(const HybridIdentity& identity, std::string_view created);

}  // namespace warp::formats::pq
