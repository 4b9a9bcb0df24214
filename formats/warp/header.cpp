// SPEC 3 (header layout, checksum, MAC) and SPEC 7, items 1 to 4 (what a reader rejects
// before it needs a key).
#include "formats/warp/header.hpp"

#include <sodium.h>
#include <xxhash.h>

#include <algorithm>
#include <optional>
#include <string>

#include "engine/error.hpp"
#include "formats/common/big_endian.hpp"
#include "formats/common/kdf.hpp"
#include "formats/warp/suite.hpp"

namespace warp::formats::warp_format {
namespace {

// Offsets counted from the end of a header (they do not depend on the slots).
constexpr std::size_t kChecksumFromEnd = kChecksumSize + kHeaderMacSize;
constexpr std::size_t kNonceFromEnd = kPayloadNonceSize + kChecksumFromEnd;

std::uint64_t checksum_of(std::span<const std::uint8_t> covered) {
    return XXH3_64bits(covered.data(), covered.size());
}

// What a header's layout says about its size, from the bytes at hand: version 1 slots are 73
// bytes each, version 2 slots say their length (SPEC 3).
struct Layout {
    std::size_t size = 0;   // the header's size, or, when !complete, the bytes needed to go on
    bool complete = false;
    std::optional<std::size_t> bad_slot;  // a version 2 slot longer than kMaxSlotBodySize
    std::vector<std::size_t> slot_offsets;  // where each slot found so far starts

