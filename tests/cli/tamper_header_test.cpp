// Every header byte flipped, two ways (high bit, low bit), for a key-file slot and a passphrase
// slot, and headers rewritten with a valid checksum to reach the field checks. The expected exit
// codes follow formats/SPEC.md section 7.1's diagnosis order: the magic first (not a warpcrypt
// file: 4), then the keyless checksum (damaged header: 4) - so a flipped version, suite or
// slot-type byte reads as damage, not as a newer format -, then the fields (unsupported version,
// suite or slot type: 6; other fields out of range, malformed: 4), and the MAC last (tampered
// header: 4). The field checks are reached by recomputing the checksum.
#include <cstdint>
#include <string>

#include <xxhash.h>

#include "tests/cli/tamper_fixture.hpp"

namespace warp::clitest {
namespace {

struct Region {
    const char* name;
    int exit_code;
    std::vector<std::string> words;  // the error names at least one
};

Region region_of(std::size_t offset, const Container& c) {
    using namespace layout;
    const std::vector<std::string> header_words = {"header", "checksum", "damaged", "tampered",
                                                   "malformed"};
    if (offset < magic_size) return {"magic", 4, {"not a warpcrypt", "magic"}};
    if (offset == version_offset) return {"version", 4, header_words};
    if (offset == suite_offset) return {"suite", 4, header_words};
    if (offset == chunk_log2_offset) return {"chunk size", 4, header_words};
    if (offset == slot_count_offset) return {"slot count", 4, header_words};
    if (offset < c.payload_nonce_offset()) {
        const auto in_slot = (offset - slots_offset) % slot_size;
        if (in_slot == 0) return {"slot type", 4, header_words};
        if (in_slot < slot_type_size + slot_salt_size) return {"slot salt", 4, header_words};
        if (in_slot < slot_type_size + slot_salt_size + slot_params_size) {
            return {"slot params", 4, header_words};
        }
        return {"wrapped key", 4, header_words};
    }
    if (offset < c.checksum_offset()) return {"payload nonce", 4, header_words};
    if (offset < c.mac_offset()) return {"checksum", 4, header_words};
    return {"mac", 4, header_words};
}

class HeaderTamper : public TamperTest {
protected:
    static int failure_count() {
        return ::testing::UnitTest::GetInstance()->current_test_info()->result()->total_part_count();
    }

    // Seals 1000 bytes of pattern under one passphrase slot (read from `secret`, cheap KDF).
    void seal_with_passphrase_file(const std::filesystem::path& secret) {
        plaintext_ = pattern(1000);
        Command command;
        command.args = args({{"encrypt", "--passphrase-file", secret.string()}, fast_kdf});
        command.stdin_bytes = plaintext_;
        const auto outcome = run(command);
        ASSERT_EQ(outcome.exit_code, 0) << describe(outcome);
        sealed_ = outcome.out;
    }

