// The container format (v2; v1 is read too) as the CLI sees it (formats/SPEC.md is the byte-exact
// truth).
// One call per command: encrypt, decrypt (also `verify`, with a sink that discards),
// decrypt_range, read_info. Failures throw warp::Error with the causes of engine/error.hpp:
// wrong_key, corrupted, truncated, unsupported, io, usage (e.g. a KDF cost over the cap).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "engine/io.hpp"
#include "engine/secure_memory.hpp"
#include "engine/selection.hpp"
#include "formats/constants.hpp"

namespace warp::formats {

enum class Suite : std::uint8_t { aes_256_gcm = 1, chacha20_poly1305 = 2 };
// SPEC 4.1: the slot types; each is one unit in formats/ (slot_kind.hpp).
enum class SlotType : std::uint8_t { passphrase = 1, key_file = 2, x25519 = 3 };

// Argon2id cost stored in a passphrase slot.
struct KdfParams {
    std::uint32_t passes = kDefaultKdfPasses;
    std::uint32_t memory_kib = kDefaultKdfMemoryKib;
};

// What a slot is made for (encrypt: a recipient) or opened with (decrypt: an identity).
struct Secret {
    SlotType type = SlotType::key_file;
    // passphrase: the UTF-8 bytes as typed; key_file: the 32-byte secret; x25519: the
    // recipient's 32-byte public key (encrypt) or the identity's 32-byte secret (decrypt).
    SecretBytes bytes;
    KdfParams kdf;  // passphrase slots written by encrypt; ignored otherwise
};

// Fills `len` bytes with randomness; the default is libsodium's CSPRNG. Tests replace it to
// reproduce SPEC.md's worked example byte for byte.
using RandomFn = std::function<void(std::uint8_t* out, std::size_t len)>;

// Called after each batch with the plaintext bytes processed so far (progress bars).
using ProgressFn = std::function<void(std::uint64_t bytes_done)>;

struct EncryptOptions {
    // nullopt: auto, the engine's one decision (engine/selection.hpp) picks the suite with the
    // backend, by hardware and size.
    std::optional<Suite> suite;
    unsigned chunk_log2 = kDefaultChunkLog2;  // SPEC section 3: kMinChunkLog2..kMaxChunkLog2
    std::vector<Secret> recipients;           // one key slot each, kMinSlots..kMaxSlots
    BackendRequest backend;                   // empty: auto
    std::optional<std::uint64_t> size_hint;   // input size when known, for the decision
    unsigned threads = 0;  // threads that seal (0: one per CPU); the output is the same
    ProgressFn progress;
    RandomFn random;  // empty: libsodium's CSPRNG
};

struct DecryptOptions {
    std::vector<Secret> identities;  // tried in order against every slot
    std::uint32_t max_kdf_memory_kib = kDefaultMaxKdfMemoryKib;  // refuse slots asking for more
    // Argon2id work one attempt may do, memory (KiB) x passes summed over the runs: a run
    // that would go over is not started (SPEC 7). 4 times the default cost by default.
    std::uint64_t max_kdf_work_kib = kDefaultMaxKdfWorkKib;
    BackendRequest backend;                  // empty: auto
    std::optional<std::uint64_t> size_hint;  // the encrypted input's size when known (the decision)
    unsigned threads = 0;  // threads that open (0: one per CPU); the output is the same
    ProgressFn progress;
};

// What ran, for -v: the engine's decision for the payload (the slots used the same); the
// header's suite is selection.aead's (suite.hpp: suite_of).
struct EncryptResult {
    Selection selection;
    std::uint64_t plaintext_bytes = 0;
};

struct DecryptResult {
    std::uint64_t plaintext_bytes = 0;
    std::size_t slot_used = 0;  // index of the slot that opened
    Selection selection;        // what opened the payload (and the slots)
};

// Encrypts all of `in` to `out`. Memory is bounded by a few batches whatever the input size.
EncryptResult encrypt(ByteSource& in, ByteSink& out, const EncryptOptions& options);

// Decrypts all of `in` to `out`. Each chunk is written only after it authenticated; if a later
// check fails (a later chunk, truncation, the trailer), the error is thrown after the earlier
// chunks were written: the caller (cli/) writes to a temporary file and discards it.
DecryptResult decrypt(ByteSource& in, ByteSink& out, const DecryptOptions& options);

// Decrypts plaintext bytes [offset, offset + length) (clamped to the plaintext) of a seekable
// file, reading only the header, the chunks that hold them and the trailer, which is
// authenticated first (it fixes the plaintext length). The result's plaintext_bytes is the
// number of bytes written to `out`; progress counts the plaintext of the chunks read.
DecryptResult decrypt_range(const RandomAccessSource& in, ByteSink& out,
                            const DecryptOptions& options, std::uint64_t offset,
                            std::uint64_t length);

// SPEC 4.7: a new header for a file, with slots removed and added, and the payload copied
// byte for byte (no re-encryption: the file key stays, so does the payload key).
struct RekeyOptions {
    DecryptOptions open;              // what opens the file (identities, KDF caps, backend)
    std::vector<std::size_t> remove;  // slots to drop, by index (info's numbers minus one)
    std::vector<Secret> add;          // a new slot each, after the slots kept
    RandomFn random;                  // empty: libsodium's CSPRNG
};
struct RekeyResult {
    std::size_t slot_used = 0;  // the slot that opened, in the old header
    std::size_t slots_before = 0;
    std::size_t slots_after = 0;
    std::uint64_t payload_bytes = 0;  // copied unchanged
};
// Reads the header from `in`, refuses what it cannot do before any key is tried (Error(usage):
// nothing to change, a slot number out of range, no slot left, more than 16, a second
// passphrase slot; Error(unsupported): a version 1 file), opens the file key with
// options.open (Error(wrong_key) as decrypt, the header MAC included), and only then writes
// the new header and the rest of `in` to `out`.
RekeyResult rekey(ByteSource& in, ByteSink& out, const RekeyOptions& options);

// What `warpcrypt info` prints: everything the header says, read without a key. The checksum
// is verified (Error(corrupted) "header damaged" when it does not match).
struct SlotInfo {
    SlotType type;  // any byte: see known
    bool known = true;  // a type this reader opens; others are skipped
    std::string_view name;           // "passphrase", "key-file", "x25519"; "" when unknown
    std::optional<KdfParams> kdf;    // slots that run Argon2id (passphrase)
    std::string_view note;           // what else the type says of itself, or ""
};
struct HeaderInfo {
    unsigned version = 0;
    Suite suite = Suite::aes_256_gcm;
    unsigned chunk_log2 = 0;
    std::vector<SlotInfo> slots;
    std::uint64_t header_bytes = 0;
    std::optional<std::uint64_t> plaintext_bytes;  // when the file size is known
};
HeaderInfo read_info(ByteSource& in, std::optional<std::uint64_t> file_size);

// Key files (SPEC section 8).
SecretBytes generate_key_secret();                            // 32 random bytes
std::string encode_key_file(const SecretBytes& secret);       // the file's text
SecretBytes decode_key_file(std::string_view text);           // throws Error(usage)

std::string_view suite_name(Suite suite);                     // "aes-256-gcm", ...
std::optional<Suite> parse_suite_name(std::string_view name);

}  // namespace warp::formats
