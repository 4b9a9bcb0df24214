// formats/ with secret data.
// - The Bech32 codec (formats/keys/bech32.cpp): an age identity's characters are its secret key,
//   and its checksum is computed from them. Encoding a secret key and decoding a secret
//   string (either case, valid or with a wrong checksum) must not branch on or index by them;
//   only the verdicts are declassified (warp::public_verdict). The human-readable part and
//   the lengths are public.
// - The X25519 slot's opening after libsodium's X25519 (x25519_slot_open, below).
#include <string>

#include "engine/scalar/scalar.hpp"
#include "formats/keys/bech32.hpp"
#include "formats/warp/key_slot.hpp"
#include "formats/warp/slot_x25519.hpp"
#include "tests/ct/ct_support.hpp"

namespace warp::ct {
namespace {

void bech32_encode() {
    for (std::size_t n : {0, 1, 5, 31, 32, 33}) {
        Bytes key = filled(n, 7);
        mark_secret(key);
        for (formats::bech32::Case letters :
             {formats::bech32::Case::lower, formats::bech32::Case::upper}) {
            const std::string text = formats::bech32::encode("age-secret-key-", key, letters);
            publish(text.data(), text.size());
        }
    }
}

void bech32_decode() {
    const Bytes key = filled(32, 9);
    for (formats::bech32::Case letters :
         {formats::bech32::Case::lower, formats::bech32::Case::upper}) {
        for (bool damaged : {false, true}) {
            std::string text = formats::bech32::encode("age-secret-key-", key, letters);
            if (damaged) text[20] = text[20] == 'q' || text[20] == 'Q' ? text[20] + 1 : 'q';
            const std::size_t data = std::string("age-secret-key-1").size();
            mark_secret(text.data() + data, text.size() - data);
            std::string why;
            const auto decoded = formats::bech32::decode(text, why);
            expect(decoded.has_value() != damaged, "bech32 decode: " + why);
            if (decoded) {
                publish(decoded->bytes.data(), decoded->bytes.size());
                expect(Bytes(decoded->bytes.span().begin(), decoded->bytes.span().end()) == key,
                       "bech32 decode gave other bytes");
            }
        }
    }
}

// The X25519 slot (SPEC 4.6) where it is ours: from the shared secret that libsodium's
// X25519 gives (trusted, not checked) to the file key. s = HKDF(shared, E || R), the check
// compared in constant time, the wrap key, and the wrapped file key opened with the scalar
// AEADs. The shared secret is marked secret; E and R are public. Only the check's verdict is
// declassified (equal_in_constant_time); the file key is published once the test has it.
void x25519_slot_open() {
    for (const AeadImpl* aead : {&scalar::kAesGcm, &scalar::kChaCha20Poly1305}) {
        formats::X25519Identity identity = formats::generate_x25519_identity();
        const Bytes file_key = filled(formats::warp_format::kFileKeySize, 21);
        formats::Secret recipient{formats::KeyType::x25519,
                                  SecretBytes(std::span<const std::uint8_t>(identity.public_key)),
                                  {}};
        const std::vector<std::uint8_t> bytes = formats::warp_format::make_slot(
            recipient, std::span<const std::uint8_t, formats::warp_format::kFileKeySize>(file_key.data(),
                                                                          file_key.size()),
            *aead, formats::system_random);
        const formats::warp_format::SlotFields slot = formats::warp_format::decode_slot(
            bytes[0], {bytes.data() + formats::warp_format::kSlotTypeAndLengthSize,
                       bytes.size() - formats::warp_format::kSlotTypeAndLengthSize});
        formats::X25519PublicKey share{};
        std::copy_n(slot.fields.begin(), share.size(), share.begin());
        for (bool right_identity : {true, false}) {
            std::array<std::uint8_t, formats::kX25519KeySize> shared{};
            const formats::X25519Identity other = formats::generate_x25519_identity();
            const formats::X25519Identity& who = right_identity ? identity : other;
            expect(formats::x25519_shared_secret(who.secret.span().first<formats::kX25519KeySize>(),
                                                 share, shared),
                   "x25519: the shared secret is zero");
            mark_secret(shared.data(), shared.size());
            formats::WipedKey s;
            formats::warp_format::x25519_slot_secret(shared, share, who.public_key, s);
            std::array<std::uint8_t, formats::warp_format::kFileKeySize> opened{};
            const bool ok = formats::warp_format::open_with_slot_secret(slot, s, *aead, opened);
            expect(ok == right_identity, "x25519 slot: opened with the wrong identity, or not "
                                         "with the right one");
            publish(opened.data(), opened.size());
            if (right_identity)
                expect(Bytes(opened.begin(), opened.end()) == file_key,
                       "x25519 slot gave another file key");
        }
    }
}

}  // namespace

std::vector<Case> formats_cases() {
    return {{"bech32 encode of a secret key (lower and upper case)", &bech32_encode},
            {"bech32 decode of a secret string (valid, wrong checksum, both cases)",
             &bech32_decode},
            {"x25519 slot: from the shared secret to the file key (AES-GCM, ChaCha20-Poly1305; "
             "right and wrong identity)",
             &x25519_slot_open}};
}

}  // namespace warp::ct
