// The header (SPEC 3) and what a reader rejects before and while unlocking (SPEC 7, items 1
// to 6): every header byte damaged, cut, or altered with its checksum recomputed. The slots
// themselves (commitment, unknown types, version 1) are format_slots_test.cpp's.
#include <gtest/gtest.h>

#include <xxhash.h>

#include "formats/common/big_endian.hpp"
#include "formats/warp/constants.hpp"
#include "formats/warp/header.hpp"
#include "tests/formats/format_fixtures.hpp"

namespace warp::formats::warp_format::test {
namespace {

Bytes two_slot_file() {
    static const Bytes file = encrypt_bytes(
        pattern(5000), options_for({passphrase("pw"), key_file_secret(4)}, Suite::aes_256_gcm));
    return file;
}

// Passphrase slot (12 + 3 + 104 bytes), then key-file slot (3 + 96): SPEC 3 and 4.
constexpr std::size_t kSlot1 = kPreambleSize;
constexpr std::size_t kSlot2 = kSlot1 + 3 + kPassphraseSlotBodySize;

std::size_t header_size_of(const Bytes& file) { return header_size_in(file); }

// Recomputes the keyless checksum after an edit, as an attacker (or a future version) would.
void fix_checksum(Bytes& file) {
    const std::size_t covered = header_size_of(file) - kChecksumSize - kHeaderMacSize;
    store_be<std::uint64_t>(file.data() + covered, XXH3_64bits(file.data(), covered));
}

void open_with_key(const Bytes& file) { decrypt_bytes(file, {key_file_secret(4)}); }

TEST(FormatHeader, LayoutMatchesTheSpec) {
    const Bytes file = two_slot_file();
    EXPECT_TRUE(std::equal(kMagic.begin(), kMagic.end(), file.begin()));
    EXPECT_EQ(file[kVersionOffset], 2);
    EXPECT_EQ(file[kSuiteOffset], 1);
    EXPECT_EQ(file[kChunkLog2Offset], 12);
    EXPECT_EQ(file[kSlotCountOffset], 2);
    EXPECT_EQ(header_size_of(file), 12u + (3 + 104) + (3 + 96) + 32 + 8 + 32);
    EXPECT_EQ(header_size_of(file), header_size(1, 1));
    // Slot 1: passphrase, length 104, salt, params = u32 passes || u32 memory_kib, big-endian.
    const std::uint8_t* slot = file.data() + kSlot1;
    EXPECT_EQ(slot[0], 1);
    EXPECT_EQ(load_be<std::uint16_t>(slot + 1), 104u);
    EXPECT_EQ(load_be<std::uint32_t>(slot + 3 + 16), kTestKdf.passes);
    EXPECT_EQ(load_be<std::uint32_t>(slot + 3 + 20), kTestKdf.memory_kib);
    // Slot 2: key file, length 96, no params.
    slot = file.data() + kSlot2;
    EXPECT_EQ(slot[0], 2);
    EXPECT_EQ(load_be<std::uint16_t>(slot + 1), 96u);
}

TEST(FormatHeader, EveryByteFlippedIsCorrupted) {
    const Bytes good = two_slot_file();
    const std::size_t size = header_size_of(good);
    for (std::size_t i = 0; i < size; ++i)
        for (unsigned mask : {0x01, 0x02, 0x10, 0x80, 0xff}) {
            Bytes bad = good;
            bad[i] ^= static_cast<std::uint8_t>(mask);
            SCOPED_TRACE("byte " + std::to_string(i) + " ^ " + std::to_string(mask));
            // The keyless checksum catches all but the MAC; a bad MAC reads as a failed
            // unlock, the same outcome as a wrong key (SPEC 4.3).
            expect_error([&] { open_with_key(bad); },
                         i < size - kHeaderMacSize ? ErrorCause::corrupted : ErrorCause::wrong_key);
            // info checks everything but the MAC, which needs the key.
            if (i < size - kHeaderMacSize) {
                stream::SpanSource in(bad);
                EXPECT_THROW(warp_format::read_info(in, bad.size()), Error);
            }
        }
}

TEST(FormatHeader, DamageIsNamed) {
    Bytes bad = two_slot_file();
    bad[0] = 'P';
    expect_error([&] { open_with_key(bad); }, ErrorCause::corrupted,
                 "not a warpcrypt file (bad magic)");
    bad = two_slot_file();
    bad[kPreambleSize + 5] ^= 1;  // a salt byte
    expect_error([&] { open_with_key(bad); }, ErrorCause::corrupted,
                 "header damaged (checksum mismatch)");
    bad = two_slot_file();
    bad[kVersionOffset] = 3;  // damaged, not a version 3 file: the v2 checksum says so
    expect_error([&] { open_with_key(bad); }, ErrorCause::corrupted, "checksum mismatch");
    bad = two_slot_file();
    bad[kSlotCountOffset] = 3;  // more slots than the file holds
    expect_error([&] { open_with_key(bad); }, ErrorCause::corrupted, "checksum mismatch");
    bad = two_slot_file();
    bad[kSlotCountOffset] = 0;
    expect_error([&] { open_with_key(bad); }, ErrorCause::corrupted, "slot count 0");
    bad = two_slot_file();
    bad[kSlot2 + 1] = 0x08;  // a slot length over 2048 bytes
    expect_error([&] { open_with_key(bad); }, ErrorCause::corrupted,
                 "key slot 2 is longer than 2048 bytes");
    bad = two_slot_file();
    bad[header_size_of(bad) - 1] ^= 0x40;  // the MAC: an unlock that fails like a wrong key
    expect_error([&] { open_with_key(bad); }, ErrorCause::wrong_key,
                 "wrong key or passphrase, or an altered header");
}

TEST(FormatHeader, EveryCutInsideTheHeaderIsTruncated) {
    const Bytes good = two_slot_file();
    for (std::size_t len = 0; len < header_size_of(good); ++len) {
        const Bytes cut(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(len));
        SCOPED_TRACE(len);
        expect_error([&] { open_with_key(cut); }, ErrorCause::truncated, "inside the header");
        stream::SpanSource in(cut);
        EXPECT_THROW(warp_format::read_info(in, cut.size()), Error);
    }
}

TEST(FormatHeader, OtherVersionsAreUnsupported) {
    Bytes v3 = two_slot_file();
    v3[kVersionOffset] = 3;
    fix_checksum(v3);  // a genuine version 3, whose checksum matches
    expect_error([&] { open_with_key(v3); }, ErrorCause::unsupported,
                 "unsupported format version 3");
    Bytes v9 = two_slot_file();
    v9.resize(20);
    v9[kVersionOffset] = 9;
    expect_error([&] { open_with_key(v9); }, ErrorCause::unsupported,
                 "unsupported format version 9");
}

TEST(FormatHeader, FieldsCheckedAfterTheChecksum) {
    Bytes bad = two_slot_file();
    bad[kSuiteOffset] = 3;
    fix_checksum(bad);
    expect_error([&] { open_with_key(bad); }, ErrorCause::unsupported, "unsupported suite 3");


    for (std::uint8_t log2 : {std::uint8_t{11}, std::uint8_t{25}}) {
        bad = two_slot_file();
        bad[kChunkLog2Offset] = log2;
        fix_checksum(bad);
        expect_error([&] { open_with_key(bad); }, ErrorCause::corrupted, "malformed header");
    }

    bad = two_slot_file();
    store_be<std::uint32_t>(bad.data() + kSlot1 + 3 + 16, 17);  // 17 passes
    fix_checksum(bad);
    expect_error([&] { open_with_key(bad); }, ErrorCause::corrupted, "passes outside 1..16");

    bad = two_slot_file();
    bad[kSlot1] = 2;  // a key-file slot with a passphrase slot's length
    fix_checksum(bad);
    expect_error([&] { open_with_key(bad); }, ErrorCause::corrupted,
                 "key slot 1: a key-file slot is 96 bytes, not 104");

    bad = two_slot_file();
    bad[kSlot2] = 1;  // two passphrase slots (and the second one's length wrong): refused
    fix_checksum(bad);
    expect_error([&] { open_with_key(bad); }, ErrorCause::corrupted, "key slot 2");
}

TEST(FormatHeader, AlteredWithChecksumFixedIsAFailedUnlock) {
    // The slot's salt (or its params) feeds its wrapping key: the slot no longer opens.
    Bytes bad = two_slot_file();
    bad[kSlot2 + 3 + 3] ^= 1;
    fix_checksum(bad);
    expect_error([&] { open_with_key(bad); }, ErrorCause::wrong_key);
    // The payload nonce is covered by the MAC only: the unlock fails as a whole.
    bad = two_slot_file();
    bad[header_size_of(bad) - kHeaderEndSize] ^= 1;
    fix_checksum(bad);
    expect_error([&] { open_with_key(bad); }, ErrorCause::wrong_key, "or an altered header");
    // Re-labelling the suite: the slot was sealed with the other AEAD, so it fails to open.
    bad = two_slot_file();
    bad[kSuiteOffset] = 2;
    fix_checksum(bad);
    expect_error([&] { open_with_key(bad); }, ErrorCause::wrong_key);
}

TEST(FormatHeader, TheWriterRefusesWhatTheReaderWould) {
    // The reader's limits bind the writer (SPEC 7): no header is built that read_header
    // refuses, whatever slots a rekey keeps.
    const std::array<std::uint8_t, kPayloadNonceSize> nonce{};
    auto slot = [](std::size_t body) {
        std::vector<std::uint8_t> bytes = {0x7f, static_cast<std::uint8_t>(body >> 8),
                                           static_cast<std::uint8_t>(body)};
        bytes.resize(3 + body);
        return bytes;
    };
    const std::vector<std::vector<std::uint8_t>> longest(kMaxSlots, slot(kMaxSlotBodySize));
    EXPECT_EQ(build_header(Suite::aes_256_gcm, 12, longest, nonce).size(), kMaxHeaderSize);
    const std::vector<std::vector<std::uint8_t>> too_many(kMaxSlots + 1, slot(16));
    expect_error([&] { build_header(Suite::aes_256_gcm, 12, too_many, nonce); }, ErrorCause::usage);
    expect_error([&] { build_header(Suite::aes_256_gcm, 12, {}, nonce); }, ErrorCause::usage);
    const std::vector<std::vector<std::uint8_t>> too_long = {slot(kMaxSlotBodySize + 1)};
    expect_error([&] { build_header(Suite::aes_256_gcm, 12, too_long, nonce); }, ErrorCause::usage);
}

TEST(FormatInfo, ReadsTheHeaderWithoutAKey) {
    const Bytes file = encrypt_bytes(
        pattern(10000), options_for({passphrase("pw", KdfParams{2, 16 * 1024}), key_file_secret(1)},
                                    Suite::chacha20_poly1305, 13));
    stream::SpanSource in(file);
    const FileInfo info = warp_format::read_info(in, file.size());
    EXPECT_EQ(info.version, 2u);
    EXPECT_EQ(info.aead, aead_of(Suite::chacha20_poly1305));
    EXPECT_EQ(info.chunk_log2, 13u);
    ASSERT_EQ(info.entries.size(), 2u);
    EXPECT_EQ(info.entries[0].type, slot_kind_of(SlotType::passphrase).name);
    EXPECT_EQ(info.entries[0].argon2id->passes, 2u);
    EXPECT_EQ(info.entries[0].argon2id->memory_kib, 16u * 1024);
    EXPECT_EQ(info.entries[1].type, slot_kind_of(SlotType::key_file).name);
    EXPECT_EQ(info.header_bytes, header_size(1, 1));
    EXPECT_EQ(info.plaintext_bytes, 10000u);
    // Unknown size: no plaintext length; only the header is read.
    stream::SpanSource header_only(
        std::span<const std::uint8_t>(file.data(), header_size(1, 1)));
    EXPECT_FALSE(warp_format::read_info(header_only, std::nullopt).plaintext_bytes.has_value());
}

TEST(FormatInfo, PlaintextSizeFromEveryFileSize) {
    for (std::size_t size : {0u, 1u, 4095u, 4096u, 4097u, 8192u, 20000u}) {
        const Bytes file = encrypt_bytes(pattern(size), options_for({key_file_secret(1)}));
        stream::SpanSource in(file);
        EXPECT_EQ(warp_format::read_info(in, file.size()).plaintext_bytes, size);
    }
}

}  // namespace
}  // namespace warp::formats::warp_format::test
