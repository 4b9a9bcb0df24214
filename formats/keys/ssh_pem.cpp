// SSH private keys in PEM (ssh_pem.hpp), through libcrypto.
#include "formats/keys/ssh_pem.hpp"

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <memory>
#include <string>

#include "engine/error.hpp"
#include "formats/keys/openssl_handles.hpp"

namespace warp::formats::ssh {
namespace {

[[noreturn]] void refuse(const std::string& what) { throw Error(ErrorCause::usage, what); }

constexpr std::string_view kRsaBegin = "-----BEGIN RSA PRIVATE KEY-----";     // PKCS#1
constexpr std::string_view kPkcs8Begin = "-----BEGIN PRIVATE KEY-----";       // PKCS#8
// Read only to be refused by name: golang.org/x/crypto/ssh reads none of them either for age
// (encrypted PKCS#8), or age has no stanza for their keys (EC, DSA).
constexpr std::string_view kEncryptedPkcs8Begin = "-----BEGIN ENCRYPTED PRIVATE KEY-----";
constexpr std::string_view kEcBegin = "-----BEGIN EC PRIVATE KEY-----";
constexpr std::string_view kDsaBegin = "-----BEGIN DSA PRIVATE KEY-----";

// The legacy PEM encryption's ciphers that golang.org/x/crypto/ssh reads, bar single DES
// (56-bit keys, and only in OpenSSL's legacy provider).
constexpr std::array<std::string_view, 4> kPemCiphers = {"AES-128-CBC", "AES-192-CBC",
                                                          "AES-256-CBC", "DES-EDE3-CBC"};

// The value of a header line ("Proc-Type: ...") of the PEM block, or empty. Headers sit
// between the BEGIN line and the first blank line (RFC 1421).
std::string_view header_value(std::string_view file, std::string_view name) {
    std::size_t at = file.find('\n');
    while (at != std::string_view::npos) {
        const std::size_t end = file.find('\n', at + 1);
        std::string_view line = file.substr(at + 1, end == std::string_view::npos
                                                         ? std::string_view::npos
                                                         : end - at - 1);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (line.empty() || line.find(':') == std::string_view::npos) return {};
        if (line.starts_with(name) && line.substr(name.size()).starts_with(": "))
            return line.substr(name.size() + 2);
        at = end;
    }
    return {};
}

// OpenSSL's passphrase callback: the one given, or none (never OpenSSL's own terminal prompt).
int give_passphrase(char* buf, int size, int /*rwflag*/, void* user) {
    const auto* passphrase = static_cast<const SecretBytes*>(user);
    if (passphrase == nullptr || passphrase->size() > static_cast<std::size_t>(size)) return -1;
    std::memcpy(buf, passphrase->data(), passphrase->size());
    return static_cast<int>(passphrase->size());
}

// An RSA key's part, big-endian, in locked memory.
SecretBytes part(const EVP_PKEY* key, const char* name) {
    BIGNUM* raw = nullptr;
    if (EVP_PKEY_get_bn_param(key, name, &raw) != 1) refuse("a damaged RSA private key in PEM");
    const openssl::Bn bn(raw);
    SecretBytes bytes(static_cast<std::size_t>(BN_num_bytes(bn.get())));
    BN_bn2bin(bn.get(), bytes.data());
    return bytes;
}

ParsedKey rsa_of(const EVP_PKEY* key) {
    const SecretBytes n = part(key, OSSL_PKEY_PARAM_RSA_N), e = part(key, OSSL_PKEY_PARAM_RSA_E),
                      d = part(key, OSSL_PKEY_PARAM_RSA_D),
                      p = part(key, OSSL_PKEY_PARAM_RSA_FACTOR1),
                      q = part(key, OSSL_PKEY_PARAM_RSA_FACTOR2),
                      iqmp = part(key, OSSL_PKEY_PARAM_RSA_COEFFICIENT1);
    return rsa_identity(n.span(), e.span(), d.span(), p.span(), q.span(), iqmp.span());
}

ParsedKey ed25519_of(const EVP_PKEY* key) {
    SecretBytes seed(kEd25519KeySize);
    std::size_t size = seed.size();
    if (EVP_PKEY_get_raw_private_key(key, seed.data(), &size) != 1 || size != kEd25519KeySize)
        refuse("a damaged Ed25519 private key in PEM");
    return {kEd25519Type, std::move(seed)};
}

}  // namespace

bool is_pem_private_key(std::string_view file) {
    for (std::string_view begin :
         {kRsaBegin, kPkcs8Begin, kEncryptedPkcs8Begin, kEcBegin, kDsaBegin})
        if (file.starts_with(begin)) return true;
    return false;
}

bool pem_needs_passphrase(std::string_view file) {
    return file.starts_with(kRsaBegin) && header_value(file, "Proc-Type") == "4,ENCRYPTED";
}

ParsedKey parse_pem_identity(std::string_view file, const SecretBytes* passphrase) {
    if (file.starts_with(kEncryptedPkcs8Begin))
        refuse("an encrypted PKCS#8 private key (BEGIN ENCRYPTED PRIVATE KEY), which age does not "
               "read either: `ssh-keygen -p -f FILE` rewrites it as an OpenSSH key");
    if (file.starts_with(kEcBegin) || file.starts_with(kDsaBegin))
        refuse("an SSH private key of type " +
               std::string(file.starts_with(kEcBegin) ? "ecdsa" : "ssh-dss") +
               ", which age files cannot be opened with: ssh-ed25519 and ssh-rsa keys can");
    const bool encrypted = pem_needs_passphrase(file);
    if (encrypted) {
        const std::string_view dek = header_value(file, "DEK-Info");
        const std::string_view cipher = dek.substr(0, dek.find(','));
        if (std::find(kPemCiphers.begin(), kPemCiphers.end(), cipher) == kPemCiphers.end())
            refuse("a PEM private key encrypted with " +
                   (cipher.empty() ? std::string("no DEK-Info cipher") : std::string(cipher)) +
                   ", which this warpcrypt cannot open: AES-128-CBC, AES-192-CBC, AES-256-CBC "
                   "and DES-EDE3-CBC it can");
        if (passphrase == nullptr)
            refuse("a passphrase-protected SSH private key, and no passphrase for it");
    }
    const openssl::Bio bio(BIO_new_mem_buf(file.data(), static_cast<int>(file.size())));
    if (!bio) throw Error(ErrorCause::io, "OpenSSL: out of memory");
    // Never a passphrase for a key that is not encrypted: a PKCS#8 or plain PKCS#1 key opens
    // without one, and the callback refuses otherwise.
    const openssl::Pkey key(PEM_read_bio_PrivateKey(
        bio.get(), nullptr, give_passphrase,
        encrypted ? const_cast<SecretBytes*>(passphrase) : nullptr));
    ERR_clear_error();
    if (!key) {
        if (encrypted)
            throw Error(ErrorCause::wrong_key,
                        "wrong passphrase for the SSH private key (or the key is damaged)");
        refuse("a damaged PEM private key (OpenSSL cannot read it)");
    }
    switch (EVP_PKEY_get_base_id(key.get())) {
    case EVP_PKEY_RSA:
        return rsa_of(key.get());
    case EVP_PKEY_ED25519:
        return ed25519_of(key.get());
    default: {
        const char* name = EVP_PKEY_get0_type_name(key.get());
        refuse(std::string("a PEM private key of type ") + (name ? name : "unknown") +
               ", which age files cannot be opened with: ssh-ed25519 and ssh-rsa keys can");
    }
    }
}

}  // namespace warp::formats::ssh
