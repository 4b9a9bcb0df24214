// NIST P-256 as the tag recipients' KEMs need it (hpke-pq.md "P-256 and P-384"; RFC 9180
// DHKEM(P-256)), through OpenSSL's libcrypto, which the program links already: points in SEC 1
// encoding, scalars big-endian. No curve arithmetic is written here. OpenSSL multiplies by a
// secret scalar in constant time (its P-256 code, with BN_FLG_CONSTTIME on the scalar).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>

#include "engine/secure_memory.hpp"

namespace warp::formats::p256 {

inline constexpr std::size_t kScalarSize = 32;
inline constexpr std::size_t kCompressedSize = 33;
inline constexpr std::size_t kUncompressedSize = 65;

using Uncompressed = std::array<std::uint8_t, kUncompressedSize>;
using Compressed = std::array<std::uint8_t, kCompressedSize>;

// A point on the curve (not the point at infinity), compressed or uncompressed, as
// uncompressed; nullopt for anything else.
std::optional<Uncompressed> decode_point(std::span<const std::uint8_t> encoded);
Compressed compress(const Uncompressed& point);

// hpke-pq.md's Group.RandomScalar: the first 32-byte chunk of `seed` that is a scalar in
// [1, n); nullopt when none is (a chance under 2^-32 per chunk).
std::optional<SecretBytes> random_scalar(std::span<const std::uint8_t> seed);
// scalar * G.
Uncompressed public_of(const SecretBytes& scalar);
// The x-coordinate of scalar * point (Group.ElementToSharedSecret, DHKEM's DH): 32 bytes.
SecretBytes shared_x(const SecretBytes& scalar, const Uncompressed& point);

}  // namespace warp::formats::p256