    // Where the slots end: the payload nonce (complete layouts only).
    std::size_t slots_end() const { return size - kHeaderEndSize; }
};

Layout layout_of(std::span<const std::uint8_t> bytes, std::uint8_t version,
                 std::size_t slot_count) {
    Layout layout;
    std::size_t at = kPreambleSize;
    for (std::size_t i = 0; i < slot_count; ++i) {
        std::size_t slot_size = kV1SlotSize;
        if (version != kVersion1) {
            if (bytes.size() < at + kSlotTypeAndLengthSize) {
                layout.size = at + kSlotTypeAndLengthSize;
                return layout;
            }
            const std::size_t length = load_be<std::uint16_t>(bytes.data() + at + 1);
            if (length > kMaxSlotBodySize) {
                layout.size = at;
                layout.complete = true;
                layout.bad_slot = i;
                return layout;
            }
            slot_size = kSlotTypeAndLengthSize + length;
        }
        layout.slot_offsets.push_back(at);
        at += slot_size;
    }
    layout.size = header_size_around(at - kPreambleSize);
    layout.complete = true;
    return layout;
}

// Reads from `in` until `bytes` holds the whole header its layout gives, the input ends, or a
// slot length is impossible; never past the header. Returns the layout.
Layout read_layout(ByteSource& in, std::vector<std::uint8_t>& bytes, std::uint8_t version,
                   std::size_t slot_count) {
    for (;;) {
        const Layout layout = layout_of(bytes, version, slot_count);
        if (layout.bad_slot || bytes.size() >= layout.size) return layout;
        const std::size_t have = bytes.size();
        bytes.resize(layout.size);
        const std::size_t got = read_fully(in, bytes.data() + have, layout.size - have);
        bytes.resize(have + got);
        if (have + got < layout.size) return layout;  // the input ended
    }
}

// Whether `bytes` hold a header of this layout, at least through its checksum, whose checksum
// matches, with the byte at `patch_offset` replaced by `patch_value` (to test whether a
// damaged layout byte was the only damage). The MAC after the checksum need not be there:
// SPEC 7.1 judges the bytes present.
bool checksum_matches(std::span<const std::uint8_t> bytes, std::uint8_t version,
                      std::size_t slot_count, std::size_t patch_offset, std::uint8_t patch_value) {
    std::vector<std::uint8_t> copy(bytes.begin(), bytes.end());
    copy[patch_offset] = patch_value;
    const Layout layout = layout_of(copy, version, slot_count);
    if (!layout.complete || layout.bad_slot) return false;
    const std::size_t covered = layout.size - kChecksumFromEnd;
    if (copy.size() < covered + kChecksumSize) return false;
    return checksum_of({copy.data(), covered}) == load_be<std::uint64_t>(copy.data() + covered);
}

[[noreturn]] void damaged() {
    throw Error(ErrorCause::corrupted, "header damaged (checksum mismatch)");
}

[[noreturn]] void truncated_header(std::size_t got, std::size_t needed) {
    throw Error(ErrorCause::truncated, "truncated: input ends inside the header (" +
                                           std::to_string(got) + " bytes, at least " +
                                           std::to_string(needed) + " needed)");
}

[[noreturn]] void malformed(std::size_t slot_index, const std::string& problem) {
    throw Error(ErrorCause::corrupted, "malformed header: key slot " +
                                           std::to_string(slot_index + 1) + ": " + problem);
}

// The slots of a header whose checksum matched, decoded (not yet judged), where its complete
// layout says they are.
std::vector<SlotFields> decode_slots(std::span<const std::uint8_t> bytes, std::uint8_t version,
                                     const Layout& layout) {
    std::vector<SlotFields> slots;
    const std::vector<std::size_t>& starts = layout.slot_offsets;
    for (std::size_t i = 0; i < starts.size(); ++i) {
        const std::size_t end = i + 1 < starts.size() ? starts[i + 1] : layout.slots_end();
        const std::span<const std::uint8_t> slot = bytes.subspan(starts[i], end - starts[i]);
        if (version == kVersion1)
            slots.push_back(decode_v1_slot(slot.first<kV1SlotSize>()));
        else
            slots.push_back(decode_slot(slot[0], slot.subspan(kSlotTypeAndLengthSize)));
        slots.back().stored.assign(slot.begin(), slot.end());
    }
    return slots;
}

}  // namespace

std::vector<std::uint8_t> build_header(Suite suite, unsigned chunk_log2,
                                       std::span<const std::vector<std::uint8_t>> slots,
                                       std::span<const std::uint8_t, kPayloadNonceSize> nonce) {
    // The reader's limits (constants.hpp, SPEC 7) bind the writer: a header read_header would
    // refuse is not made, whatever slots a rekey keeps or a caller adds.
    if (slots.size() < kMinSlots || slots.size() > kMaxSlots)
        throw Error(ErrorCause::usage, "a warp header holds " + std::to_string(kMinSlots) + " to " +
                                           std::to_string(kMaxSlots) + " key slots, not " +
                                           std::to_string(slots.size()));
    for (const std::vector<std::uint8_t>& slot : slots)
        if (slot.size() < kSlotTypeAndLengthSize ||
            slot.size() - kSlotTypeAndLengthSize > kMaxSlotBodySize)
            throw Error(ErrorCause::usage, "a warp key slot's body is at most " +
                                               std::to_string(kMaxSlotBodySize) +
                                               " bytes, and readers refuse a longer one");
    std::vector<std::uint8_t> bytes(kMagic.begin(), kMagic.end());
    bytes.push_back(kVersion);
    bytes.push_back(static_cast<std::uint8_t>(suite));
    bytes.push_back(static_cast<std::uint8_t>(chunk_log2));
    bytes.push_back(static_cast<std::uint8_t>(slots.size()));
    for (const std::vector<std::uint8_t>& slot : slots)
        bytes.insert(bytes.end(), slot.begin(), slot.end());
    bytes.insert(bytes.end(), nonce.begin(), nonce.end());
    const std::size_t covered = bytes.size();
    bytes.resize(covered + kChecksumSize + kHeaderMacSize);
    store_be<std::uint64_t>(bytes.data() + covered, checksum_of({bytes.data(), covered}));
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

std::optional<std::size_t> declared_header_size(std::span<const std::uint8_t> bytes) {
    if (bytes.size() < kPreambleSize) return std::nullopt;
    const std::size_t slot_count = bytes[kSlotCountOffset];
    if (slot_count < kMinSlots || slot_count > kMaxSlots) return std::nullopt;
    const std::uint8_t version = bytes[kVersionOffset] == kVersion1 ? kVersion1 : kVersion2;
    const Layout layout = layout_of(bytes, version, slot_count);
    if (!layout.complete || layout.bad_slot) return std::nullopt;
    return layout.size;
}

Header read_header(ByteSource& in) {
    Header header;
    std::vector<std::uint8_t>& bytes = header.bytes;
    bytes.resize(kPreambleSize);
    const std::size_t got = read_fully(in, bytes.data(), kPreambleSize);
    bytes.resize(got);

    // Item 1: the magic. Any prefix of it that ends with the input is a truncated header.
    const std::size_t magic_seen = std::min(got, kMagic.size());
    if (!std::equal(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(magic_seen),
                    kMagic.begin()))
        throw Error(ErrorCause::corrupted, "not a warpcrypt file (bad magic)");
    if (got < kPreambleSize) truncated_header(got, header_size(kMinSlots));

    // The version and the slot count fix the layout; read the rest of the header.
    const std::uint8_t version = bytes[kVersionOffset];
    const std::size_t slot_count = bytes[kSlotCountOffset];
    const bool count_ok = slot_count >= kMinSlots && slot_count <= kMaxSlots;
    const bool version_known = version == kVersion1 || version == kVersion2;
    const std::uint8_t layout_version = version == kVersion1 ? kVersion1 : kVersion2;
    Layout layout;
    if (count_ok) layout = read_layout(in, bytes, layout_version, slot_count);

    // Item 2: the version. A header whose version byte alone was damaged is reported as
    // damaged, a genuine other version as unsupported.
    if (!version_known) {
        if (count_ok) {
            if (checksum_matches(bytes, kVersion2, slot_count, kVersionOffset, kVersion2)) damaged();
            read_layout(in, bytes, kVersion1, slot_count);
            if (checksum_matches(bytes, kVersion1, slot_count, kVersionOffset, kVersion1)) damaged();
        }
        throw Error(ErrorCause::unsupported,
                    "unsupported format version " + std::to_string(version) +
                        " (this build reads versions 1 and 2)");
    }
    if (!count_ok)
        throw Error(ErrorCause::corrupted, "header damaged: slot count " +
                                               std::to_string(slot_count) + " is outside " +
                                               bounds_text(kMinSlots, kMaxSlots));
    if (layout.bad_slot || bytes.size() < layout.size) {
        // Short, or a slot too long to be one: damaged if a smaller slot count with this
        // checksum says the count byte was, else as it looks.
        // (Reading on for that is harmless: this header is refused either way.)
        for (std::size_t k = kMinSlots; k < slot_count; ++k) {
            read_layout(in, bytes, layout_version, k);
            if (checksum_matches(bytes, layout_version, k, kSlotCountOffset,
                                 static_cast<std::uint8_t>(k)))
                damaged();
        }
        if (layout.bad_slot)
            throw Error(ErrorCause::corrupted, "header damaged: key slot " +
                                                   std::to_string(*layout.bad_slot + 1) +
                                                   " is longer than " +
                                                   std::to_string(kMaxSlotBodySize) + " bytes");
        truncated_header(bytes.size(), layout.size);
    }

    // Item 4: the checksum, before judging any field, so that damage reads as damage.
    const std::size_t size = layout.size;
    const std::size_t covered = size - kChecksumFromEnd;
    if (checksum_of({bytes.data(), covered}) != load_be<std::uint64_t>(bytes.data() + covered))
        damaged();

    // Items 2 and 3: the fields, now known to be as written.
    const std::uint8_t suite = bytes[kSuiteOffset];
    if (!is_known_suite(suite))
        throw Error(ErrorCause::unsupported, "unsupported suite " + std::to_string(suite));
    header.version = version;
    header.suite = static_cast<Suite>(suite);
    header.chunk_log2 = bytes[kChunkLog2Offset];
    if (header.chunk_log2 < kMinChunkLog2 || header.chunk_log2 > kMaxChunkLog2)
        throw Error(ErrorCause::corrupted,
                    "malformed header: chunk size 2^" + std::to_string(header.chunk_log2) +
                        " is outside " + chunk_size_bounds_text());
    header.slots = decode_slots(bytes, version, layout);
    for (std::size_t i = 0; i < header.slots.size(); ++i) {
        const SlotFields& slot = header.slots[i];
        if (!slot.known()) continue;  // skipped when unlocking (SPEC 4.4)
        if (const std::string problem = slot_problem(slot); !problem.empty()) malformed(i, problem);
    }
    for (const SlotKind* kind : slot_kinds()) {
        if (!kind->one_per_file) continue;
        const std::size_t n = slots_of_kind(header.slots, *kind);
        if (n > kMaxPassphraseSlots)
            throw Error(ErrorCause::corrupted,
                        "malformed header: " + std::to_string(n) + " " + std::string(kind->name) +
                            " slots, and a file may hold at most one (SPEC 4.3: else one "
                            "attempt could test several guesses); refusing it");
    }
    std::copy_n(bytes.data() + size - kNonceFromEnd, kPayloadNonceSize,
                header.payload_nonce.begin());
    return header;
}

}  // namespace warp::formats::warp_format
