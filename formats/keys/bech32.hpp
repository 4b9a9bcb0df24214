// Bech32 (BIP-173, checksum constant 1) with the rules of age's keys (C2SP age.md, "X25519
// recipient type"): no length limit (an identity is longer than BIP-173's 90 characters), all
// lower or all upper case, the checksum computed over the lower-case form.
//
// Constant time in the data: an age identity's characters are its secret key, so the data
// part is encoded and decoded without a branch or a table index that depends on it (the
// characters are found by scanning the whole alphabet, the checksum is reduced with masks).
// What a caller may branch on is public: the human-readable part, the lengths, and the
// verdict. Decoded words and bytes live in locked memory and are wiped when freed.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/secure_memory.hpp"

namespace warp::formats::bech32 {

// 5-bit values (one per data character, checksum excluded).
using Words = std::vector<std::uint8_t, LockedAllocator<std::uint8_t>>;

enum class Case { lower, upper };

// The string for `hrp` (printable US-ASCII 33..126, no upper case) and `words` (each < 32):
// "hrp" "1" data checksum, in lower case or all in upper case (age's identities).
std::string encode_words(std::string_view hrp, std::span<const std::uint8_t> words,
                         Case letters = Case::lower);

struct DecodedWords {
    std::string hrp;  // lower case
    Words words;
};
// Parses and checks a Bech32 string; nullopt with the reason in `why` (which never quotes a
// data character) when it is not valid.
std::optional<DecodedWords> decode_words(std::string_view text, std::string& why);

// BIP-173's convertbits between bytes and 5-bit words: bytes to words pads the last word with
// zero bits; words to bytes refuses padding of 5 bits or more, or padding that is not zero.
Words to_words(std::span<const std::uint8_t> bytes);
std::optional<SecretBytes> to_bytes(std::span<const std::uint8_t> words, std::string& why);

// Bytes in and out, as keys use it.
std::string encode(std::string_view hrp, std::span<const std::uint8_t> bytes,
                   Case letters = Case::lower);
struct Decoded {
    std::string hrp;  // lower case
    SecretBytes bytes;
};
std::optional<Decoded> decode(std::string_view text, std::string& why);

// A key's `size` bytes under `hrp` (what every age key is), or nullopt with the reason in
// `why`, which never quotes the text (a line of another key format may be a secret).
std::optional<SecretBytes> decode_key(std::string_view text, std::string_view hrp,
                                      std::size_t size, std::string& why);

}  // namespace warp::formats::bech32
