// P-256 through libcrypto (p256.hpp).
#include "formats/keys/tag/p256.hpp"

#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/obj_mac.h>

#include <algorithm>
#include <memory>

#include "engine/error.hpp"
#include "formats/keys/openssl_handles.hpp"

namespace warp::formats::p256 {
namespace {

using openssl::Bn;
using openssl::BnCtx;
using Point = openssl::EcPoint;

[[noreturn]] void failed(const char* what) {
    throw Error(ErrorCause::io, std::string("OpenSSL: P-256 ") + what + " failed");
}

const EC_GROUP& group() {
    static const openssl::EcGroup curve(
        EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1));
    if (!curve) failed("setup");
    return *curve;
}

Uncompressed encode(const EC_POINT& point, BN_CTX* ctx) {
    Uncompressed out{};
    if (EC_POINT_point2oct(&group(), &point, POINT_CONVERSION_UNCOMPRESSED, out.data(), out.size(),
                           ctx) != out.size())
        failed("encoding");
    return out;
}

// A secret scalar as OpenSSL's, flagged for its constant-time paths.
Bn secret_bn(const SecretBytes& scalar) {
    Bn bn(BN_secure_new());
    if (!bn || !BN_bin2bn(scalar.data(), static_cast<int>(scalar.size()), bn.get()))
        failed("scalar");
    BN_set_flags(bn.get(), BN_FLG_CONSTTIME);
    return bn;
}

Point decoded(const Uncompressed& encoded, BN_CTX* ctx) {
    Point point(EC_POINT_new(&group()));
    if (!point ||
        EC_POINT_oct2point(&group(), point.get(), encoded.data(), encoded.size(), ctx) != 1)
        throw Error(ErrorCause::usage, "not a P-256 point");
    return point;
}

}  // namespace

std::optional<Uncompressed> decode_point(std::span<const std::uint8_t> encoded) {
    if (encoded.size() != kCompressedSize && encoded.size() != kUncompressedSize)
        return std::nullopt;
    const BnCtx ctx(BN_CTX_new());
    Point point(EC_POINT_new(&group()));
    // oct2point checks that the point is on the curve; the infinity's encoding (one zero
    // byte) has neither size.
    if (!ctx || !point ||
        EC_POINT_oct2point(&group(), point.get(), encoded.data(), encoded.size(), ctx.get()) != 1 ||
        EC_POINT_is_at_infinity(&group(), point.get()) == 1)
        return std::nullopt;
    return encode(*point, ctx.get());
}

Compressed compress(const Uncompressed& point) {
    Compressed out{};
    out[0] = static_cast<std::uint8_t>(0x02 | (point.back() & 1));  // SEC 1: y's parity
    std::copy_n(point.begin() + 1, kScalarSize, out.begin() + 1);
    return out;
}

std::optional<SecretBytes> random_scalar(std::span<const std::uint8_t> seed) {
    // The order n of the group, big-endian (SP 800-186 3.2.1.3).
    static constexpr std::array<std::uint8_t, kScalarSize> kOrder = {
        0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
        0xff, 0xbc, 0xe6, 0xfa, 0xad, 0xa7, 0x17, 0x9e, 0x84, 0xf3, 0xb9, 0xca, 0xc2, 0xfc, 0x63,
        0x25, 0x51};
    for (std::size_t at = 0; at + kScalarSize <= seed.size(); at += kScalarSize) {
        const std::span<const std::uint8_t> chunk = seed.subspan(at, kScalarSize);
        // 0 < chunk < n, compared without a branch on the bytes (they become a secret): the
        // borrow out of chunk - n is 1 exactly when chunk < n. Only the outcome is branched on,
        // as a rejection sampler must, and it reveals nothing of the scalar accepted.
        unsigned borrow = 0, any = 0;
        for (std::size_t i = kScalarSize; i-- > 0;) {
            const unsigned difference = unsigned{chunk[i]} - kOrder[i] - borrow;
            borrow = (difference >> 8) & 1;
            any |= chunk[i];
        }
        const bool below_order = borrow == 1;
        if (below_order && any != 0) return SecretBytes(chunk);
    }
    return std::nullopt;
}

Uncompressed public_of(const SecretBytes& scalar) {
    const BnCtx ctx(BN_CTX_secure_new());
    const Bn k = secret_bn(scalar);
    Point point(EC_POINT_new(&group()));
    if (!ctx || !point ||
        EC_POINT_mul(&group(), point.get(), k.get(), nullptr, nullptr, ctx.get()) != 1)
        failed("multiplication");
    return encode(*point, ctx.get());
}

SecretBytes shared_x(const SecretBytes& scalar, const Uncompressed& peer) {
    const BnCtx ctx(BN_CTX_secure_new());
    if (!ctx) failed("setup");
    const Point point = decoded(peer, ctx.get());
    const Bn k = secret_bn(scalar);
    Point product(EC_POINT_new(&group()));
    if (!product ||
        EC_POINT_mul(&group(), product.get(), nullptr, point.get(), k.get(), ctx.get()) != 1)
        failed("multiplication");
    // Prime order and a scalar in [1, n): the product is never the point at infinity.
    Uncompressed encoded = encode(*product, ctx.get());
    SecretBytes x(std::span<const std::uint8_t>(encoded).subspan(1, kScalarSize));
    secure_wipe(encoded.data(), encoded.size());
    return x;
}

}  // namespace warp::formats::p256
