// The age v1 format (C2SP age.md) behind the front (formats/file.hpp): one call per command,
// on the options and results both formats share (formats/options.hpp). age files hold
// ChaCha20-Poly1305 only, in 64 KiB chunks; their recipients are X25519 keys (age1...) or one
// passphrase (scrypt). `armored`: the file is in age's ASCII armor.
#pragma once

#include <cstdint>
#include <optional>

#include "engine/io.hpp"
#include "formats/info.hpp"
#include "formats/options.hpp"

namespace warp::formats::age {

// options.recipients: X25519 recipients, or exactly one passphrase, whose kdf.memory_kib (a
// power of two) is scrypt's N: 256 MiB, age's work factor 18, by default; options.armor
// writes ASCII armor. Throws Error(usage) for recipients age cannot hold (a key file, a
// passphrase beside another recipient, a low-order point) and for a cipher other than
// ChaCha20-Poly1305.
Result encrypt(ByteSource& in, ByteSink& out, const Options& options);

// options.identities: X25519 identities and passphrases; kdf_limits caps scrypt's memory
// and the run's summed KDF work (a header over either is refused as usage, before any
// work). Releases each chunk once it
// authenticated. Errors: corrupted (header, armor, payload), truncated, unsupported (another
// version; no stanza of a known type), wrong_key (no stanza opened, or the header MAC failed:
// one outcome), usage (a KDF over the cap), io (scrypt without its memory).
Result decrypt(ByteSource& in, ByteSink& out, const Options& options, bool armored);

// Plaintext bytes [offset, offset + length) (clamped) of a binary age file that can be read at
// any offset: the final chunk is authenticated first (it fixes the length), then only the
// chunks that hold the range are read. Errors as decrypt.
Result decrypt_range(const RandomAccessSource& in, ByteSink& out, const Options& options,
                     std::uint64_t offset, std::uint64_t length);

// A new header with the stanzas options.remove dropped and one added for each of
// options.recipients, sealed to the same file key (opened with options.identities, the MAC
// verified) under a new MAC; then the payload nonce and the payload, copied byte for byte.
// An armored file stays armored. Refuses before any key is tried (Error(usage)): nothing to
// change, a stanza number out of range, no stanza left, more than age's 1024, an scrypt
// stanza beside any other (age.md: it is alone in its header), a recipient age cannot hold.
Result rekey(ByteSource& in, ByteSink& out, const Options& options, bool armored);

// The stanzas of the header, read without a key and judged as decrypt judges them.
FileInfo read_info(ByteSource& in, bool armored, std::optional<std::uint64_t> file_size);

}  // namespace warp::formats::age