    // Flips each header byte with each mask and checks the rejection. Stops after a few failing
    // cases so one bug does not print a thousand failures.
    void flip_header_bytes(const std::vector<std::string>& key_args) {
        const auto c = parse_container(sealed_);
        ASSERT_GT(c.header_size, 0u);
        int failing_cases = 0;
        for (std::size_t offset = 0; offset < c.header_size; ++offset) {
            const auto region = region_of(offset, c);
            for (const std::uint8_t mask : {std::uint8_t{0x80}, std::uint8_t{0x01}}) {
                SCOPED_TRACE(::testing::Message() << "header byte " << offset << " (" << region.name
                                                  << ") xor 0x" << std::hex << int{mask});
                auto bytes = sealed_;
                bytes[offset] = static_cast<char>(static_cast<std::uint8_t>(bytes[offset]) ^ mask);
                const int failures_before = failure_count();
                expect_rejected(bytes, region.exit_code, region.words, 0, key_args);
                if (failure_count() > failures_before && ++failing_cases > 8) {
                    FAIL() << "stopping after several failing header bytes";
                }
            }
        }
    }
};

TEST_F(HeaderTamper, EveryByteOfAKeyFileHeader) {
    seal(pattern(1000));
    ASSERT_EQ(parse_container(sealed_).header_size, layout::header_size(1));
    flip_header_bytes({});
}

TEST_F(HeaderTamper, EveryByteOfAPassphraseHeader) {
    const auto secret = make_file("pw", "tamper passphrase\n");
    seal_with_passphrase_file(secret);
    if (HasFatalFailure()) return;
    flip_header_bytes({"--passphrase-file", secret.string()});
}

TEST_F(HeaderTamper, NotAWarpcryptFile) {
    seal("x");
    expect_rejected(std::string(300, 'A'), 4, {"not a warpcrypt", "magic"});
    expect_rejected("PK\x03\x04" + std::string(400, '\0'), 4, {"not a warpcrypt", "magic"});
}

// A header rewritten with its checksum recomputed: the field checks and the MAC (SPEC section
// 7.1) are what reject it, not the checksum.
std::string with_valid_checksum(std::string file, const Container& c) {
    const std::uint64_t sum = XXH3_64bits(file.data(), c.checksum_offset());
    for (std::size_t i = 0; i < layout::checksum_size; ++i) {
        file[c.checksum_offset() + i] = static_cast<char>(sum >> (8 * (layout::checksum_size - 1 - i)));
    }
    return file;
}

TEST_F(HeaderTamper, ChecksumIsXxh3OfTheHeaderBeforeIt) {
    seal(pattern(100));
    const auto c = parse_container(sealed_);
    EXPECT_TRUE(with_valid_checksum(sealed_, c) == sealed_)
        << "the checksum field is not XXH3_64 (big-endian) of the bytes before it";
}

TEST_F(HeaderTamper, UnsupportedFieldsWithAValidChecksum) {
    seal(pattern(1000));
    const auto c = parse_container(sealed_);
    const std::vector<std::pair<std::size_t, std::uint8_t>> cases = {
        {layout::version_offset, 2}, {layout::version_offset, 0}, {layout::suite_offset, 0},
        {layout::suite_offset, 3},   {c.slot_offset(0), 3},         {c.slot_offset(0), 0}};
    for (const auto& [offset, value] : cases) {
        SCOPED_TRACE(::testing::Message() << "byte " << offset << " = " << int{value});
        auto bytes = sealed_;
        bytes[offset] = static_cast<char>(value);
        expect_rejected(with_valid_checksum(bytes, c), 6, {"unsupported"});
    }
}

TEST_F(HeaderTamper, MalformedFieldsWithAValidChecksum) {
    seal(pattern(1000));
    const auto c = parse_container(sealed_);
    const auto params = c.slot_offset(0) + layout::slot_type_size + layout::slot_salt_size;
    const std::vector<std::pair<std::size_t, std::uint8_t>> cases = {
        {layout::chunk_log2_offset, 11}, {layout::chunk_log2_offset, 25},
        {layout::chunk_log2_offset, 0},  {params, 1}, {params + 7, 1}};
    for (const auto& [offset, value] : cases) {
        SCOPED_TRACE(::testing::Message() << "byte " << offset << " = " << int{value});
        auto bytes = sealed_;
        bytes[offset] = static_cast<char>(value);
        expect_rejected(with_valid_checksum(bytes, c), 4, {"header", "malformed"});
    }
}

TEST_F(HeaderTamper, PassphraseCostOutOfRangeOrOverTheCapWithAValidChecksum) {
    const auto secret = make_file("pw", "cost\n");
    seal_with_passphrase_file(secret);
    if (HasFatalFailure()) return;
    const auto c = parse_container(sealed_);
    const auto passes = c.slot_offset(0) + layout::slot_type_size + layout::slot_salt_size;
    const auto memory = passes + 4;
    const std::vector<std::string> keys = {"--passphrase-file", secret.string()};
    auto with_u32 = [&](std::size_t offset, std::uint32_t value) {
        auto bytes = sealed_;
        for (std::size_t i = 0; i < 4; ++i) bytes[offset + i] = static_cast<char>(value >> (24 - 8 * i));
        return with_valid_checksum(bytes, c);
    };
    for (const std::uint32_t bad_passes : {0u, 17u}) {
        SCOPED_TRACE(::testing::Message() << "passes " << bad_passes);
        expect_rejected(with_u32(passes, bad_passes), 4, {"header", "malformed"}, 0, keys);
    }
    for (const std::uint32_t bad_memory : {7u, 4194305u}) {
        SCOPED_TRACE(::testing::Message() << "memory_kib " << bad_memory);
        expect_rejected(with_u32(memory, bad_memory), 4, {"header", "malformed"}, 0, keys);
    }
    // In range but over --kdf-max-memory (default 1024 MiB): refused before running Argon2id.
    SCOPED_TRACE("memory_kib 2 GiB, over the default cap");
    expect_rejected(with_u32(memory, 2u << 20), 2, {"--kdf-max-memory"}, 0, keys);
}

TEST_F(HeaderTamper, FieldsCoveredByTheMac) {
    // Valid checksum, a slot that opens: only the MAC (SPEC section 7, item 6) can tell. (Not the
    // suite byte: the slots are sealed with the file's suite, so relabelling it fails the slot.)
    seal(pattern(1000));
    const auto c = parse_container(sealed_);
    const std::vector<std::pair<std::size_t, std::uint8_t>> cases = {
        {layout::chunk_log2_offset, 17},    // another chunk size
        {c.payload_nonce_offset(), static_cast<std::uint8_t>(sealed_[c.payload_nonce_offset()] ^ 1)}};
    for (const auto& [offset, value] : cases) {
        SCOPED_TRACE(::testing::Message() << "byte " << offset << " = " << int{value});
        auto bytes = sealed_;
        bytes[offset] = static_cast<char>(value);
        expect_rejected(with_valid_checksum(bytes, c), 4, {"header", "tampered", "mac"});
    }
}

}  // namespace
}  // namespace warp::clitest
