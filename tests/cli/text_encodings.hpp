// The two text encodings of age's files and keys, written from their definitions for the
// tests that build crafted inputs (hostile headers, keys that decode but are not canonical):
// unpadded standard base64 (RFC 4648, as age.md's stanzas use it) and Bech32 (BIP-173) in
// lower case. The tests need to make these, never to judge them: warpcrypt's own decoders
// (formats/) are the ones under test.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace warp::clitest {

std::string base64_unpadded(std::string_view bytes);
// With "=" to a multiple of 4 characters, as PEM and authorized_keys lines write it.
std::string base64_padded(std::string_view bytes);
// The bytes of standard base64 text, whitespace and padding skipped: for tests that rewrite a
// file a tool made (an OpenSSH private key from ssh-keygen).
std::string base64_decoded(std::string_view text);

// "hrp1" + data + checksum, for 8-bit `bytes` regrouped in 5-bit words.
std::string bech32_lower(std::string_view hrp, std::string_view bytes);

}  // namespace warp::clitest
