// Every constant of formats/warp/SPEC.md, once (the few both formats share, such as the KDF
// defaults and the key sizes, are defined where they are shared and named here). Derived sizes are computed here and checked with
// static_assert, never retyped elsewhere.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/aead.hpp"
#include "formats/common/kdf.hpp"
#include "formats/common/units_text.hpp"
#include "formats/keys/x25519.hpp"
#include "formats/options.hpp"

namespace warp::formats::warp_format {

// SPEC 3: header preamble. Writers write version 2; readers read 1 and 2 (SPEC 10: version 1).
inline constexpr std::array<std::uint8_t, 8> kMagic = {0x89, 'W', 'A', 'R', 'P', '\r', '\n', 0x1a};
inline constexpr std::uint8_t kVersion1 = 1;
inline constexpr std::uint8_t kVersion2 = 2;
inline constexpr std::uint8_t kVersion = kVersion2;  // what writers write
inline constexpr unsigned kMinChunkLog2 = 12;
inline constexpr unsigned kMaxChunkLog2 = 24;
static_assert(kDefaultChunkLog2 >= kMinChunkLog2 && kDefaultChunkLog2 <= kMaxChunkLog2);  // formats/options.hpp
inline constexpr std::size_t kMinSlots = 1;
inline constexpr std::size_t kMaxSlots = 16;

inline constexpr std::size_t kMagicOffset = 0;
inline constexpr std::size_t kVersionOffset = kMagicOffset + kMagic.size();
inline constexpr std::size_t kSuiteOffset = kVersionOffset + 1;
inline constexpr std::size_t kChunkLog2Offset = kSuiteOffset + 1;
inline constexpr std::size_t kSlotCountOffset = kChunkLog2Offset + 1;
inline constexpr std::size_t kPreambleSize = kSlotCountOffset + 1;
static_assert(kPreambleSize == 12);

// SPEC 3: the fields after the slots.
inline constexpr std::size_t kPayloadNonceSize = 32;
inline constexpr std::size_t kChecksumSize = 8;   // u64 XXH3_64
inline constexpr std::size_t kHeaderMacSize = 32;  // HMAC-SHA256
inline constexpr std::size_t kHeaderEndSize = kPayloadNonceSize + kChecksumSize + kHeaderMacSize;

// SPEC 1 and 4: AEAD sizes, the same for both suites.
static_assert(kKeySize == 32);  // formats/common/kdf.hpp
inline constexpr std::size_t kNonceSize = kChunkNonceSize;
inline constexpr std::size_t kTagSize = kMaxTagSize;  // the engine's, 16 bytes
static_assert(kTagSize == 16);
static_assert(kNonceSize == 12 && kTagSize == kMaxTagSize);

// SPEC 4: key slots.
inline constexpr std::size_t kFileKeySize = 32;
inline constexpr std::size_t kSlotSaltSize = 16;
static_assert(kSlotSaltSize == kArgon2idSaltSize);
inline constexpr std::size_t kSlotParamsSize = 8;  // u32 passes || u32 memory_kib
inline constexpr std::size_t kWrappedKeySize = kFileKeySize + kTagSize;
inline constexpr std::size_t kSlotCheckSize = 32;  // version 2: the key-check value
// Version 2: type u8 || length u16 || body, the body's size given by the length.
inline constexpr std::size_t kSlotTypeAndLengthSize = 3;
inline constexpr std::size_t kMaxSlotBodySize = 2048;  // 1024 before the hybrid slot (4.8)
inline constexpr std::size_t kKeyFileSlotBodySize = kSlotSaltSize + kSlotCheckSize + kWrappedKeySize;
inline constexpr std::size_t kPassphraseSlotBodySize =
    kSlotSaltSize + kSlotParamsSize + kSlotCheckSize + kWrappedKeySize;
// SPEC 4.6: the X25519 slot's body, E[32] || check || wrapped_key.
static_assert(kX25519KeySize == 32);  // formats/keys/x25519.hpp
inline constexpr std::size_t kX25519SlotBodySize = kX25519KeySize + kSlotCheckSize + kWrappedKeySize;
// SPEC 4.8: the ML-KEM-768 + X25519 slot's body, enc[1120] || check || wrapped_key.
inline constexpr std::size_t kHybridEncSize = 1120;  // formats/keys/pq/mlkem768x25519.hpp
inline constexpr std::size_t kHybridSlotBodySize = kHybridEncSize + kSlotCheckSize + kWrappedKeySize;
static_assert(kKeyFileSlotBodySize == 96 && kPassphraseSlotBodySize == 104 &&
              kX25519SlotBodySize == 112 && kHybridSlotBodySize == 1200 &&
              kHybridSlotBodySize <= kMaxSlotBodySize);
// SPEC 4: at most one passphrase slot per file, so that one attempt tests one passphrase.
inline constexpr std::size_t kMaxPassphraseSlots = 1;
// Version 1 (SPEC 10): every slot is type || salt || params || wrapped_key.
inline constexpr std::size_t kV1SlotPrefixSize = 1 + kSlotSaltSize + kSlotParamsSize;
inline constexpr std::size_t kV1SlotSize = kV1SlotPrefixSize + kWrappedKeySize;
static_assert(kV1SlotPrefixSize == 25 && kV1SlotSize == 73);

inline constexpr std::uint32_t kMinKdfPasses = 1;
inline constexpr std::uint32_t kMaxKdfPasses = 16;
inline constexpr std::uint32_t kMinKdfMemoryKib = 8;
inline constexpr std::uint32_t kMaxKdfMemoryKib = 4u * 1024 * 1024;  // 4 GiB
// The defaults: a new passphrase's cost (kDefaultKdfPasses, kDefaultKdfMemoryKib in
// formats/keys/key.hpp) and, SPEC 7, what one decryption attempt may spend by default
// (kDefaultMaxKdfWorkKib: 4x that cost, memory x passes summed over the runs;
// kDefaultMaxKdfMemoryKib: 1 GiB, in formats/options.hpp). A reader may raise both.
static_assert(kDefaultKdfPasses >= kMinKdfPasses && kDefaultKdfPasses <= kMaxKdfPasses);
static_assert(kDefaultKdfMemoryKib >= kMinKdfMemoryKib && kDefaultKdfMemoryKib <= kMaxKdfMemoryKib);
static_assert(kDefaultMaxKdfMemoryKib == 1024 * 1024 &&
              kDefaultMaxKdfWorkKib == std::uint64_t{4} * kDefaultKdfPasses * kDefaultKdfMemoryKib);

// SPEC 3: the header around its slots, and the largest header a reader accepts.
constexpr std::size_t header_size_around(std::size_t slot_bytes) {
    return kPreambleSize + slot_bytes + kHeaderEndSize;
}
inline constexpr std::size_t kMaxHeaderSize =
    header_size_around(kMaxSlots * (kSlotTypeAndLengthSize + kMaxSlotBodySize));
// The header a writer makes with these slots (SPEC 3 and 4).
constexpr std::size_t header_size(std::size_t key_file_slots, std::size_t passphrase_slots = 0,
                                  std::size_t x25519_slots = 0) {
    return header_size_around(key_file_slots * (kSlotTypeAndLengthSize + kKeyFileSlotBodySize) +
                              passphrase_slots * (kSlotTypeAndLengthSize + kPassphraseSlotBodySize) +
                              x25519_slots * (kSlotTypeAndLengthSize + kX25519SlotBodySize));
}
static_assert(header_size(1) == 183 && header_size(0, 1) == 191 && header_size(0, 0, 1) == 199);
// SPEC 10: a version 1 header with k slots.
constexpr std::size_t v1_header_size(std::size_t slot_count) {
    return header_size_around(slot_count * kV1SlotSize);
}
static_assert(v1_header_size(1) == 157);

// SPEC 4 and 5: labels (HKDF info strings). The header and payload labels are the same in
// both versions (the MAC covers the version byte).
inline constexpr std::string_view kKeyFileSlotLabel = "warpcrypt v2 key-file slot";
inline constexpr std::string_view kX25519SlotLabel = "warpcrypt v2 x25519 slot";
inline constexpr std::string_view kHybridSlotLabel = "warpcrypt v2 mlkem768x25519 slot";
inline constexpr std::string_view kSlotCheckLabel = "warpcrypt v2 slot check";
inline constexpr std::string_view kSlotWrapLabel = "warpcrypt v2 slot wrap";
inline constexpr std::string_view kV1KeyFileSlotLabel = "warpcrypt v1 key-file slot";
inline constexpr std::string_view kHeaderKeyLabel = "warpcrypt v1 header";
inline constexpr std::string_view kPayloadKeyLabel = "warpcrypt v1 payload";  // || suite byte

// SPEC 6: payload.
// The chunk nonce, u88(index) || u8(flag) with kFlagData and kFlagFinal, is age's STREAM
// nonce (formats/common/stream_nonce.hpp).
inline constexpr std::size_t kTrailerPlaintextSize = 8 + 16;  // u64 L || XXH3_128
inline constexpr std::size_t kTrailerChunkSize = kTrailerPlaintextSize + kTagSize;
static_assert(kTrailerChunkSize == 40);

constexpr std::size_t chunk_size_of(unsigned chunk_log2) { return std::size_t{1} << chunk_log2; }
constexpr std::size_t record_size_of(unsigned chunk_log2) {
    return chunk_size_of(chunk_log2) + kTagSize;
}
// The smallest file a writer makes: one key-file slot and the trailer of an empty plaintext.
inline constexpr std::size_t kMinFileSize =
    header_size_around(kSlotTypeAndLengthSize + kKeyFileSlotBodySize) + kTrailerChunkSize;

// SPEC 8: key files (formats/keys/key_file.hpp). X25519 keys are in age's encoding
// (formats/keys/x25519.hpp).

// The bounds above as messages print them, so that no message retypes a number.
inline std::string chunk_size_bounds_text() {  // "2^12..2^24"
    return "2^" + std::to_string(kMinChunkLog2) + "..2^" + std::to_string(kMaxChunkLog2);
}
inline std::string kdf_memory_bounds_text() {  // "8 KiB..4 GiB"
    return kib_text(kMinKdfMemoryKib) + ".." + kib_text(kMaxKdfMemoryKib);
}

}  // namespace warp::formats::warp_format
