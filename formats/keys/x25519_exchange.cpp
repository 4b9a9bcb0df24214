// The X25519 exchange of both formats' X25519 recipients (x25519_exchange.hpp).
#include "formats/keys/x25519_exchange.hpp"

#include <sodium.h>

#include <algorithm>
#include <array>

#include "formats/keys/x25519_base.hpp"

namespace warp::formats {

bool x25519_low_order(const X25519PublicKey& point) {
    // The canonical encodings of the points of order 1, 2, 4 and 8 (libsodium's list in
    // crypto_scalarmult/curve25519/ref10/x25519_ref10.c, less the encodings of u >= p, which
    // are not canonical): 0, 1, two of order 8, and p - 1. A public key, compared in the open.
    static constexpr std::array<X25519PublicKey, 5> kLowOrder{{
        {},
        {1},
        {0xe0, 0xeb, 0x7a, 0x7c, 0x3b, 0x41, 0xb8, 0xae, 0x16, 0x56, 0xe3,
         0xfa, 0xf1, 0x9f, 0xc4, 0x6a, 0xda, 0x09, 0x8d, 0xeb, 0x9c, 0x32,
         0xb1, 0xfd, 0x86, 0x62, 0x05, 0x16, 0x5f, 0x49, 0xb8, 0x00},
        {0x5f, 0x9c, 0x95, 0xbc, 0xa3, 0x50, 0x8c, 0x24, 0xb1, 0xd0, 0xb1,
         0x55, 0x9c, 0x83, 0xef, 0x5b, 0x04, 0x44, 0x5c, 0xc4, 0x58, 0x1c,
         0x8e, 0x86, 0xd8, 0x22, 0x4e, 0xdd, 0xd0, 0x9f, 0x11, 0x57},
        {0xec, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
         0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
         0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f},
    }};
    return std::find(kLowOrder.begin(), kLowOrder.end(), point) != kLowOrder.end();
}

X25519PublicKey x25519_key_of(std::span<const std::uint8_t> bytes) {
    X25519PublicKey key{};
    std::copy_n(bytes.begin(), kX25519KeySize, key.begin());
    return key;
}

std::string x25519_recipient_problem(const Secret& recipient) {
    if (recipient.bytes.size() != kX25519KeySize)
        return "an X25519 recipient is " + std::to_string(kX25519KeySize) + " bytes, not " +
               std::to_string(recipient.bytes.size());
    if (!x25519_canonical(x25519_key_of(recipient.bytes.span())))
        return "the recipient is not the canonical encoding of its X25519 point (u >= 2^255 - "
               "19 or bit 255 set), which no identity's recipient is: the file would open for "
               "no one";
    // A point of low order gives the all-zero shared secret with every scalar: with it, the
    // file key would be sealed under a key anyone can compute.
    if (x25519_low_order(x25519_key_of(recipient.bytes.span())))
        return "the recipient is an X25519 point of low order, for which no key agreement is "
               "secret";
    return "";
}

void x25519_hkdf(std::span<const std::uint8_t, kX25519KeySize> shared,
                 const X25519PublicKey& ephemeral_share, const X25519PublicKey& recipient,
                 std::string_view label, WipedKey& out) {
    std::array<std::uint8_t, 2 * kX25519KeySize> salt{};
    std::copy(ephemeral_share.begin(), ephemeral_share.end(), salt.begin());
    std::copy(recipient.begin(), recipient.end(), salt.begin() + kX25519KeySize);
    hkdf_sha256(shared, salt, label_bytes(label), out.span());
}

bool x25519_send(const X25519PublicKey& recipient, const RandomFn& random,
                 X25519PublicKey& share, X25519Secret& shared) {
    X25519Secret ephemeral;
    random(ephemeral.bytes.data(), ephemeral.bytes.size());
    x25519_base(ephemeral.bytes, share);
    return x25519_shared_secret(ephemeral.bytes, recipient, shared.bytes);
}

bool x25519_receive(const SecretBytes& identity, const X25519PublicKey& share,
                    X25519PublicKey& recipient, X25519Secret& shared) {
    recipient = x25519_public_key(identity);  // checks the size
    return x25519_shared_secret(identity.span().first<kX25519KeySize>(), share, shared.bytes);
}

bool x25519_shared_secret(std::span<const std::uint8_t, kX25519KeySize> scalar,
                          const X25519PublicKey& point,
                          std::span<std::uint8_t, kX25519KeySize> shared) {
    ensure_sodium();
    // libsodium returns -1 for the all-zero result (checked there in constant time): a fact
    // about the public point (of low order or not), so the verdict is public.
    return public_verdict(crypto_scalarmult(shared.data(), scalar.data(), point.data()) == 0);
}

}  // namespace warp::formats
