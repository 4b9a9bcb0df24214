// The age v1 format (C2SP age.md) as the CLI sees it, beside the warp format's container.hpp:
// one call per command, the same options and error causes. age files hold ChaCha20-Poly1305
// only, in 64 KiB chunks; their recipients are X25519 keys (age1...) or one passphrase (scrypt).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "engine/io.hpp"
#include "engine/selection.hpp"
#include "formats/container.hpp"

namespace warp::formats::age {

// What a file's first bytes say it is (the CLI decides by them, like age does by its first
// line): a warp file, a binary age file, an armored one, or neither.
enum class Format { warp, age, age_armored, unknown };
inline constexpr std::size_t kDetectBytes = 64;  // enough of the file for detect()
Format detect(std::span<const std::uint8_t> first_bytes);

struct EncryptOptions {
    // X25519 recipients (Secret::bytes the public key), or exactly one passphrase, whose
    // kdf.memory_kib (a power of two) is scrypt's N: 256 MiB, age's work factor 18, by default.
    std::vector<Secret> recipients;
    bool armor = false;
    BackendRequest backend;
    std::optional<std::uint64_t> size_hint;
    unsigned threads = 0;
    ProgressFn progress;
    RandomFn random;  // empty: libsodium's CSPRNG; drawn: file key, each stanza's, nonce
};

struct Result {
    Selection selection;
    std::uint64_t plaintext_bytes = 0;
    std::size_t stanza_used = 0;  // decrypt: the stanza that opened
};

// Throws Error(usage) for recipients age cannot hold (a key file, a passphrase beside another
// recipient, a low-order point).
Result encrypt(ByteSource& in, ByteSink& out, const EncryptOptions& options);

// Decrypts an age file (`armored`: its ASCII armor form). options.identities: X25519
// identities and passphrases; max_kdf_memory_kib caps scrypt's memory (a header over it is
// refused as usage, before any work). Releases each chunk once it authenticated. Errors:
// corrupted (header, armor, payload), truncated, unsupported (another version; only
// post-quantum stanzas), wrong_key (no stanza opened, or the header MAC failed: one outcome),
// usage (a KDF over the cap), io (scrypt without its memory).
Result decrypt(ByteSource& in, ByteSink& out, const DecryptOptions& options, bool armored);

// Decrypts plaintext bytes [offset, offset + length) (clamped) of a binary age file that can
// be read at any offset: the final chunk is authenticated first (it fixes the length), then
// only the chunks that hold the range are read. Errors as decrypt.
Result decrypt_range(const RandomAccessSource& in, ByteSink& out, const DecryptOptions& options,
                     std::uint64_t offset, std::uint64_t length);

struct StanzaInfo {
    std::string type;                      // its first argument
    bool known = false;                    // a type this build opens
    std::optional<unsigned> scrypt_log2_n;  // scrypt's work factor
};
struct Info {
    bool armored = false;
    std::vector<StanzaInfo> stanzas;
    std::uint64_t header_bytes = 0;                // binary files
    std::optional<std::uint64_t> plaintext_bytes;  // binary files of known size
};
Info read_info(ByteSource& in, bool armored, std::optional<std::uint64_t> file_size);

}  // namespace warp::formats::age
