// The X25519 key agreement both formats make for an X25519 recipient (age.md, "The X25519
// recipient type"; warp SPEC 4.6, after it): the writer's ephemeral share E, the shared
// secret, and HKDF(shared, E || R, label), the label being each format's own. Declared here
// for both formats' adapters, the tests and the constant-time check, which run the part that
// is ours (libsodium's X25519 is trusted) on its own.
#pragma once

#include <array>
#include <span>
#include <string>
#include <string_view>

#include "formats/common/kdf.hpp"
#include "formats/keys/key.hpp"
#include "formats/keys/x25519.hpp"
#include "formats/options.hpp"

namespace warp::formats {

// A shared secret or an ephemeral secret, wiped when done.
struct X25519Secret {
    std::array<std::uint8_t, kX25519KeySize> bytes{};
    X25519Secret() = default;
    X25519Secret(const X25519Secret&) = delete;
    X25519Secret& operator=(const X25519Secret&) = delete;
    ~X25519Secret() { secure_wipe(bytes.data(), bytes.size()); }
};

// Why a file cannot be sealed to `recipient` (not 32 bytes, not the canonical encoding of its
// point, a point of low order), or empty. Both formats check it before any output.
std::string x25519_recipient_problem(const Secret& recipient);

// Whether `point`, canonically encoded (x25519_canonical), is of low order: a table of the five
// such points, where a probe multiplication cost 35 us (x25519_base.cpp's measurements).
bool x25519_low_order(const X25519PublicKey& point);

// The recipient's key, from a Secret of type x25519 (32 bytes, checked before).
X25519PublicKey x25519_key_of(std::span<const std::uint8_t> bytes);

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

// X25519(scalar, point) into `shared`; false when the result is all zero (`point` is of low
// order), which both formats refuse.
bool x25519_shared_secret(std::span<const std::uint8_t, kX25519KeySize> scalar,
                          const X25519PublicKey& point,
                          std::span<std::uint8_t, kX25519KeySize> shared);

}  // namespace warp::formats
