// The keys a file is encrypted to and opened with, the same for both formats: each format
// turns a Secret into its own slot (formats/warp/) or stanza (formats/age/) through the key
// kind of its type (formats/keys/key_kind.hpp).
#pragma once

#include <cstdint>

#include "engine/secure_memory.hpp"

namespace warp::formats {

// A key's kind. The values are this program's, not any format's bytes (a format maps them
// to its own: warp's slot type codes, age's stanza tags).
enum class KeyType : std::uint8_t {
    passphrase, key_file, x25519, mlkem768x25519, ssh_ed25519, ssh_rsa, plugin,
    p256tag, mlkem768p256tag  // age's tagged hardware-key recipients: written to, never opened
};

// The cost of a new passphrase's KDF: Argon2id's passes and memory in warp files (SPEC 4.5),
// scrypt's N (memory_kib, a power of two; passes unused) in age files.
inline constexpr std::uint32_t kDefaultKdfPasses = 3;
inline constexpr std::uint32_t kDefaultKdfMemoryKib = 256 * 1024;  // 256 MiB
struct KdfParams {
    std::uint32_t passes = kDefaultKdfPasses;
    std::uint32_t memory_kib = kDefaultKdfMemoryKib;
};

// What a slot or stanza is made for (encrypt: a recipient) or opened with (decrypt: an
// identity).
struct Secret {
    KeyType type = KeyType::key_file;
    // passphrase: the UTF-8 bytes as typed; key_file: the 32-byte secret; x25519: the
    // recipient's 32-byte public key (encrypt) or the identity's 32-byte secret (decrypt);
    // mlkem768x25519: the recipient's 1216-byte public key or the identity's 32-byte seed;
    // ssh_ed25519: the recipient's 32-byte Ed25519 public key or the identity's 32-byte seed;
    // ssh_rsa: the recipient's SSH wire form, or the identity's (formats/keys/ssh.hpp);
    // plugin: the recipient's or identity's text itself, which only its plugin reads
    // (formats/keys/plugin_keys.hpp); p256tag, mlkem768p256tag: the recipient's 33-byte
    // compressed point or 1249-byte hybrid key (formats/keys/tag/tag_recipient.hpp).
    SecretBytes bytes;
    KdfParams kdf;  // passphrases given to encrypt or rekey; ignored otherwise
};

}  // namespace warp::formats
