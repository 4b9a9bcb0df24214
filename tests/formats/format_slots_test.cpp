// Key slots (SPEC 4): the key-check value that makes a slot commit to its secret, the one
// passphrase slot a file may hold, the cap on one attempt's Argon2id work, slots of unknown
// types skipped, and files of the version 1 writer (SPEC 10) still opening.
#include <gtest/gtest.h>
#include <sodium.h>

#include <memory>
#include <optional>

#include "engine/aead_key.hpp"
#include "engine/selection.hpp"
#include "formats/common/big_endian.hpp"
#include "formats/warp/header.hpp"
#include "formats/common/kdf.hpp"
#include "formats/warp/key_slot.hpp"
#include "formats/warp/suite.hpp"
#include "formats/warp/unlock.hpp"
#include "tests/support/hex.hpp"
#include "tests/formats/format_fixtures.hpp"

namespace warp::formats::warp_format::test {
namespace {

std::span<const std::uint8_t> label(std::string_view text) {
    return {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()};
}

// A key-file slot made from SPEC 4's text, with `check` stored as its key-check value and
// sealed into the AAD: the wrapped key authenticates under the right wrapping key whatever
// the check says.
Bytes spec_key_file_slot(const Secret& secret, const std::array<std::uint8_t, 16>& salt,
                         std::span<const std::uint8_t, kFileKeySize> file_key,
                         const std::optional<std::array<std::uint8_t, 32>>& stored_check) {
    WipedKey s, wrap_key;
    hkdf_sha256(secret.bytes.span(), salt, label("warpcrypt v2 key-file slot"), s.span());
    std::array<std::uint8_t, 32> check{};
    hkdf_sha256(s.span(), salt, label("warpcrypt v2 slot check"), check);
    hkdf_sha256(s.span(), salt, label("warpcrypt v2 slot wrap"), wrap_key.span());
    Bytes slot = {2, 0, 96};
    slot.insert(slot.end(), salt.begin(), salt.end());
    const auto& written = stored_check ? *stored_check : check;
    slot.insert(slot.end(), written.begin(), written.end());
    const std::size_t aad_size = slot.size();
    slot.resize(aad_size + kWrappedKeySize);
    const AeadKey key(*select(Aead::aes_gcm, SizeHint::exactly(kFileKeySize)).impl,
                      wrap_key.span());
    const std::array<std::uint8_t, kNonceSize> zero{};
    const AeadChunk chunk{zero.data(), zero.size(), slot.data(), aad_size, file_key.data(),
                          slot.data() + aad_size, kFileKeySize,
                          slot.data() + aad_size + kFileKeySize};
    key.seal({&chunk, 1});
    return slot;
}

bool opens(const Bytes& slot, const Secret& secret) {
    const SlotFields fields = decode_slot(slot[0], {slot.data() + 3, slot.size() - 3});
    std::array<std::uint8_t, kFileKeySize> file_key{};
    return open_slot(fields, secret, *select(Aead::aes_gcm, SizeHint::exactly(kFileKeySize)).impl,
                     file_key);
}

TEST(FormatSlots, MakeSlotIsSpecFourByteForByte) {
    const std::array<std::uint8_t, kFileKeySize> file_key{7, 7, 7};
    const Secret secret = key_file_secret(4);
    const AeadImpl& aead = *select(Aead::aes_gcm, SizeHint::exactly(32)).impl;
    const Bytes made = make_slot(secret, file_key, aead, counter_from(0x60));
    std::array<std::uint8_t, 16> salt{};
    for (std::size_t i = 0; i < salt.size(); ++i) salt[i] = static_cast<std::uint8_t>(0x60 + i);
    EXPECT_EQ(made, spec_key_file_slot(secret, salt, file_key, std::nullopt));
    EXPECT_TRUE(opens(made, secret));
    EXPECT_FALSE(opens(made, key_file_secret(5)));
}

TEST(FormatSlots, TheCheckValueDecidesEvenWhenTheWrappedKeyAuthenticates) {
    // The AEAD alone does not commit to its key (AES-GCM and ChaCha20-Poly1305 are not
    // key-committing): the check value is what lets one secret, and only one, open a slot.
    const std::array<std::uint8_t, kFileKeySize> file_key{1, 2, 3};
    const std::array<std::uint8_t, 16> salt{9};
    std::array<std::uint8_t, 32> other_check{};
    other_check.fill(0xaa);
    const Bytes forged = spec_key_file_slot(key_file_secret(4), salt, file_key, other_check);
    EXPECT_FALSE(opens(forged, key_file_secret(4)));
    EXPECT_TRUE(opens(spec_key_file_slot(key_file_secret(4), salt, file_key, std::nullopt),
                      key_file_secret(4)));
}

// `file` (made with counter_from(start)'s randomness, so its file key is start..start+31)
// with its slots replaced by `slots` and its MAC made again: what a key holder can do.
Bytes with_slots(const Bytes& file, std::uint8_t start, const std::vector<Bytes>& slots) {
    std::array<std::uint8_t, kFileKeySize> file_key{};
    for (std::size_t i = 0; i < file_key.size(); ++i) file_key[i] = static_cast<std::uint8_t>(start + i);
    const std::size_t old_size = header_size_in(file);
    std::array<std::uint8_t, kPayloadNonceSize> nonce{};
    std::copy_n(file.begin() + static_cast<std::ptrdiff_t>(old_size - kHeaderEndSize),
                kPayloadNonceSize, nonce.begin());
    Bytes header = build_header(static_cast<Suite>(file[kSuiteOffset]), file[kChunkLog2Offset],
                                slots, nonce);
    WipedKey header_key;
    derive_header_key(file_key, header_key);
    set_header_mac(header, header_key.span());
    header.insert(header.end(), file.begin() + static_cast<std::ptrdiff_t>(old_size), file.end());
    return header;
}

Bytes key_file_file(const Bytes& plain) {
    Options options = options_for({key_file_secret(4)});
    options.random = counter_from(0x10);
    return encrypt_bytes(plain, options);
}

Bytes own_slot(const Bytes& file) {
    const std::size_t size = 3 + kKeyFileSlotBodySize;
    return Bytes(file.begin() + kPreambleSize, file.begin() + kPreambleSize + size);
}

TEST(FormatSlots, UnknownTypesAreSkipped) {
    const Bytes plain = pattern(9000);
    const Bytes file = key_file_file(plain);
    auto slot_of_type = [](std::uint8_t type, std::uint8_t body_size, std::uint8_t fill) {
        Bytes slot(3 + std::size_t{body_size}, fill);
        slot[0] = type;
        slot[1] = 0;
        slot[2] = body_size;
        return slot;
    };
    const Bytes later = slot_of_type(0x40, 80, 0x33);  // types of later versions
    const Bytes future = slot_of_type(0x7f, 200, 0x55);
    const Bytes mixed = with_slots(file, 0x10, {later, future, own_slot(file)});
    Result result;
    EXPECT_EQ(decrypt_bytes(mixed, {key_file_secret(4)}, &result), plain);
    EXPECT_EQ(result.opened_with, 2u);
    stream::SpanSource in(mixed);
    const FileInfo info = warp_format::read_info(in, mixed.size());
    ASSERT_EQ(info.entries.size(), 3u);
    EXPECT_FALSE(info.entries[0].known);
    EXPECT_EQ(info.entries[1].type_code.value_or(0), 0x7fu);
    EXPECT_TRUE(info.entries[2].known);
    expect_error([&] { decrypt_bytes(mixed, {key_file_secret(5)}); }, ErrorCause::wrong_key,
                 "2 key slots of a type this warpcrypt does not know, skipped");

    const Bytes only_unknown = with_slots(file, 0x10, {later, future});
    expect_error([&] { decrypt_bytes(only_unknown, {key_file_secret(4)}); },
                 ErrorCause::unsupported, "types: 64 and 127");

    // The same two files over SPEC 9's example, for the CLI tests (worked_example.key opens
    // the first; nothing this version knows opens the second).
    Options example = options_for({Secret{
        KeyType::key_file, decode_key_file(read_text(testdata("worked_example.key"))), {}}});
    example.random = counter_from(0x40);
    const std::string hello = "Hello, world\n";
    const Bytes base = encrypt_bytes(Bytes(hello.begin(), hello.end()), example);
    expect_committed(with_slots(base, 0x40, {later, future, own_slot(base)}),
                     "unknown-slot-types.warp");
    expect_committed(with_slots(base, 0x40, {later, future}), "only-unknown-slot-types.warp");
}

TEST(FormatSlots, AtMostOnePassphraseSlot) {
    expect_error([&] { encrypt_bytes(pattern(10), options_for({passphrase("a"), passphrase("b")})); },
                 ErrorCause::usage, "at most one passphrase slot");
    // A file that holds two anyway (made by hand) is refused before any KDF runs.
    Options options = options_for({passphrase("a")});
    options.random = counter_from(0x10);
    const Bytes file = encrypt_bytes(pattern(10), options);
    const std::size_t size = 3 + kPassphraseSlotBodySize;
    const Bytes slot(file.begin() + kPreambleSize, file.begin() + kPreambleSize + size);
    const Bytes two = with_slots(file, 0x10, {slot, slot});
    expect_error([&] { decrypt_bytes(two, {passphrase("a")}); }, ErrorCause::corrupted,
                 "2 passphrase slots, and a file may hold at most one");
}

TEST(FormatSlots, ArgonWorkIsCappedPerAttempt) {
    const Bytes plain = pattern(100);
    const Bytes file = encrypt_bytes(plain, options_for({passphrase("pw", KdfParams{16, 8 * 1024})}));
    auto open_with = [&](std::vector<Secret> identities, std::uint64_t work_kib) {
        Options options;
        options.identities = std::move(identities);
        options.kdf_limits.max_work_kib = work_kib;
        stream::SpanSource in(file);
        stream::VectorSink out;
        warp_format::decrypt(in, out, options);
        return out.bytes;
    };
    // 16 passes x 8 MiB = 128 MiB-passes.
    EXPECT_EQ(open_with({passphrase("pw")}, 128 * 1024), plain);
    expect_error([&] { open_with({passphrase("pw")}, 127 * 1024); }, ErrorCause::usage,
                 "Argon2id work of 16 passes x 8 MiB = 128 MiB-passes, over the --kdf-max-work "
                 "limit of 127 MiB-passes");
    // Summed over the attempt: a wrong passphrase spends the budget the right one needed.
    expect_error([&] { open_with({passphrase("wrong"), passphrase("pw")}, 200 * 1024); },
                 ErrorCause::usage, "--kdf-max-work");
    EXPECT_EQ(open_with({passphrase("wrong"), passphrase("pw")}, 256 * 1024), plain);
    EXPECT_EQ(Options{}.kdf_limits.max_work_kib, 4u * 3 * 256 * 1024);
}

TEST(FormatVersion1, FilesOfTheVersion1WriterStillOpen) {
    // Made by the version 1 writer (commit 80c3696, `warpcrypt encrypt`): 17600 bytes of text.
    const std::string expected_sha256 =
        "26059a9aa30701341077d835bdc87876875b9997c8ca6039fe75248b0c57d6f6";
    const Secret key{KeyType::key_file, decode_key_file(read_text(testdata("v1/legacy.key"))), {}};
    std::string line = read_text(testdata("v1/legacy.passphrase"));
    line.pop_back();  // the newline
    const Secret pass = passphrase(line);
    for (const char* name : {"v1/keyfile-and-passphrase.warp", "v1/chacha-keyfile.warp"}) {
        SCOPED_TRACE(name);
        const Bytes file = read_bytes(testdata(name));
        ASSERT_EQ(file[kVersionOffset], 1);
        const Bytes plain = decrypt_bytes(file, {key});
        EXPECT_EQ(plain.size(), 17600u);
        std::array<std::uint8_t, crypto_hash_sha256_BYTES> digest{};
        crypto_hash_sha256(digest.data(), plain.data(), plain.size());
        EXPECT_EQ(warp::test::to_hex(digest), expected_sha256);
    }
    EXPECT_EQ(decrypt_bytes(read_bytes(testdata("v1/keyfile-and-passphrase.warp")), {pass}).size(),
              17600u);
    // The version 1 writer let a file hold several passphrase slots: refused now.
    expect_error([&] { decrypt_bytes(read_bytes(testdata("v1/two-passphrases.warp")), {pass}); },
                 ErrorCause::corrupted, "2 passphrase slots, and a file may hold at most one");
}

}  // namespace
}  // namespace warp::formats::warp_format::test
