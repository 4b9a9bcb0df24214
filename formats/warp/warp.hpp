// The warp format (v2; v1 is read too) behind the front (formats/file.hpp): one call per
// command, on the options and results both formats share (formats/options.hpp).
// formats/warp/SPEC.md is the byte-exact truth. Failures throw warp::Error with the causes of
// engine/error.hpp: wrong_key, corrupted, truncated, unsupported, io, usage (e.g. a KDF cost
// over the cap).
#pragma once

#include <cstdint>
#include <optional>

#include "engine/io.hpp"
#include "formats/info.hpp"
#include "formats/options.hpp"

namespace warp::formats::warp_format {

// Encrypts all of `in` to `out` (options.recipients: one key slot each, 1..16). Memory is
// bounded by a few batches whatever the input size.
Result encrypt(ByteSource& in, ByteSink& out, const Options& options);

// Decrypts all of `in` to `out` with options.identities. Each chunk is written only after it
// authenticated; if a later check fails (a later chunk, truncation, the trailer), the error is
// thrown after the earlier chunks were written: the caller writes to a temporary file and
// discards it.
Result decrypt(ByteSource& in, ByteSink& out, const Options& options);

// Decrypts plaintext bytes [offset, offset + length) (clamped to the plaintext) of a seekable
// file, reading only the header, the chunks that hold them and the trailer, which is
// authenticated first (it fixes the plaintext length). The result's plaintext_bytes is the
// number of bytes written to `out`; progress counts the plaintext of the chunks read.
Result decrypt_range(const RandomAccessSource& in, ByteSink& out, const Options& options,
                     std::uint64_t offset, std::uint64_t length);

// SPEC 4.7: a new header with the slots options.remove dropped and one added for each of
// options.recipients, and the payload copied byte for byte (no re-encryption: the file key
// stays, so does the payload key). Refuses what it cannot do before any key is tried
// (Error(usage): nothing to change, a slot number out of range, no slot left, more than 16, a
// second passphrase slot; Error(unsupported): a version 1 file), opens the file key with
// options.identities (Error(wrong_key) as decrypt, the header MAC included), and only then
// writes the new header and the rest of `in` to `out`.
Result rekey(ByteSource& in, ByteSink& out, const Options& options);

// Everything the header says, read without a key. The checksum is verified (Error(corrupted)
// "header damaged" when it does not match).
FileInfo read_info(ByteSource& in, std::optional<std::uint64_t> file_size);

}  // namespace warp::formats::warp_format
