// SSH keys as age uses them (C2SP age.md names the ssh-ed25519 and ssh-rsa recipient types;
// FiloSottile/age agessh/agessh.go defines them), so that the keys a user already has for SSH
// open and receive age files: a recipient is an `authorized_keys` line, an identity an
// OpenSSH private key file. Ed25519 keys only so far; the other types are refused by name.
//
// The private key file's text is a secret: it is decoded with libsodium's constant-time
// base64, and what it holds stays in locked memory. Only its structure (lengths, key type,
// cipher name) is branched on, as every reader of the format does.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/secure_memory.hpp"
#include "formats/keys/x25519.hpp"

namespace warp::formats::ssh {

inline constexpr std::string_view kEd25519Type = "ssh-ed25519";
inline constexpr std::string_view kPrivateKeyBegin = "-----BEGIN OPENSSH PRIVATE KEY-----";
inline constexpr std::size_t kEd25519KeySize = 32;

using Ed25519PublicKey = std::array<std::uint8_t, kEd25519KeySize>;

// RFC 8709: the public key's SSH wire form, string "ssh-ed25519" || string key.
std::vector<std::uint8_t> ed25519_wire(const Ed25519PublicKey& key);
// age's tag of an SSH key (agessh's sshFingerprint): unpadded base64 of the first 4 bytes of
// SHA-256 of its wire form. It names the key in the stanza, so an identity skips the others.
std::string key_tag(std::span<const std::uint8_t> wire);

// An authorized_keys line, "ssh-ed25519 BASE64 [comment]": its key. Error(usage) saying what
// is wrong; a key of another SSH type (ssh-rsa, ecdsa-..., sk-...) is named in the message.
Ed25519PublicKey parse_ed25519_recipient(std::string_view line);
// "ssh-ed25519 BASE64": what `keygen -y` prints for an SSH identity.
std::string ed25519_recipient_text(const Ed25519PublicKey& key);

// An OpenSSH private key file (PROTOCOL.key, openssh-key-v1) holding one unencrypted Ed25519
// key: its 32-byte seed. Error(usage) saying what is wrong: a passphrase-protected key, a key
// of another type, a damaged file.
SecretBytes parse_ed25519_identity(std::string_view file);
Ed25519PublicKey ed25519_public_key(const SecretBytes& seed);

// The X25519 forms age derives from an Ed25519 key: the public key's Montgomery u (Error(usage)
// for an encoding that is not a point of the main subgroup), and the secret scalar,
// SHA-512(seed)[:32] (RFC 8032's expanded secret; X25519 clamps it).
X25519PublicKey x25519_public_of(const Ed25519PublicKey& key);
SecretBytes x25519_secret_of(const SecretBytes& seed);

}  // namespace warp::formats::ssh
