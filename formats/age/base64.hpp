// age.md, "Conventions": the standard base64 alphabet (RFC 4648, section 4). Unpadded in the
// header, where decoders MUST reject non-canonical encodings and `=` padding; padded in the
// ASCII armor (RFC 7468), canonical too. Nothing decoded here is secret (stanza arguments and
// bodies, the MAC, armored ciphertext), so the codec may branch on the data.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace warp::formats::age {

std::string base64_encode(std::span<const std::uint8_t> bytes, bool padded);

// nullopt unless `text` is the canonical encoding (unpadded, or padded as the flag says) of
// some bytes: only alphabet characters, no bits set past the data, `=` only as padding.
std::optional<std::vector<std::uint8_t>> base64_decode(std::string_view text, bool padded);

}  // namespace warp::formats::age
