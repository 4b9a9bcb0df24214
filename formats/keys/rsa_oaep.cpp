// RSA-OAEP through OpenSSL 3's EVP interface (rsa_oaep.hpp).
#include "formats/keys/rsa_oaep.hpp"

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/rsa.h>

#include <algorithm>
#include <bit>
#include <memory>

#include "engine/error.hpp"
#include "formats/keys/openssl_handles.hpp"

namespace warp::formats::rsa {
namespace {

using openssl::Bn;
using openssl::Pkey;
using Ctx = openssl::PkeyCtx;

[[noreturn]] void refuse(const char* what) { throw Error(ErrorCause::usage, what); }

Bn bn_of(std::span<const std::uint8_t> bytes) {
    Bn bn(BN_bin2bn(bytes.data(), static_cast<int>(bytes.size()), nullptr));
    if (!bn) throw Error(ErrorCause::io, "OpenSSL: out of memory");
    return bn;
}

// The key as OpenSSL's, public or (with d, p, q, iqmp) private; the CRT exponents computed.
// A key whose exponent breaks age's rule never reaches OpenSSL.
Pkey make_key(const PrivateKey& key, bool with_private) {
    if (const std::string problem = exponent_problem(key.e); !problem.empty())
        throw Error(ErrorCause::usage, "an RSA key whose public exponent is " + problem);
    std::unique_ptr<OSSL_PARAM_BLD, decltype(&OSSL_PARAM_BLD_free)> build(OSSL_PARAM_BLD_new(),
                                                                         OSSL_PARAM_BLD_free);
    const Bn n = bn_of(key.n), e = bn_of(key.e);
    bool ok = build && OSSL_PARAM_BLD_push_BN(build.get(), OSSL_PKEY_PARAM_RSA_N, n.get()) &&
              OSSL_PARAM_BLD_push_BN(build.get(), OSSL_PKEY_PARAM_RSA_E, e.get());
    Bn d, p, q, iqmp, dmp1(BN_secure_new()), dmq1(BN_secure_new());
    if (with_private) {
        d = bn_of(key.d), p = bn_of(key.p), q = bn_of(key.q), iqmp = bn_of(key.iqmp);
        BN_set_flags(d.get(), BN_FLG_CONSTTIME);
        const openssl::BnCtx bn_ctx(BN_CTX_secure_new());
        const Bn p1(BN_dup(p.get())), q1(BN_dup(q.get()));
        ok = ok && bn_ctx && p1 && q1 && dmp1 && dmq1 && BN_sub_word(p1.get(), 1) &&
             BN_sub_word(q1.get(), 1) && BN_mod(dmp1.get(), d.get(), p1.get(), bn_ctx.get()) &&
             BN_mod(dmq1.get(), d.get(), q1.get(), bn_ctx.get()) &&
             OSSL_PARAM_BLD_push_BN(build.get(), OSSL_PKEY_PARAM_RSA_D, d.get()) &&
             OSSL_PARAM_BLD_push_BN(build.get(), OSSL_PKEY_PARAM_RSA_FACTOR1, p.get()) &&
             OSSL_PARAM_BLD_push_BN(build.get(), OSSL_PKEY_PARAM_RSA_FACTOR2, q.get()) &&
             OSSL_PARAM_BLD_push_BN(build.get(), OSSL_PKEY_PARAM_RSA_EXPONENT1, dmp1.get()) &&
             OSSL_PARAM_BLD_push_BN(build.get(), OSSL_PKEY_PARAM_RSA_EXPONENT2, dmq1.get()) &&
             OSSL_PARAM_BLD_push_BN(build.get(), OSSL_PKEY_PARAM_RSA_COEFFICIENT1, iqmp.get());
    }
    if (!ok) refuse("an RSA key OpenSSL cannot take");
    std::unique_ptr<OSSL_PARAM, decltype(&OSSL_PARAM_free)> params(
        OSSL_PARAM_BLD_to_param(build.get()), OSSL_PARAM_free);
    Ctx ctx(EVP_PKEY_CTX_new_from_name(nullptr, "RSA", nullptr));
    EVP_PKEY* made = nullptr;
    if (!params || !ctx || EVP_PKEY_fromdata_init(ctx.get()) <= 0 ||
        EVP_PKEY_fromdata(ctx.get(), &made,
                          with_private ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY, params.get()) <= 0)
        refuse("an RSA key OpenSSL cannot take");
    return Pkey(made);
}

// A context for OAEP with SHA-256, MGF1-SHA-256 and `label`.
bool set_oaep(EVP_PKEY_CTX* ctx, std::string_view label) {
    void* copy = OPENSSL_memdup(label.data(), label.size());  // the context takes it
    if (copy == nullptr) return false;
    if (EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_PKCS1_OAEP_PADDING) <= 0 ||
        EVP_PKEY_CTX_set_rsa_oaep_md(ctx, EVP_sha256()) <= 0 ||
        EVP_PKEY_CTX_set_rsa_mgf1_md(ctx, EVP_sha256()) <= 0 ||
        EVP_PKEY_CTX_set0_rsa_oaep_label(ctx, copy, static_cast<int>(label.size())) <= 0) {
        OPENSSL_free(copy);
        return false;
    }
    return true;
}

}  // namespace

