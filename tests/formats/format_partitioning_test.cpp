// The security review's partitioning-oracle attack on passphrase slots, rebuilt: AES-GCM does
// not commit to its key, so one version 1 passphrase slot can be made to open under three
// chosen passphrases at once (a key multi-collision: the tag equations of three keys, linear in
// the two ciphertext blocks and the tag, solved over GF(2^128)). With 16 such slots a crafted
// file tested 48 guesses per attempt, and the old reader told which case it was: "wrong key"
// (3) when no slot opened, "MAC mismatch" (4) when one did under a file key the MAC did not
// match.
//
// This test makes those files (formats/warp/testdata/v1/partition-*.warp, committed so that the
// CLI tests can run the binary on them) and checks the reader's answers: more than one
// passphrase slot is refused outright whatever the passphrase, and one colliding slot gives
// the same outcome for a colliding guess as for any wrong passphrase. Version 2 slots commit
// (format_slots_test.cpp): such a slot cannot be made at all.
#include <gtest/gtest.h>
#include <openssl/evp.h>
#include <xxhash.h>

#include <array>
#include <memory>

#include "engine/aead_key.hpp"
#include "engine/selection.hpp"
#include "engine/stream/memory_io.hpp"
#include "formats/common/big_endian.hpp"
#include "formats/common/kdf.hpp"
#include "formats/warp/payload.hpp"
#include "formats/warp/suite.hpp"
#include "formats/warp/unlock.hpp"
#include "tests/support/hex.hpp"
#include "tests/formats/format_fixtures.hpp"

