// Every constant of C2SP age.md (the age v1 format) that formats/age/ uses, once. Section
// names in comments are age.md's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "engine/aead.hpp"

namespace warp::formats::age {

// "Header": the version line, the stanza and MAC line prefixes, the body's columns.
inline constexpr std::string_view kIntro = "age-encryption.org/";
inline constexpr std::string_view kVersionLine = "age-encryption.org/v1";
inline constexpr std::string_view kStanzaPrefix = "-> ";
inline constexpr std::string_view kMacPrefix = "---";  // the MAC covers the header through it
inline constexpr std::size_t kColumns = 64;            // of a stanza's body lines
inline constexpr std::size_t kMacSize = 32;            // HMAC-SHA-256
inline constexpr std::size_t kMacBase64Size = 43;      // 32 bytes in unpadded base64

// "File key", "Payload".
inline constexpr std::size_t kFileKeySize = 16;
inline constexpr std::size_t kPayloadNonceSize = 16;
inline constexpr std::size_t kChunkSize = 64 * 1024;
inline constexpr std::size_t kTagSize = kMaxTagSize;  // ChaCha20-Poly1305's, the engine's 16
static_assert(kTagSize == 16);
inline constexpr std::size_t kRecordSize = kChunkSize + kTagSize;
inline constexpr std::string_view kHeaderLabel = "header";    // HKDF info of the MAC key
inline constexpr std::string_view kPayloadLabel = "payload";  // HKDF info of the payload key

// "The X25519 recipient type".
inline constexpr std::string_view kX25519Tag = "X25519";
inline constexpr std::string_view kX25519Label = "age-encryption.org/v1/X25519";
inline constexpr std::size_t kWrappedFileKeySize = kFileKeySize + kTagSize;  // every body here

// agessh, the ssh-ed25519 recipient type: "-> ssh-ed25519 <tag> <share>", the tag 4 bytes.
inline constexpr std::string_view kSshEd25519Tag = "ssh-ed25519";
inline constexpr std::string_view kSshEd25519Label = "age-encryption.org/v1/ssh-ed25519";
inline constexpr std::size_t kSshTagSize = 4;
// agessh, the ssh-rsa recipient type: "-> ssh-rsa <tag>", the body RSA-OAEP under this label.
inline constexpr std::string_view kSshRsaTag = "ssh-rsa";
inline constexpr std::string_view kSshRsaLabel = "age-encryption.org/v1/ssh-rsa";

// "The scrypt recipient type": r = 8, p = 1; the salt is prefixed with the label.
inline constexpr std::string_view kScryptTag = "scrypt";
inline constexpr std::string_view kScryptLabel = "age-encryption.org/v1/scrypt";
inline constexpr std::size_t kScryptSaltSize = 16;
inline constexpr unsigned kScryptR = 8;
inline constexpr unsigned kScryptP = 1;
inline constexpr unsigned kDefaultScryptLog2N = 18;  // age 1.1.1's, for new files
inline constexpr unsigned kMaxScryptLog2N = 30;      // beyond any cap a reader can be given
// scrypt's memory is 128 * r * N bytes: N KiB at r = 8.
constexpr std::uint64_t scrypt_memory_kib(unsigned log2_n) { return std::uint64_t{1} << log2_n; }

// "The MLKEM768-X25519 hybrid recipient type": one argument, canonical base64 of the HPKE
// enc; the body is the file key sealed with HPKE (RFC 9180 base mode) under this info.
inline constexpr std::string_view kHybridTag = "mlkem768x25519";
inline constexpr std::string_view kHybridLabel = "age-encryption.org/mlkem768x25519";

// "ASCII armor": strict PEM (RFC 7468) with this label, 64 columns, padded base64.
inline constexpr std::string_view kArmorLabel = "AGE ENCRYPTED FILE";
inline constexpr std::string_view kArmorBegin = "-----BEGIN AGE ENCRYPTED FILE-----";
inline constexpr std::string_view kArmorEnd = "-----END AGE ENCRYPTED FILE-----";
inline constexpr std::size_t kArmorColumns = 64;

// What this reader accepts of a header (age.md sets no limit), age's own limits since 1.3.2:
// far beyond any real header (a hybrid stanza is about 1.6 KB), and a bound on the work a
// hostile file can ask for. Both are checked while the header is read, before any stanza is
// tried: a header over either is refused as it is met. The writer checks them too
// (write_header), so that no one who controls a recipients file can make a file unreadable.
inline constexpr std::size_t kMaxHeaderBytes = 2 * 1024 * 1024;
inline constexpr std::size_t kMaxStanzas = 1024;

}  // namespace warp::formats::age
