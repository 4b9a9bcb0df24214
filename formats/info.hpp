// What `warpcrypt info` shows of a file, read without a key, in the words of its format: a
// warp file's version, suite, chunk size and key slots, or an age file's stanzas.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/aead.hpp"
#include "formats/keys/key_kind.hpp"
#include "formats/options.hpp"

namespace warp::formats {

// One key slot or stanza.
struct EntryInfo {
    std::string type;                       // "x25519", "passphrase"; age: its tag ("X25519")
    bool known = true;                      // a type this reader opens; others are skipped
    std::optional<unsigned> type_code;      // warp: the type byte of an unknown slot
    std::optional<KdfParams> argon2id;      // warp passphrase slots: the Argon2id cost
    std::optional<unsigned> scrypt_log2_n;  // age scrypt stanzas: the work factor
    std::string note;                       // what else the type says of itself, or ""
    // Known types: whether a file sealed to it stays closed to a quantum computer later, and
    // whether it is a public key (X25519 or ML-KEM-768 + X25519) rather than symmetric.
    std::optional<bool> post_quantum;
    bool public_key = false;
};

struct FileInfo {
    Format format = Format::warp;  // warp, age or age_armored
    unsigned version = 0;          // warp: the header's version byte
    Aead aead = Aead::chacha20_poly1305;
    unsigned chunk_log2 = 0;
    std::vector<EntryInfo> entries;
    std::optional<std::uint64_t> header_bytes;     // unknown for armored age files
    std::optional<std::uint64_t> plaintext_bytes;  // when the file's size tells it
};

}  // namespace warp::formats
