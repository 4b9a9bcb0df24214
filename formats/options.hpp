// What every command asks of a file and gets back, the same for both formats: formats/file.hpp
// (the front) takes these and hands them to the format the file is in, formats/warp/ or
// formats/age/, which read the fields that apply to them. Failures throw warp::Error with the
// causes of engine/error.hpp: wrong_key, corrupted, truncated, unsupported, io, usage.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/aead.hpp"
#include "engine/selection.hpp"
#include "formats/common/kdf_limits.hpp"
#include "formats/keys/deferred_identity.hpp"
#include "formats/keys/key.hpp"
#include "formats/plugin_ui.hpp"

namespace warp::formats {

// The formats warpcrypt reads and writes, and what a file's first bytes say it is
// (formats/detect.hpp). An armored age file is an age file in age's ASCII armor.
enum class Format { warp, age, age_armored, unknown };

// Fills `len` bytes with randomness; the default is libsodium's CSPRNG. Tests replace it to
// reproduce a worked example byte for byte.
using RandomFn = std::function<void(std::uint8_t* out, std::size_t len)>;

// Called after each batch with the plaintext bytes processed so far (progress bars).
using ProgressFn = std::function<void(std::uint64_t bytes_done)>;

// The warp format's defaults, which Options starts from (formats/warp/constants.hpp defines
// them with the rest of SPEC.md's constants and checks they agree).
inline constexpr unsigned kDefaultChunkLog2 = 16;

struct Options {
    // Encrypt: the format to write (warp or age; armored age files with `armor`).
    Format format = Format::warp;
    bool armor = false;
    // Encrypt: nullopt is auto, the engine's one decision (engine/selection.hpp) picking the
    // cipher with the backend, by hardware and size. age files are ChaCha20-Poly1305 only.
    std::optional<Aead> aead;
    unsigned chunk_log2 = kDefaultChunkLog2;  // warp files: 2^12..2^24 (SPEC section 3)

    // Encrypt: one key slot or stanza each. Rekey: the slots or stanzas added.
    std::vector<Secret> recipients;
    // Decrypt, verify, rekey: tried in order against every slot or stanza.
    std::vector<Secret> identities;
    // Decrypt, verify, rekey: those that need the user, tried after `identities`, each opened
    // only when the file has an entry it could open (deferred_identity.hpp).
    std::vector<DeferredIdentity> deferred_identities;
    // Rekey: the slots or stanzas to drop, by index (info's numbers minus one).
    std::vector<std::size_t> remove;

    // Decrypt, verify, rekey: what the run may spend on KDFs (Argon2id, scrypt), each and
    // summed (kdf_limits.hpp): a copy carries the run's tally, so that an identity file opened
    // first and the file itself draw on the same limits.
    KdfLimits kdf_limits;

    BackendRequest backend;                  // empty: auto
    std::optional<std::uint64_t> size_hint;  // the input's size when known (the decision)
    unsigned threads = 0;  // threads that seal or open (0: one per CPU); the output is the same
    ProgressFn progress;
    RandomFn random;  // empty: libsodium's CSPRNG
    // age files: how a plugin's questions reach the user, and how long it may stay silent
    // (empty callbacks: its questions fail).
    PluginUi plugin_ui;
};

// What ran, for -v, in the format's own words.
struct Result {
    Format format = Format::warp;
    Selection selection;               // what sealed or opened the payload
    std::uint64_t plaintext_bytes = 0;  // sealed, or written out
    std::size_t opened_with = 0;       // decrypt, rekey: the slot or stanza that opened (index)
    std::string opened_by_plugin;      // age files: the plugin that opened it, if one did
    std::size_t entries_before = 0;    // rekey: slots or stanzas before, and after
    std::size_t entries_after = 0;
    std::uint64_t payload_bytes = 0;   // rekey: the bytes copied unchanged
};

// What a format calls the entries of its header: "key slot" (warp) or "stanza" (age).
constexpr std::string_view entry_word(Format format) {
    return format == Format::warp ? "key slot" : "stanza";
}

}  // namespace warp::formats
