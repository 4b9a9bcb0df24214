// The X25519 exchange of both formats' X25519 recipients (x25519_exchange.hpp).
#include "formats/keys/x25519_exchange.hpp"

#include <sodium.h>

#include <algorithm>

namespace warp::formats {

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
    std::array<std::uint8_t, kX25519KeySize> probe_scalar{};
    probe_scalar[0] = 9;
    X25519Secret shared;
    if (!x25519_shared_secret(probe_scalar, x25519_key_of(recipient.bytes.span()), shared.bytes))
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
    ensure_sodium();
    crypto_scalarmult_base(share.data(), ephemeral.bytes.data());
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