namespace warp::formats::warp_format::test {
namespace {

// ---- GF(2^128) as GCM uses it (SP 800-38D 6.3): bit 0 is the first byte's top bit ----------

struct Gf {
    std::uint64_t hi = 0, lo = 0;  // the first and last 8 bytes, big-endian
    bool operator==(const Gf&) const = default;
};

Gf gf_from(const std::uint8_t* bytes) {
    return {load_be<std::uint64_t>(bytes), load_be<std::uint64_t>(bytes + 8)};
}
void gf_store(const Gf& x, std::uint8_t* out) {
    store_be<std::uint64_t>(out, x.hi);
    store_be<std::uint64_t>(out + 8, x.lo);
}
Gf operator^(Gf a, Gf b) { return {a.hi ^ b.hi, a.lo ^ b.lo}; }

Gf gf_mul(Gf x, Gf y) {  // SP 800-38D, Algorithm 1 (a test: no need for constant time)
    Gf z, v = y;
    for (int i = 0; i < 128; ++i) {
        const bool bit = i < 64 ? (x.hi >> (63 - i)) & 1 : (x.lo >> (127 - i)) & 1;
        if (bit) z = z ^ v;
        const bool carry = v.lo & 1;
        v.lo = (v.lo >> 1) | (v.hi << 63);
        v.hi >>= 1;
        if (carry) v.hi ^= 0xe100000000000000ull;
    }
    return z;
}

const Gf kOne{0x8000000000000000ull, 0};

Gf gf_inverse(Gf a) {  // a^(2^128 - 2)
    Gf r = kOne;
    for (int i = 0; i < 127; ++i) r = gf_mul(gf_mul(r, r), a);
    return gf_mul(r, r);
}

// ---- AES-256 blocks from the test oracle ---------------------------------------------------

Gf aes_block(const WipedKey& key, const std::array<std::uint8_t, 16>& in) {
    std::unique_ptr<EVP_CIPHER_CTX, decltype(&EVP_CIPHER_CTX_free)> ctx(EVP_CIPHER_CTX_new(),
                                                                        EVP_CIPHER_CTX_free);
    std::array<std::uint8_t, 32> out{};
    int len = 0;
    EXPECT_EQ(EVP_EncryptInit_ex(ctx.get(), EVP_aes_256_ecb(), nullptr, key.data(), nullptr), 1);
    EVP_CIPHER_CTX_set_padding(ctx.get(), 0);
    EXPECT_EQ(EVP_EncryptUpdate(ctx.get(), out.data(), &len, in.data(), 16), 1);
    return gf_from(out.data());
}

std::array<std::uint8_t, 16> counter_block(std::uint32_t counter) {  // nonce 0^96 || counter
    std::array<std::uint8_t, 16> block{};
    store_be<std::uint32_t>(block.data() + 12, counter);
    return block;
}

// ---- The crafted version 1 file ---------------------------------------------------------

constexpr KdfParams kCheapKdf{1, 8 * 1024};
constexpr std::size_t kGuessesPerSlot = 3;

std::string guess(std::size_t i) {
    std::string text = "guess-00";
    text[6] = static_cast<char>('0' + i / 10);
    text[7] = static_cast<char>('0' + i % 10);
    return text;
}

// One version 1 passphrase slot (SPEC 10) whose wrapped key authenticates under each of the
// three guesses' wrapping keys; `file_keys` gets the file key each of them unwraps.
Bytes colliding_slot(std::size_t first_guess, std::uint8_t salt_byte,
                     std::array<Bytes, kGuessesPerSlot>& file_keys) {
    Bytes slot(kV1SlotSize, 0);
    slot[0] = static_cast<std::uint8_t>(SlotType::passphrase);
    std::fill_n(slot.begin() + 1, kSlotSaltSize, salt_byte);
    store_be<std::uint32_t>(slot.data() + 17, kCheapKdf.passes);
    store_be<std::uint32_t>(slot.data() + 21, kCheapKdf.memory_kib);
    std::array<std::uint8_t, kSlotSaltSize> salt{};
    std::fill(salt.begin(), salt.end(), salt_byte);

    // GHASH over A (25 bytes: 2 blocks), C (2 blocks) and the lengths: with H the hash key,
    // T = E(J0) + A1 H^5 + A2 H^4 + C1 H^3 + C2 H^2 + L H. For each key i that is linear in
    // (C1, C2, T): C1 H_i^3 + C2 H_i^2 + T = E_i(J0) + A1 H_i^5 + A2 H_i^4 + L H_i.
    std::array<std::uint8_t, 32> aad_blocks{};
    std::copy_n(slot.begin(), kV1SlotPrefixSize, aad_blocks.begin());
    const Gf a1 = gf_from(aad_blocks.data()), a2 = gf_from(aad_blocks.data() + 16);
    std::array<std::uint8_t, 16> lengths{};
    store_be<std::uint64_t>(lengths.data(), kV1SlotPrefixSize * 8);
    store_be<std::uint64_t>(lengths.data() + 8, kFileKeySize * 8);
    const Gf l = gf_from(lengths.data());

    std::array<std::array<Gf, 4>, kGuessesPerSlot> rows;  // [H^3, H^2, 1 | b]
    std::array<std::array<Gf, 2>, kGuessesPerSlot> keystream;
    for (std::size_t i = 0; i < kGuessesPerSlot; ++i) {
        WipedKey key;
        const std::string pass = guess(first_guess + i);
        argon2id({reinterpret_cast<const std::uint8_t*>(pass.data()), pass.size()}, salt,
                 kCheapKdf.passes, kCheapKdf.memory_kib, key.span());
        const Gf h = aes_block(key, {});
        const Gf h2 = gf_mul(h, h), h3 = gf_mul(h2, h), h4 = gf_mul(h3, h), h5 = gf_mul(h4, h);
        const Gf b = aes_block(key, counter_block(1)) ^ gf_mul(a1, h5) ^ gf_mul(a2, h4) ^
                     gf_mul(l, h);
        rows[i] = {h3, h2, kOne, b};
        keystream[i] = {aes_block(key, counter_block(2)), aes_block(key, counter_block(3))};
    }
    // Gaussian elimination (characteristic 2: subtraction is XOR).
    for (std::size_t col = 0; col < 3; ++col) {
        std::size_t pivot = col;
        while (rows[pivot][col] == Gf{}) ++pivot;
        std::swap(rows[col], rows[pivot]);
        const Gf inverse = gf_inverse(rows[col][col]);
        for (Gf& x : rows[col]) x = gf_mul(x, inverse);
        for (std::size_t r = 0; r < kGuessesPerSlot; ++r) {
            if (r == col) continue;
            const Gf factor = rows[r][col];
            for (std::size_t c = 0; c < 4; ++c) rows[r][c] = rows[r][c] ^ gf_mul(factor, rows[col][c]);
        }
    }
    const Gf c1 = rows[0][3], c2 = rows[1][3], tag = rows[2][3];
    gf_store(c1, slot.data() + kV1SlotPrefixSize);
    gf_store(c2, slot.data() + kV1SlotPrefixSize + 16);
    gf_store(tag, slot.data() + kV1SlotPrefixSize + 32);
    for (std::size_t i = 0; i < kGuessesPerSlot; ++i) {
        Bytes plain(32);
        gf_store(c1 ^ keystream[i][0], plain.data());
        gf_store(c2 ^ keystream[i][1], plain.data() + 16);
        file_keys[i] = plain;
    }
    return slot;
}

// A version 1 file of `slot_count` colliding slots (3 guesses each, from guess-00 on) whose
// header MAC and payload belong to the file key guess-00 unwraps.
Bytes crafted_v1_file(std::size_t slot_count, const Bytes& plaintext) {
    Bytes header(kMagic.begin(), kMagic.end());
    header.insert(header.end(), {kVersion1, static_cast<std::uint8_t>(Suite::aes_256_gcm), 12,
                                 static_cast<std::uint8_t>(slot_count)});
    Bytes mac_file_key;
    for (std::size_t s = 0; s < slot_count; ++s) {
        std::array<Bytes, kGuessesPerSlot> file_keys;
        const Bytes slot = colliding_slot(s * kGuessesPerSlot, static_cast<std::uint8_t>(0x10 + s),
                                          file_keys);
        if (s == 0) mac_file_key = file_keys[0];
        header.insert(header.end(), slot.begin(), slot.end());
    }
    std::array<std::uint8_t, kPayloadNonceSize> nonce{};
    nonce.fill(0x77);
    header.insert(header.end(), nonce.begin(), nonce.end());
    const std::size_t covered = header.size();
    header.resize(covered + kChecksumSize + kHeaderMacSize);
    store_be<std::uint64_t>(header.data() + covered, XXH3_64bits(header.data(), covered));
    const std::span<const std::uint8_t, kFileKeySize> file_key(mac_file_key.data(), kFileKeySize);
    WipedKey header_key, payload_key;
    derive_header_key(file_key, header_key);
    set_header_mac(header, header_key.span());
    derive_payload_key(file_key, Suite::aes_256_gcm, nonce, payload_key);
    stream::SpanSource in(plaintext);
    stream::VectorSink out;
    out.bytes = header;
    const AeadKey key(*select(Aead::aes_gcm, SizeHint::exactly(1)).impl, payload_key.span());
    seal_payload(key, 12, in, out, {}, 1);
    return out.bytes;
}

const Bytes kPlaintext = [] {
    const std::string text = "the crafted file's plaintext\n";
    return Bytes(text.begin(), text.end());
}();

TEST(FormatPartitioning, OneVersion1SlotOpensUnderThreeGuessesButOnlyOneUnlocks) {
    std::array<Bytes, kGuessesPerSlot> file_keys;
    const Bytes slot = colliding_slot(0, 0x10, file_keys);
    // The attack works on the slot: all three guesses open it, each to another file key.
    SlotFields fields = decode_v1_slot(std::span<const std::uint8_t, kV1SlotSize>(slot.data(), kV1SlotSize));
    for (std::size_t i = 0; i < kGuessesPerSlot; ++i) {
        std::array<std::uint8_t, kFileKeySize> file_key{};
        EXPECT_TRUE(open_slot(fields, passphrase(guess(i), kCheapKdf),
                              *select(Aead::aes_gcm, SizeHint::exactly(32)).impl, file_key))
            << guess(i);
        EXPECT_EQ(Bytes(file_key.begin(), file_key.end()), file_keys[i]);
    }
    EXPECT_NE(file_keys[0], file_keys[1]);

    // The reader does not tell a colliding guess from any other wrong passphrase.
    const Bytes file = crafted_v1_file(1, kPlaintext);
    expect_committed(file, "v1/partition-1-slot.warp");
    EXPECT_EQ(decrypt_bytes(file, {passphrase("guess-00", kCheapKdf)}), kPlaintext);
    std::string first_message;
    for (const std::string& pass : {std::string("guess-01"), std::string("guess-02"),
                                    std::string("not a guess")}) {
        try {
            decrypt_bytes(file, {passphrase(pass, kCheapKdf)});
            ADD_FAILURE() << pass << " opened the file";
        } catch (const Error& e) {
            EXPECT_EQ(e.cause(), ErrorCause::wrong_key) << pass << ": " << e.what();
            if (first_message.empty()) first_message = e.what();
            EXPECT_EQ(std::string(e.what()), first_message) << pass;
        }
    }
}

TEST(FormatPartitioning, SixteenCollidingSlotsAreRefusedWhateverThePassphrase) {
    const Bytes file = crafted_v1_file(16, kPlaintext);
    expect_committed(file, "v1/partition-16-slots.warp");
    for (const std::string& pass : {std::string("guess-00"), std::string("guess-47"),
                                    std::string("not a guess")})
        expect_error([&] { decrypt_bytes(file, {passphrase(pass, kCheapKdf)}); },
                     ErrorCause::corrupted, "16 passphrase slots, and a file may hold at most one");
}

}  // namespace
}  // namespace warp::formats::warp_format::test
