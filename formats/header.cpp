// SPEC 3 (header layout, checksum, MAC) and SPEC 7, items 1 to 4 (what a reader rejects
// before it needs a key).
#include "formats/header.hpp"

#include <sodium.h>
#include <xxhash.h>

#include <algorithm>
#include <string>

#include "engine/error.hpp"
#include "formats/big_endian.hpp"
#include "formats/kdf.hpp"
#include "formats/suite.hpp"

namespace warp::format {
namespace {

// Offsets counted from the end of a header (they do not depend on the slot count).
constexpr std::size_t kChecksumFromEnd = kChecksumSize + kHeaderMacSize;
constexpr std::size_t kNonceFromEnd = kPayloadNonceSize + kChecksumFromEnd;

std::uint64_t checksum_of(std::span<const std::uint8_t> covered) {
    return XXH3_64bits(covered.data(), covered.size());
}

// Whether the `header_size(slot_count)` bytes at the front of `bytes` carry a checksum that
// matches them, with the bytes at `patch_offset` replaced by `patch_value` (to test whether a
// damaged layout byte was the only damage).
bool checksum_matches(std::span<const std::uint8_t> bytes, std::size_t slot_count,
                      std::size_t patch_offset, std::uint8_t patch_value) {
    const std::size_t size = header_size(slot_count);
    if (bytes.size() < size) return false;
    std::vector<std::uint8_t> copy(bytes.begin(),
                                   bytes.begin() + static_cast<std::ptrdiff_t>(size));
    copy[patch_offset] = patch_value;
    const std::size_t covered = size - kChecksumFromEnd;
    return checksum_of({copy.data(), covered}) == load_be<std::uint64_t>(copy.data() + covered);
}

[[noreturn]] void damaged() {
    throw Error(ErrorCause::corrupted, "header damaged (checksum mismatch)");
}

[[noreturn]] void truncated_header(std::size_t got, std::size_t needed) {
    throw Error(ErrorCause::truncated, "truncated: input ends inside the header (" +
                                           std::to_string(got) + " of " +
                                           std::to_string(needed) + " bytes)");
}

}  // namespace

std::vector<std::uint8_t> build_header(Suite suite, unsigned chunk_log2,
                                       std::span<const SlotBytes> slots,
                                       std::span<const std::uint8_t, kPayloadNonceSize> nonce) {
    std::vector<std::uint8_t> bytes(header_size(slots.size()));
    std::copy(kMagic.begin(), kMagic.end(), bytes.begin() + kMagicOffset);
    bytes[kVersionOffset] = kVersion;
    bytes[kSuiteOffset] = static_cast<std::uint8_t>(suite);
    bytes[kChunkLog2Offset] = static_cast<std::uint8_t>(chunk_log2);
    bytes[kSlotCountOffset] = static_cast<std::uint8_t>(slots.size());
    std::uint8_t* p = bytes.data() + kPreambleSize;
    for (const SlotBytes& slot : slots) p = std::copy(slot.begin(), slot.end(), p);
    p = std::copy(nonce.begin(), nonce.end(), p);
    const std::size_t covered = static_cast<std::size_t>(p - bytes.data());
    store_be<std::uint64_t>(p, checksum_of({bytes.data(), covered}));
    return bytes;
}

void set_header_mac(std::span<std::uint8_t> header,
                    std::span<const std::uint8_t, kKeySize> header_key) {
    const std::size_t covered = header.size() - kHeaderMacSize;
    const Mac mac = hmac_sha256(header_key, {header.first(covered)});
    std::copy(mac.begin(), mac.end(), header.begin() + static_cast<std::ptrdiff_t>(covered));
}

bool header_mac_ok(const Header& header, std::span<const std::uint8_t, kKeySize> header_key) {
    const Mac expected = hmac_sha256(header_key, {header.mac_input()});
    static_assert(kHeaderMacSize == crypto_verify_32_BYTES);
    return crypto_verify_32(expected.data(), header.mac().data()) == 0;
}

Header read_header(ByteSource& in) {
    Header header;
    std::vector<std::uint8_t>& bytes = header.bytes;
    bytes.resize(kPreambleSize);
    std::size_t got = read_fully(in, bytes.data(), kPreambleSize);

    // Item 1: the magic. Any prefix of it that ends with the input is a truncated header.
    const std::size_t magic_seen = std::min(got, kMagic.size());
    if (!std::equal(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(magic_seen),
                    kMagic.begin()))
        throw Error(ErrorCause::corrupted, "not a warpcrypt file (bad magic)");
    if (got < kPreambleSize) truncated_header(got, header_size(kMinSlots));

    // The version and the slot count fix the layout; read the rest of a v1 header.
    const std::uint8_t version = bytes[kVersionOffset];
    const std::size_t slot_count = bytes[kSlotCountOffset];
    const bool count_ok = slot_count >= kMinSlots && slot_count <= kMaxSlots;
    const std::size_t size = header_size(count_ok ? slot_count : kMinSlots);
    if (count_ok) {
        bytes.resize(size);
        got += read_fully(in, bytes.data() + kPreambleSize, size - kPreambleSize);
        bytes.resize(got);
    }

    // Item 2: the version. A v1 header whose version byte alone was damaged is reported as
    // damaged, a genuine other version as unsupported.
    if (version != kVersion) {
        if (count_ok && checksum_matches(bytes, slot_count, kVersionOffset, kVersion)) damaged();
        throw Error(ErrorCause::unsupported,
                    "unsupported format version " + std::to_string(version) +
                        " (this build reads version " + std::to_string(kVersion) + ")");
    }
    if (!count_ok)
        throw Error(ErrorCause::corrupted, "header damaged: slot count " +
                                               std::to_string(slot_count) + " is outside 1..16");
    if (got < size) {
        // Short: truncated, unless a smaller slot count with this checksum says the count
        // byte was damaged.
        for (std::size_t k = kMinSlots; k < slot_count; ++k)
            if (checksum_matches(bytes, k, kSlotCountOffset, static_cast<std::uint8_t>(k)))
                damaged();
        truncated_header(got, size);
    }

    // Item 4: the checksum, before judging any field, so that damage reads as damage.
    const std::size_t covered = size - kChecksumFromEnd;
    if (checksum_of({bytes.data(), covered}) != load_be<std::uint64_t>(bytes.data() + covered))
        damaged();

    // Items 2 and 3: the fields, now known to be as written.
    const std::uint8_t suite = bytes[kSuiteOffset];
    if (!is_known_suite(suite))
        throw Error(ErrorCause::unsupported, "unsupported suite " + std::to_string(suite));
    header.suite = static_cast<Suite>(suite);
    header.chunk_log2 = bytes[kChunkLog2Offset];
    if (header.chunk_log2 < kMinChunkLog2 || header.chunk_log2 > kMaxChunkLog2)
        throw Error(ErrorCause::corrupted,
                    "malformed header: chunk size 2^" + std::to_string(header.chunk_log2) +
                        " is outside 2^12..2^24");
    for (std::size_t i = 0; i < slot_count; ++i) {
        const std::uint8_t* slot_bytes = bytes.data() + kPreambleSize + i * kSlotSize;
        const SlotFields slot =
            decode_slot(std::span<const std::uint8_t, kSlotSize>(slot_bytes, kSlotSize));
        const std::string which = "key slot " + std::to_string(i + 1);
        if (slot.type != static_cast<std::uint8_t>(SlotType::passphrase) &&
            slot.type != static_cast<std::uint8_t>(SlotType::key_file))
            throw Error(ErrorCause::unsupported, "unsupported " + which + " type " +
                                                     std::to_string(slot.type));
        if (const char* problem = slot_params_problem(slot))
            throw Error(ErrorCause::corrupted, "malformed header: " + which + ": " + problem);
        header.slots.push_back(slot);
    }
    std::copy_n(bytes.data() + size - kNonceFromEnd, kPayloadNonceSize,
                header.payload_nonce.begin());
    return header;
}

}  // namespace warp::format
