// The one front for both formats: what every command calls, whichever format a file is in.
// Decrypt, verify, range decryption, info and rekey tell the format by the file's first bytes
// (detect.hpp: read once, then replayed to the format's reader); encrypt writes
// options.format. The formats themselves (formats/warp/, formats/age/) are siblings behind it:
// nothing outside formats/ names them. Failures throw warp::Error with the causes of
// engine/error.hpp; a file in neither format is read as a warp file, whose reader says
// "not a warpcrypt file (bad magic)".
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "engine/io.hpp"
#include "formats/ciphers.hpp"
#include "formats/common/units_text.hpp"
#include "formats/detect.hpp"
#include "formats/info.hpp"
#include "formats/options.hpp"
#include "formats/warp/constants.hpp"

namespace warp::formats {

// The bounds a user's options meet, from the format that sets them (the warp format's
// SPEC sections 3 and 4; scrypt's cost in age files is checked by the age writer).
using warp_format::kMaxKdfMemoryKib;
using warp_format::kMaxKdfPasses;
using warp_format::kMinKdfMemoryKib;
using warp_format::kMinKdfPasses;
using warp_format::kMaxChunkLog2;
using warp_format::kMinChunkLog2;
using warp_format::chunk_size_of;

// The most recipients (slots or stanzas) a file of `format` holds.
std::size_t max_recipients(Format format);

// What a file of `format` cannot hold of these kinds of key (age: a key file, a passphrase
// beside anything else; both: classic and post-quantum recipients together), or empty: the
// CLI asks before it reads any key or asks for a passphrase; encrypt and rekey check it again
// with the keys themselves. `unknown`: recipients whose kind is not known yet (a recipients
// file not read yet, one recipient at least).
std::string recipient_kinds_problem(Format format, std::span<const KeyType> kinds,
                                    std::size_t unknown = 0);

Result encrypt(ByteSource& in, ByteSink& out, const Options& options);

// Each chunk is written only after it authenticated; if a later check fails, the error is
// thrown after the earlier chunks were written: the caller writes to a temporary file.
Result decrypt(ByteSource& in, ByteSink& out, const Options& options);

// decrypt, writing nothing: the whole file authenticated.
Result verify(ByteSource& in, const Options& options);

// Plaintext bytes [offset, offset + length) (clamped) of a file that can be read at any
// offset, reading only the chunks that hold them and what fixes the length (warp: the
// trailer; age: the final chunk), authenticated first. An armored age file is refused
// (Error(usage)): its bytes are base64 lines, not chunks at offsets.
Result decrypt_range(const RandomAccessSource& in, ByteSink& out, const Options& options,
                     std::uint64_t offset, std::uint64_t length);

// Drops options.remove and adds one slot or stanza for each of options.recipients, opening
// the file key with options.identities, and copies the payload byte for byte.
Result rekey(ByteSource& in, ByteSink& out, const Options& options);

// What the header says, read without a key.
FileInfo read_info(ByteSource& in, std::optional<std::uint64_t> file_size);

}  // namespace warp::formats
