// Container round trips (formats/file.hpp): sizes around the chunk size, both suites,
// key-file and passphrase slots, several slots, and the errors of opening with the wrong
// secret.
#include <gtest/gtest.h>

#include <algorithm>

#include "formats/warp/constants.hpp"
#include "tests/formats/format_fixtures.hpp"

namespace warp::formats::warp_format::test {
namespace {

struct SizeCase {
    Suite suite;
    std::size_t size;
};

class FormatRoundTrip : public ::testing::TestWithParam<SizeCase> {};

TEST_P(FormatRoundTrip, DecryptsWhatItEncrypted) {
    constexpr unsigned log2 = 12;
    const Bytes plain = pattern(GetParam().size);
    const Bytes file =
        encrypt_bytes(plain, options_for({key_file_secret(7)}, GetParam().suite, log2));

    // SPEC 6: the file's size follows from the plaintext's.
    const std::size_t chunks = (plain.size() + (1u << log2) - 1) >> log2;
    EXPECT_EQ(file.size(),
              header_size(1) + plain.size() + kTagSize * chunks + kTrailerChunkSize);
    Result result;
    EXPECT_EQ(decrypt_bytes(file, {key_file_secret(7)}, &result), plain);
    EXPECT_EQ(result.plaintext_bytes, plain.size());
    EXPECT_EQ(result.opened_with, 0u);
}

std::vector<SizeCase> size_cases() {
    std::vector<SizeCase> cases;
    constexpr std::size_t c = 4096;
    for (Suite suite : {Suite::aes_256_gcm, Suite::chacha20_poly1305})
        for (std::size_t size : {std::size_t{0}, std::size_t{1}, c - 1, c, c + 1, 3 * c,
                                 7 * c + 123, 2000 * c + 5})  // the last crosses batches
            cases.push_back({suite, size});
    return cases;
}

INSTANTIATE_TEST_SUITE_P(SizesAndSuites, FormatRoundTrip, ::testing::ValuesIn(size_cases()),
                         [](const auto& param_info) {
                             return std::string(param_info.param.suite == Suite::aes_256_gcm ? "aes"
                                                                                       : "chacha") +
                                    "_" + std::to_string(param_info.param.size);
                         });

TEST(FormatRoundTrip, EveryChunkSizeExponent) {
    for (unsigned log2 : {12u, 13u, 16u, 20u, 24u}) {
        const Bytes plain = pattern((std::size_t{1} << log2) + 3, log2);
        const Bytes file = encrypt_bytes(
            plain, options_for({key_file_secret(1)}, Suite::chacha20_poly1305, log2));
        EXPECT_EQ(file[kChunkLog2Offset], log2);
        EXPECT_EQ(decrypt_bytes(file, {key_file_secret(1)}), plain) << log2;
    }
}

TEST(FormatRoundTrip, PassphraseSlot) {
    const Bytes plain = pattern(10000);
    const Bytes file = encrypt_bytes(plain, options_for({passphrase("correct horse")}));
    EXPECT_EQ(file[kPreambleSize], static_cast<std::uint8_t>(SlotType::passphrase));
    EXPECT_EQ(decrypt_bytes(file, {passphrase("correct horse")}), plain);
    expect_error([&] { decrypt_bytes(file, {passphrase("correct horsE")}); },
                 ErrorCause::wrong_key,
                 "wrong key or passphrase, or an altered header: none of the 1 key slot opened");
}

TEST(FormatRoundTrip, SeveralSlotsEachOpenTheFile) {
    const Bytes plain = pattern(5000);
    const Bytes file = encrypt_bytes(
        plain, options_for({key_file_secret(1), passphrase("two"), key_file_secret(3)},
                           Suite::chacha20_poly1305));
    EXPECT_EQ(file[kSlotCountOffset], 3);
    Result result;
    EXPECT_EQ(decrypt_bytes(file, {key_file_secret(3)}, &result), plain);
    EXPECT_EQ(result.opened_with, 2u);
    EXPECT_EQ(decrypt_bytes(file, {passphrase("two")}, &result), plain);
    EXPECT_EQ(result.opened_with, 1u);
    // Identities are tried in turn: a wrong one first does not matter.
    EXPECT_EQ(decrypt_bytes(file, {key_file_secret(9), passphrase("nope"), key_file_secret(1)},
                            &result),
              plain);
    EXPECT_EQ(result.opened_with, 0u);
    expect_error([&] { decrypt_bytes(file, {key_file_secret(9), passphrase("nope")}); },
                 ErrorCause::wrong_key, "none of the 3 key slots opened");
}

TEST(FormatRoundTrip, SixteenSlotsAtMostAndOneAtLeast) {
    std::vector<Secret> many;
    for (int i = 0; i < 16; ++i) many.push_back(key_file_secret(static_cast<std::uint8_t>(i)));
    const Bytes file = encrypt_bytes(pattern(10), options_for(many));
    Result result;
    EXPECT_EQ(decrypt_bytes(file, {key_file_secret(15)}, &result), pattern(10));
    EXPECT_EQ(result.opened_with, 15u);
    many.push_back(key_file_secret(16));
    expect_error([&] { encrypt_bytes({}, options_for(many)); }, ErrorCause::usage, "1 to 16");
    expect_error([&] { encrypt_bytes({}, options_for({})); }, ErrorCause::usage, "1 to 16");
}

TEST(FormatRoundTrip, WrongSecretTypeSaysWhatTheFileNeeds) {
    const Bytes file = encrypt_bytes(pattern(10), options_for({passphrase("pw")}));
    expect_error([&] { decrypt_bytes(file, {key_file_secret(1)}); }, ErrorCause::wrong_key,
                 "the file has 1 passphrase slot, and no passphrase was given");
    expect_error([&] { decrypt_bytes(file, {}); }, ErrorCause::usage,
                 "no key, identity or passphrase");
    const Bytes mixed = encrypt_bytes(
        pattern(10), options_for({passphrase("pw"), key_file_secret(2), key_file_secret(3)}));
    expect_error([&] { decrypt_bytes(mixed, {Secret{KeyType::x25519, SecretBytes(32), {}}}); },
                 ErrorCause::wrong_key,
                 "the file has 1 passphrase slot and 2 key-file slots, and no passphrase or key "
                 "file was given");
}

TEST(FormatRoundTrip, KdfMemoryOverTheCapIsRefusedBeforeArgon2) {
    const Bytes file =
        encrypt_bytes(pattern(10), options_for({passphrase("pw", KdfParams{1, 64 * 1024})}));
    Options options;
    options.identities.push_back(passphrase("pw"));
    options.kdf_limits.max_memory_kib = 32 * 1024;
    stream::SpanSource in(file);
    stream::DiscardSink out;
    expect_error([&] { warp_format::decrypt(in, out, options); }, ErrorCause::usage,
                 "key slot 1 needs 64 MiB for its passphrase KDF (Argon2id), over the "
                 "--kdf-max-memory limit of 32 MiB");
    // Another slot that opens wins over the refused one.
    const Bytes two = encrypt_bytes(
        pattern(10), options_for({passphrase("pw", KdfParams{1, 64 * 1024}), key_file_secret(3)}));
    options.identities = {passphrase("pw"), key_file_secret(3)};
    stream::SpanSource in2(two);
    stream::VectorSink out2;
    EXPECT_EQ(warp_format::decrypt(in2, out2, options).opened_with, 1u);
    EXPECT_EQ(out2.bytes, pattern(10));
}

TEST(FormatRoundTrip, EncryptRefusesBadOptions) {
    auto bad_chunk = options_for({key_file_secret(1)});
    bad_chunk.chunk_log2 = 25;
    expect_error([&] { encrypt_bytes({}, bad_chunk); }, ErrorCause::usage, "2^25");
    Secret short_key{KeyType::key_file, SecretBytes(std::string_view("short")), {}};
    expect_error([&] { encrypt_bytes({}, options_for({short_key})); }, ErrorCause::usage,
                 "32 bytes");
    expect_error([&] { encrypt_bytes({}, options_for({passphrase("x", KdfParams{0, 8192})})); },
                 ErrorCause::usage, "passes");
    expect_error([&] { encrypt_bytes({}, options_for({passphrase("x", KdfParams{1, 4})})); },
                 ErrorCause::usage, "memory");
}

// A pipe hands out a few bytes at a time; the format must not care.
class TricklingSource final : public ByteSource {
public:
    explicit TricklingSource(const Bytes& bytes) : bytes_(bytes) {}
    std::size_t read(std::uint8_t* buf, std::size_t len) override {
        const std::size_t n = std::min({len, bytes_.size() - position_, 1 + position_ % 7});
        std::copy_n(bytes_.begin() + static_cast<std::ptrdiff_t>(position_), n, buf);
        position_ += n;
        return n;
    }

private:
    const Bytes& bytes_;
    std::size_t position_ = 0;
};

TEST(FormatRoundTrip, ShortReadsAreFine) {
    const Bytes plain = pattern(3 * 4096 + 11);
    TricklingSource trickle_plain(plain);
    stream::VectorSink sealed;
    warp_format::encrypt(trickle_plain, sealed, options_for({key_file_secret(6)}));
    Options options;
    options.identities.push_back(key_file_secret(6));
    TricklingSource trickle_sealed(sealed.bytes);
    stream::VectorSink opened;
    EXPECT_EQ(warp_format::decrypt(trickle_sealed, opened, options).plaintext_bytes, plain.size());
    EXPECT_EQ(opened.bytes, plain);
}

TEST(FormatRoundTrip, FreshRandomnessEveryTime) {
    const Bytes a = encrypt_bytes(pattern(100), options_for({key_file_secret(1)}));
    const Bytes b = encrypt_bytes(pattern(100), options_for({key_file_secret(1)}));
    ASSERT_EQ(a.size(), b.size());
    EXPECT_NE(a, b);
}

TEST(FormatRoundTrip, ProgressReportsEveryBatch) {
    const Bytes plain = pattern((5 << 20) / 2);  // two and a half 1 MiB batches
    auto options = options_for({key_file_secret(1)}, Suite::chacha20_poly1305, 16);
    std::vector<std::uint64_t> seen;
    options.progress = [&](std::uint64_t done) { seen.push_back(done); };
    const Bytes file = encrypt_bytes(plain, options);
    ASSERT_EQ(seen.size(), 3u);
    EXPECT_EQ(seen.back(), plain.size());

    Options dopt;
    dopt.identities.push_back(key_file_secret(1));
    std::vector<std::uint64_t> seen_decrypting;
    dopt.progress = [&](std::uint64_t done) { seen_decrypting.push_back(done); };
    stream::SpanSource in(file);
    stream::DiscardSink out;
    EXPECT_EQ(warp_format::decrypt(in, out, dopt).plaintext_bytes, plain.size());
    EXPECT_EQ(seen_decrypting, seen);
}

TEST(FormatRoundTrip, ExplicitBackend) {
    const Backend& scalar = find_backend("scalar");
    auto options = options_for({key_file_secret(2)});
    options.backend = &scalar;
    const Bytes file = encrypt_bytes(pattern(5000), options);
    Options dopt;
    dopt.identities.push_back(key_file_secret(2));
    dopt.backend = &scalar;
    stream::SpanSource in(file);
    stream::VectorSink out;
    warp_format::decrypt(in, out, dopt);
    EXPECT_EQ(out.bytes, pattern(5000));
}

TEST(FormatSuites, NamesRoundTrip) {
    EXPECT_EQ(suite_name(Suite::aes_256_gcm), "aes-256-gcm");
    EXPECT_EQ(suite_name(Suite::chacha20_poly1305), "chacha20-poly1305");
    EXPECT_EQ(parse_cipher_name("chacha20-poly1305"), Aead::chacha20_poly1305);
    EXPECT_EQ(parse_cipher_name("aes-256-gcm"), Aead::aes_gcm);
    EXPECT_FALSE(parse_cipher_name("aes-128-gcm").has_value());
}

}  // namespace
}  // namespace warp::formats::warp_format::test
