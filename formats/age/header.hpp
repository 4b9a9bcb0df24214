// age.md, "Header": the version line, the recipient stanzas and the MAC line, read from a
// stream with the ABNF's rules applied to every byte, and written.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/io.hpp"
#include "formats/age/constants.hpp"

namespace warp::formats::age {

// A recipient stanza: "-> " arguments, then the base64 body (age.md, "Recipient stanza").
struct Stanza {
    std::vector<std::string> args;  // at least one; args[0] names the type
    std::vector<std::uint8_t> body;
};

struct Header {
    std::vector<Stanza> stanzas;  // at least one
    std::array<std::uint8_t, kMacSize> mac{};
    std::string mac_input;  // every header byte up to and including "---"
    std::size_t size = 0;   // of the whole header, its final LF included
};

// A stanza's first line ("-> " and its arguments, no LF) as age.md's ABNF has it; nullopt
// with the reason in `why` otherwise. The header reader and the plugin protocol's
// (plugin_stanza.hpp) share it.
std::optional<Stanza> stanza_of_arg_line(std::string_view line, std::string& why);
// A stanza as a header writes it: its argument line, then its body in lines of 64 base64
// columns and a final shorter (maybe empty) one.
std::string stanza_text(const Stanza& stanza);

// Reads exactly one header from `in` (not a byte more) and checks its grammar. Throws
// Error(corrupted, "age header: ...") for anything the ABNF does not allow (CRLF, a bad or
// missing MAC line, a body line over 64 columns, non-canonical base64, ...),
// Error(unsupported) for another version, Error(truncated) when the input ends inside it.
Header read_header(ByteSource& in);

// The header's text for `stanzas`, its MAC computed under `mac_key`. Throws Error(usage) for a
// header the reader would refuse (over kMaxStanzas stanzas or kMaxHeaderBytes bytes), before
// the caller writes any of it: encrypt and rekey never write a file nobody can open.
std::string write_header(std::span<const Stanza> stanzas,
                         std::span<const std::uint8_t, 32> mac_key);

// HMAC-SHA-256 of the header text through "---" under the MAC key.
std::array<std::uint8_t, kMacSize> header_mac(std::string_view mac_input,
                                              std::span<const std::uint8_t, 32> mac_key);

}  // namespace warp::formats::age