std::string exponent_problem(std::span<const std::uint8_t> e) {
    while (!e.empty() && e.front() == 0) e = e.subspan(1);
    const std::size_t bits =
        e.empty() ? 0 : 8 * (e.size() - 1) + static_cast<std::size_t>(std::bit_width(e.front()));
    if (bits > kMaxExponentBits)
        return "of " + std::to_string(bits) + " bits, over the " +
               std::to_string(kMaxExponentBits) + " that age allows";
    std::uint32_t value = 0;
    for (const std::uint8_t byte : e) value = value << 8 | byte;
    if (value < 3) return std::to_string(value) + ", under the 3 that age requires";
    if (value % 2 == 0) return std::to_string(value) + ", an even number, which age refuses";
    return "";
}

std::size_t modulus_bits(std::span<const std::uint8_t> n) {
    const Bn bn = bn_of(n);
    return static_cast<std::size_t>(BN_num_bits(bn.get()));
}

std::vector<std::uint8_t> oaep_encrypt(const PublicKey& key, std::span<const std::uint8_t> message,
                                       std::string_view label) {
    const Pkey pkey = make_key({key.n, key.e, {}, {}, {}, {}}, false);
    Ctx ctx(EVP_PKEY_CTX_new_from_pkey(nullptr, pkey.get(), nullptr));
    std::size_t size = 0;
    if (!ctx || EVP_PKEY_encrypt_init(ctx.get()) <= 0 || !set_oaep(ctx.get(), label) ||
        EVP_PKEY_encrypt(ctx.get(), nullptr, &size, message.data(), message.size()) <= 0)
        refuse("OpenSSL refused to encrypt to the RSA key");
    std::vector<std::uint8_t> out(size);
    if (EVP_PKEY_encrypt(ctx.get(), out.data(), &size, message.data(), message.size()) <= 0)
        refuse("OpenSSL refused to encrypt to the RSA key");
    out.resize(size);
    return out;
}

bool oaep_decrypt(const PrivateKey& key, std::span<const std::uint8_t> ciphertext,
                  std::string_view label, std::span<std::uint8_t> out) {
    const Pkey pkey = make_key(key, true);
    Ctx ctx(EVP_PKEY_CTX_new_from_pkey(nullptr, pkey.get(), nullptr));
    std::size_t size = 0;
    if (!ctx || EVP_PKEY_decrypt_init(ctx.get()) <= 0 || !set_oaep(ctx.get(), label) ||
        EVP_PKEY_decrypt(ctx.get(), nullptr, &size, ciphertext.data(), ciphertext.size()) <= 0)
        return false;
    std::vector<std::uint8_t> message(size);
    const bool ok = EVP_PKEY_decrypt(ctx.get(), message.data(), &size, ciphertext.data(),
                                     ciphertext.size()) > 0 &&
                    size == out.size();
    if (ok) std::copy_n(message.begin(), size, out.begin());
    OPENSSL_cleanse(message.data(), message.size());
    return ok;
}

}  // namespace warp::formats::rsa
