// SPEC 3: the header. Writing it, reading it from a stream with precise diagnostics, and its
// keyless checksum and keyed MAC.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "engine/io.hpp"
#include "formats/warp/constants.hpp"
#include "formats/options.hpp"
#include "formats/warp/suite.hpp"
#include "formats/warp/key_slot.hpp"

namespace warp::formats::warp_format {

struct Header {
    std::uint8_t version = kVersion;  // 2, or 1 for an old file (SPEC 10)
    Suite suite = Suite::aes_256_gcm;
    unsigned chunk_log2 = kDefaultChunkLog2;
    std::vector<SlotFields> slots;
    std::array<std::uint8_t, kPayloadNonceSize> payload_nonce{};
    std::vector<std::uint8_t> bytes;  // the whole header as stored, MAC included

    // Every byte the MAC covers (all but the MAC).
    std::span<const std::uint8_t> mac_input() const {
        return {bytes.data(), bytes.size() - kHeaderMacSize};
    }
    std::span<const std::uint8_t, kHeaderMacSize> mac() const {
        return std::span<const std::uint8_t, kHeaderMacSize>(
            bytes.data() + bytes.size() - kHeaderMacSize, kHeaderMacSize);
    }
};

// A version 2 header's bytes (`slots` as make_slot makes them) with its checksum filled in
// and its MAC left zero (see set_header_mac). Throws Error(usage) for a header read_header
// would refuse (a slot count outside kMinSlots..kMaxSlots, a slot body over kMaxSlotBodySize),
// before anything is written.
std::vector<std::uint8_t> build_header(Suite suite, unsigned chunk_log2,
                                       std::span<const std::vector<std::uint8_t>> slots,
                                       std::span<const std::uint8_t, kPayloadNonceSize> nonce);

// Fills the last kHeaderMacSize bytes of `header` with HMAC(header_key, the rest).
void set_header_mac(std::span<std::uint8_t> header,
                    std::span<const std::uint8_t, kKeySize> header_key);
// Whether the MAC verifies (compared in constant time).
bool header_mac_ok(const Header& header, std::span<const std::uint8_t, kKeySize> header_key);

// The size of the header at the front of `bytes` as its layout declares it (version 1: by
// the slot count; otherwise version 2's slot lengths), without judging anything else; nullopt
// when the bytes end before the layout is known, the slot count is out of range, or a slot
// is longer than a version 2 slot may be. For tools and tests that edit headers.
std::optional<std::size_t> declared_header_size(std::span<const std::uint8_t> bytes);

// Reads exactly one header (version 2, or 1) from `in` and checks everything that needs no key
// (SPEC 7, items 1 to 4). Slots of unknown types are kept, to be skipped. Throws Error:
// corrupted (bad magic, checksum mismatch, out-of-range field, more than one passphrase slot),
// unsupported (version, suite), truncated (the input ends inside the header).
Header read_header(ByteSource& in);

}  // namespace warp::formats::warp_format
