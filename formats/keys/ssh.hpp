// SSH keys as age uses them (C2SP age.md names the ssh-ed25519 and ssh-rsa recipient types;
// FiloSottile/age agessh/agessh.go defines them), so that the keys a user already has for SSH
// open and receive age files: a recipient is an `authorized_keys` line, an identity an
// OpenSSH private key file. Ed25519 and RSA (2048 bits and more) keys; the other types are
// refused by name.
//
// The private key file's text is a secret: it is decoded with libsodium's constant-time
// base64, and what it holds stays in locked memory. Only its structure (lengths, key type,
// cipher name) is branched on, as every reader of the format does.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/secure_memory.hpp"
#include "formats/common/kdf_limits.hpp"
#include "formats/keys/x25519.hpp"

namespace warp::formats::ssh {

inline constexpr std::string_view kEd25519Type = "ssh-ed25519";
inline constexpr std::string_view kRsaType = "ssh-rsa";
inline constexpr std::size_t kMinRsaBits = 2048;  // age's, and NIST's floor
inline constexpr std::string_view kPrivateKeyBegin = "-----BEGIN OPENSSH PRIVATE KEY-----";
inline constexpr std::size_t kEd25519KeySize = 32;

using Ed25519PublicKey = std::array<std::uint8_t, kEd25519KeySize>;

// RFC 8709: the public key's SSH wire form, string "ssh-ed25519" || string key.
std::vector<std::uint8_t> ed25519_wire(const Ed25519PublicKey& key);
// age's tag of an SSH key (agessh's sshFingerprint): unpadded base64 of the first 4 bytes of
// SHA-256 of its wire form. It names the key in the stanza, so an identity skips the others.
std::string key_tag(std::span<const std::uint8_t> wire);

// An authorized_keys line, "TYPE BASE64 [comment]": the type and the key, an Ed25519 key's 32
// bytes or an RSA key's wire form (string "ssh-rsa" || mpint e || mpint n). Error(usage)
// saying what is wrong: a key of another SSH type (ecdsa-..., sk-...) is named, an RSA key
// under kMinRsaBits or with an exponent age refuses (rsa::exponent_problem) refused.
struct ParsedKey {
    std::string_view type;  // kEd25519Type or kRsaType
    SecretBytes bytes;      // a recipient's public key; an identity's secret (below)
};
ParsedKey parse_recipient(std::string_view line);
// The type of an authorized_keys line that is a well-formed SSH public key of a type age has no
// stanza for (ecdsa-sha2-nistp256, sk-ssh-ed25519@openssh.com, ssh-dss, ...: its key decodes,
// and names the same type), or empty. A recipients file skips such a line with a warning, as
// age does, so that the keys a forge serves (https://github.com/USER.keys) can be used as
// they are; anything else malformed stays an error.
std::string unsupported_key_type(std::string_view line);
Ed25519PublicKey parse_ed25519_recipient(std::string_view line);
// "ssh-ed25519 BASE64": what `keygen -y` prints for an SSH identity.
std::string ed25519_recipient_text(const Ed25519PublicKey& key);

// An OpenSSH private key file (PROTOCOL.key, openssh-key-v1) holding one key: an Ed25519 key's
// 32-byte seed, or an RSA key as string public wire form || string d || string p || string q
// || string iqmp. A passphrase-protected one (ssh-keygen's: bcrypt, aes256-ctr) is opened with
// `passphrase`: a wrong one is Error(wrong_key). Error(usage) saying what is wrong otherwise: no
// passphrase for a protected key, another cipher or KDF, a key of another type, an RSA key
// under kMinRsaBits or with an exponent age refuses, more than kMaxBcryptRounds, a damaged
// file. bcrypt_pbkdf draws on `kdf_limits` (the run's; kdf_limits.hpp): rounds over what is
// left are Error(usage) naming --kdf-max-work, before any round runs.
inline constexpr unsigned kMaxBcryptRounds = 1000;  // ssh-keygen's default is 16
inline constexpr std::uint64_t kBcryptMemoryKib = 5;  // Blowfish's S-boxes and subkeys, 4168 bytes
ParsedKey parse_identity(std::string_view file, const SecretBytes* passphrase = nullptr,
                         const KdfLimits& kdf_limits = {});
// Whether the file is a private key of a form this reads: an OpenSSH key file, or PEM
// (ssh_pem.hpp), which parse_identity reads too.
bool is_private_key_file(std::string_view file);
// Whether the file is a private key protected with a passphrase (either form).
bool needs_passphrase(std::string_view file);

// The identity an RSA key's parts make (the form above), refused as parse_identity refuses
// one: for the PEM reader (ssh_pem.hpp). Big-endian magnitudes.
ParsedKey rsa_identity(std::span<const std::uint8_t> n, std::span<const std::uint8_t> e,
                       std::span<const std::uint8_t> d, std::span<const std::uint8_t> p,
                       std::span<const std::uint8_t> q, std::span<const std::uint8_t> iqmp);

// What an identity file's key is before its passphrase: its type (kEd25519Type or kRsaType)
// and public wire form, whose key_tag age's stanzas name it by. An OpenSSH file states it
// unencrypted; a PEM one does not (empty: FILE.pub tells, read by the caller).
struct StatedPublicKey {
    std::string_view type;
    std::vector<std::uint8_t> wire;
};
std::optional<StatedPublicKey> stated_public_key(std::string_view file);
// The public key of an identity (its Secret's bytes, of `type`), as a wire form.
std::vector<std::uint8_t> public_wire_of_identity(std::string_view type, const SecretBytes& bytes);

// RSA: the key of a public wire form or of an identity's bytes (spans into them), and the
// authorized_keys line of a wire form.
struct RsaPublic {
    std::span<const std::uint8_t> n, e;
};
struct RsaPrivate {
    std::span<const std::uint8_t> wire, n, e, d, p, q, iqmp;
};
RsaPublic rsa_public_of(std::span<const std::uint8_t> wire);
RsaPrivate rsa_private_of(std::span<const std::uint8_t> identity);
std::string rsa_recipient_text(std::span<const std::uint8_t> wire);
Ed25519PublicKey ed25519_public_key(const SecretBytes& seed);

// The X25519 forms age derives from an Ed25519 key: the public key's Montgomery u (Error(usage)
// for an encoding that is not a point of the main subgroup), and the secret scalar,
// SHA-512(seed)[:32] (RFC 8032's expanded secret; X25519 clamps it).
X25519PublicKey x25519_public_of(const Ed25519PublicKey& key);
SecretBytes x25519_secret_of(const SecretBytes& seed);

}  // namespace warp::formats::ssh
