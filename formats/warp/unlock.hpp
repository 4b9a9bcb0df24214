// SPEC 4 (a reader tries the slots it has a secret for) and SPEC 5 (the keys derived from the
// file key), with SPEC 7 items 5 and 6: from a parsed header and the user's secrets to the
// payload key, the header MAC verified.
#pragma once

#include <cstddef>

#include "formats/options.hpp"
#include "formats/warp/suite.hpp"
#include "formats/warp/header.hpp"
#include "formats/common/kdf.hpp"

namespace warp::formats::warp_format {

// HKDF(file_key, "", "warpcrypt v1 header", 32)
void derive_header_key(std::span<const std::uint8_t, kFileKeySize> file_key, WipedKey& out);
// HKDF(file_key, payload_nonce, "warpcrypt v1 payload" || suite, 32)
void derive_payload_key(std::span<const std::uint8_t, kFileKeySize> file_key, Suite suite,
                        std::span<const std::uint8_t, kPayloadNonceSize> payload_nonce,
                        WipedKey& out);

// Opens a slot with one of `options.identities` whose file key verifies the header MAC, into
// `file_key` (rekey keeps it); the errors are unlock's. Returns the index of the slot.
std::size_t open_file_key(const Header& header, const Options& options,
                          const AeadImpl& aead, WipedKey& file_key);

// Opens a slot with one of `options.identities` whose file key verifies the header MAC, and
// derives the payload key into `payload_key`. Returns the index of the slot that opened.
// `aead` is the header suite's implementation the engine chose for the file (the payload's).
// Slots of unknown types are skipped. Throws Error(usage) for a passphrase slot over the KDF
// memory or work cap (only when no other slot opened), Error(wrong_key) when no slot opens or
// the MAC does not verify (one outcome: SPEC 4.3), Error(unsupported) when no slot is of a
// known type, Error(io) when Argon2id cannot get its memory.
std::size_t unlock(const Header& header, const Options& options, const AeadImpl& aead,
                   WipedKey& payload_key);

}  // namespace warp::formats::warp_format
