// RSA-OAEP with SHA-256 (MGF1 with SHA-256) and a label, age's ssh-rsa recipient type
// (agessh), through OpenSSL's libcrypto: RSA is never written here. OpenSSL's decryption is
// constant time and blinded; its randomness (the OAEP seed) is its own.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace warp::formats::rsa {

// Big-endian magnitudes, as SSH's mpints hold them (leading zeros allowed).
struct PublicKey {
    std::span<const std::uint8_t> n, e;
};
struct PrivateKey {
    std::span<const std::uint8_t> n, e, d, p, q, iqmp;
};

// The modulus's size in bits.
std::size_t modulus_bits(std::span<const std::uint8_t> n);

// age's rule for the public exponent (golang.org/x/crypto/ssh's parseRSA): odd, at least 3,
// at most 24 bits. With e = 1 the stanza's body would be the OAEP encoding itself, which anyone
// holding the file unpads to the file key; an even e makes a file nobody can open. "" when `e`
// passes, else what is wrong with it ("1, under 3", "65536, even", "of 25 bits, over 24").
std::string exponent_problem(std::span<const std::uint8_t> e);
inline constexpr std::size_t kMaxExponentBits = 24;

// The ciphertext (the modulus's size in bytes); Error(usage) when OpenSSL refuses the key or
// its exponent breaks the rule above (checked here too, whoever read the key).
std::vector<std::uint8_t> oaep_encrypt(const PublicKey& key, std::span<const std::uint8_t> message,
                                       std::string_view label);
// The message, or false when the ciphertext does not decrypt under the key and label (or is
// not `out.size()` bytes of message).
bool oaep_decrypt(const PrivateKey& key, std::span<const std::uint8_t> ciphertext,
                  std::string_view label, std::span<std::uint8_t> out);

}  // namespace warp::formats::rsa
