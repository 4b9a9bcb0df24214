// SPEC 4.6: the X25519 slot, after age's X25519 recipient type. Its one field is the
// ephemeral share E; s is derived from the X25519 shared secret. Declared here for the tests
// and the constant-time check, which run the part that is ours (libsodium's X25519 is
// trusted) on its own, and for age's X25519 stanza (formats/age/stanza_x25519.cpp), which
// makes the same exchange and differs in its HKDF label.
#pragma once

#include <array>
#include <span>
#include <string_view>

#include "formats/container.hpp"
#include "formats/kdf.hpp"
#include "formats/x25519_keys.hpp"

namespace warp::formats {

// A shared secret or an ephemeral secret, wiped when done.
struct X25519Secret {
    std::array<std::uint8_t, kX25519KeySize> bytes{};
    X25519Secret() = default;
    X25519Secret(const X25519Secret&) = delete;
    X25519Secret& operator=(const X25519Secret&) = delete;
    ~X25519Secret() { secure_wipe(bytes.data(), bytes.size()); }
};

// The writer's half: a fresh ephemeral secret e from `random`, its share E = X25519(e, base
// point), and shared = X25519(e, recipient); false when that is all zero (a recipient of low
// order). e is wiped before returning.
bool x25519_send(const X25519PublicKey& recipient, const RandomFn& random,
                 X25519PublicKey& share, X25519Secret& shared);
// The reader's half: shared = X25519(identity, share) and the identity's recipient R; false
// when shared is all zero (a share of low order).
bool x25519_receive(const SecretBytes& identity, const X25519PublicKey& share,
                    X25519PublicKey& recipient, X25519Secret& shared);

// HKDF(shared, E || R, label, 32): what both constructions derive from the exchange.
void x25519_hkdf(std::span<const std::uint8_t, kX25519KeySize> shared,
                 const X25519PublicKey& ephemeral_share, const X25519PublicKey& recipient,
                 std::string_view label, WipedKey& out);

// s = HKDF(shared, E || R, "warpcrypt v2 x25519 slot", 32).
void x25519_slot_secret(std::span<const std::uint8_t, kX25519KeySize> shared,
                        const X25519PublicKey& ephemeral_share, const X25519PublicKey& recipient,
                        WipedKey& s);

// X25519(scalar, point) into `shared`; false when the result is all zero (`point` is of low
// order), which SPEC 4.6 refuses.
bool x25519_shared_secret(std::span<const std::uint8_t, kX25519KeySize> scalar,
                          const X25519PublicKey& point,
                          std::span<std::uint8_t, kX25519KeySize> shared);

}  // namespace warp::formats
