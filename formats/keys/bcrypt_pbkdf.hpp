// OpenBSD's bcrypt_pbkdf, the KDF of passphrase-protected OpenSSH private keys (PROTOCOL.key:
// kdfname "bcrypt", kdfoptions string salt || uint32 rounds): PBKDF2's shape with bcrypt's
// hash (SHA-512 of the passphrase and salt into eksblowfish, 64 rounds of each, then
// "OxychromaticBlowfishSwatDynamite" enciphered 64 times) and its key bytes interleaved.
#pragma once

#include <cstdint>
#include <span>

namespace warp::formats {

void bcrypt_pbkdf(std::span<const std::uint8_t> passphrase, std::span<const std::uint8_t> salt,
                  unsigned rounds, std::span<std::uint8_t> key);

}  // namespace warp::formats
