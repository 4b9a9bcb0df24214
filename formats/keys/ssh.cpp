// SSH keys as age uses them (ssh.hpp).
#include "formats/keys/ssh.hpp"

#include <sodium.h>

#include <algorithm>
#include <memory>
#include <optional>

#include "engine/error.hpp"
#include "formats/common/kdf.hpp"
#include "formats/keys/bcrypt_pbkdf.hpp"
#include "formats/keys/rsa_oaep.hpp"
#include "formats/keys/ssh_pem.hpp"

#include <openssl/evp.h>

namespace warp::formats::ssh {
namespace {

[[noreturn]] void refuse(const std::string& what) { throw Error(ErrorCause::usage, what); }

constexpr std::string_view kMagic{"openssh-key-v1\0", 15};  // PROTOCOL.key: "AUTH_MAGIC"
constexpr std::string_view kPrivateKeyEnd = "-----END OPENSSH PRIVATE KEY-----";

// Standard base64 (padded), in constant time (libsodium), skipping the characters in `ignore`.
std::optional<SecretBytes> base64_bytes(std::string_view text, const char* ignore) {
    ensure_sodium();
    SecretBytes out(text.size() / 4 * 3 + 3);
    std::size_t size = 0;
    const char* end = nullptr;
    if (sodium_base642bin(out.data(), out.size(), text.data(), text.size(), ignore, &size, &end,
                          sodium_base64_VARIANT_ORIGINAL) != 0 ||
        end != text.data() + text.size())
        return std::nullopt;
    return SecretBytes(out.span().first(size));
}

// SSH's wire format (RFC 4251 5): uint32 big-endian, and string = uint32 length || bytes.
class WireReader {
public:
    explicit WireReader(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}
    bool u32(std::uint32_t& value) {
        if (bytes_.size() < 4) return false;
        value = (std::uint32_t{bytes_[0]} << 24) | (std::uint32_t{bytes_[1]} << 16) |
                (std::uint32_t{bytes_[2]} << 8) | bytes_[3];
        bytes_ = bytes_.subspan(4);
        return true;
    }
    std::optional<std::span<const std::uint8_t>> string() {
        std::uint32_t length = 0;
        if (!u32(length) || length > bytes_.size()) return std::nullopt;
        const std::span<const std::uint8_t> value = bytes_.first(length);
        bytes_ = bytes_.subspan(length);
        return value;
    }
    std::span<const std::uint8_t> rest() const { return bytes_; }

private:
    std::span<const std::uint8_t> bytes_;
};

std::string_view as_text(std::span<const std::uint8_t> bytes) {
    return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

void put_string(std::vector<std::uint8_t>& out, std::span<const std::uint8_t> value) {
    const auto n = static_cast<std::uint32_t>(value.size());
    for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<std::uint8_t>(n >> shift));
    out.insert(out.end(), value.begin(), value.end());
}

// The key of a wire-form Ed25519 public key, or nullopt.
std::optional<Ed25519PublicKey> ed25519_of_wire(std::span<const std::uint8_t> wire) {
    WireReader reader(wire);
    const auto type = reader.string();
    const auto key = reader.string();
    if (!type || !key || as_text(*type) != kEd25519Type || key->size() != kEd25519KeySize ||
        !reader.rest().empty())
        return std::nullopt;
    Ed25519PublicKey out{};
    std::copy(key->begin(), key->end(), out.begin());
    return out;
}

// An SSH mpint's magnitude (RFC 4251: two's complement, a leading zero byte before a set top
// bit): nullopt for a negative one.
std::optional<std::span<const std::uint8_t>> magnitude(std::span<const std::uint8_t> mpint) {
    if (!mpint.empty() && (mpint[0] & 0x80) != 0) return std::nullopt;
    while (!mpint.empty() && mpint[0] == 0) mpint = mpint.subspan(1);
    return mpint;
}

// "ssh-rsa" || mpint e || mpint n: (n, e), or nullopt.
std::optional<RsaPublic> rsa_of_wire(std::span<const std::uint8_t> wire) {
    WireReader reader(wire);
    const auto type = reader.string();
    const auto e = reader.string();
    const auto n = reader.string();
    if (!type || !e || !n || as_text(*type) != kRsaType || !reader.rest().empty()) return std::nullopt;
    const auto e_bytes = magnitude(*e), n_bytes = magnitude(*n);
    if (!e_bytes || !n_bytes || e_bytes->empty() || n_bytes->empty()) return std::nullopt;
    return RsaPublic{*n_bytes, *e_bytes};
}

// age's rules for an RSA key, wherever one is read (a recipient, an authorized_keys line, a
// private key): a modulus of kMinRsaBits or more, and an exponent rsa::exponent_problem passes.
void check_rsa_key(const RsaPublic& key) {
    const std::size_t bits = rsa::modulus_bits(key.n);
    if (bits < kMinRsaBits)
        refuse("an ssh-rsa key of " + std::to_string(bits) + " bits, under the " +
               std::to_string(kMinRsaBits) + " that age requires");
    if (const std::string problem = rsa::exponent_problem(key.e); !problem.empty())
        refuse("an ssh-rsa key whose public exponent is " + problem);
}

// An RSA identity's bytes (ssh.hpp): string wire || string d || string p || string q ||
// string iqmp, in locked memory, the scratch wiped. Whoever calls has checked the key.
ParsedKey packed_rsa_identity(std::span<const std::uint8_t> wire, std::span<const std::uint8_t> d,
                              std::span<const std::uint8_t> p, std::span<const std::uint8_t> q,
                              std::span<const std::uint8_t> iqmp) {
    std::vector<std::uint8_t> packed;
    put_string(packed, wire);
    for (const auto& part : {d, p, q, iqmp}) put_string(packed, part);
    SecretBytes bytes{std::span<const std::uint8_t>(packed)};
    secure_wipe(packed.data(), packed.size());
    return {kRsaType, std::move(bytes)};
}

std::string base64_text(std::span<const std::uint8_t> bytes) {
    ensure_sodium();
    std::string text(sodium_base64_ENCODED_LEN(bytes.size(), sodium_base64_VARIANT_ORIGINAL), '\0');
    sodium_bin2base64(text.data(), text.size(), bytes.data(), bytes.size(),
                      sodium_base64_VARIANT_ORIGINAL);
    text.resize(text.find('\0'));
    return text;
}

// The PEM-armored openssh-key-v1 blob, after its magic; Error(usage) when it is not one.
SecretBytes openssh_blob(std::string_view file) {
    const std::size_t begin = file.find(kPrivateKeyBegin);
    const std::size_t end = file.find(kPrivateKeyEnd);
    if (begin != 0 || end == std::string_view::npos)
        refuse("not an OpenSSH private key file (no BEGIN and END OPENSSH PRIVATE KEY lines)");
    const std::string_view body =
        file.substr(kPrivateKeyBegin.size(), end - kPrivateKeyBegin.size());
    const std::optional<SecretBytes> blob = base64_bytes(body, "\r\n \t");
    if (!blob || blob->size() < kMagic.size() ||
        as_text(blob->span().first(kMagic.size())) != kMagic)
        refuse("a damaged OpenSSH private key file (its base64 or its openssh-key-v1 header)");
    return SecretBytes(blob->span().subspan(kMagic.size()));
}

// ssh-keygen's protection: bcrypt_pbkdf(passphrase, salt, rounds) gives the AES-256-CTR key
// and IV of the private section.
SecretBytes decrypt_section(std::span<const std::uint8_t> section, std::string_view cipher,
                            std::string_view kdf, std::span<const std::uint8_t> kdf_options,
                            const SecretBytes& passphrase, const KdfLimits& kdf_limits) {
    if (cipher != "aes256-ctr" || kdf != "bcrypt")
        refuse("an SSH private key protected with " + std::string(cipher) + " and " +
               std::string(kdf) + ", which this warpcrypt cannot open: ssh-keygen's default "
               "(aes256-ctr, bcrypt) it can");
    WireReader options(kdf_options);
    const auto salt = options.string();
    std::uint32_t rounds = 0;
    if (!salt || !options.u32(rounds) || rounds == 0)
        refuse("a damaged OpenSSH private key file (its bcrypt options)");
    if (rounds > kMaxBcryptRounds)
        refuse("an SSH private key asking for " + std::to_string(rounds) + " bcrypt rounds, over "
               "the " + std::to_string(kMaxBcryptRounds) + " this warpcrypt runs");
    if (section.size() % 16 != 0) refuse("a damaged OpenSSH private key file (its length)");
    const std::uint64_t work_kib = std::uint64_t{rounds} * kBcryptRoundWorkKib;
    if (std::string why = kdf_limits.draw("the SSH key", "bcrypt", kBcryptMemoryKib, work_kib,
                                          std::to_string(rounds) + " rounds");
        !why.empty())
        refuse(why);
    SecretBytes key_iv(48);
    bcrypt_pbkdf(passphrase.span(), *salt, rounds, std::span<std::uint8_t>(key_iv.data(), key_iv.size()));
    SecretBytes plain(section.size());
    std::unique_ptr<EVP_CIPHER_CTX, decltype(&EVP_CIPHER_CTX_free)> ctx(EVP_CIPHER_CTX_new(),
                                                                        EVP_CIPHER_CTX_free);
    int n = 0, tail = 0;
    if (!ctx ||
        EVP_DecryptInit_ex(ctx.get(), EVP_aes_256_ctr(), nullptr, key_iv.data(), key_iv.data() + 32) != 1 ||
        EVP_DecryptUpdate(ctx.get(), plain.data(), &n, section.data(), static_cast<int>(section.size())) != 1 ||
        EVP_DecryptFinal_ex(ctx.get(), plain.data() + n, &tail) != 1)
        throw Error(ErrorCause::io, "OpenSSL: AES-256-CTR failed");
    return plain;
}

}  // namespace

bool is_private_key_file(std::string_view file) {
    return file.starts_with(kPrivateKeyBegin) || is_pem_private_key(file);
}

bool needs_passphrase(std::string_view file) {
    if (is_pem_private_key(file)) return pem_needs_passphrase(file);
    if (!file.starts_with(kPrivateKeyBegin)) return false;
    try {
        const SecretBytes blob = openssh_blob(file);
        WireReader reader(blob.span());
        const auto cipher = reader.string();
        return cipher && as_text(*cipher) != "none";
    } catch (const Error&) {
        return false;  // damaged: parse_identity says how
    }
}

std::vector<std::uint8_t> ed25519_wire(const Ed25519PublicKey& key) {
    std::vector<std::uint8_t> wire;
    put_string(wire, std::span(reinterpret_cast<const std::uint8_t*>(kEd25519Type.data()),
                               kEd25519Type.size()));
    put_string(wire, key);
    return wire;
}

std::string key_tag(std::span<const std::uint8_t> wire) {
    ensure_sodium();
    std::array<std::uint8_t, crypto_hash_sha256_BYTES> digest{};
    crypto_hash_sha256(digest.data(), wire.data(), wire.size());
    char text[sodium_base64_ENCODED_LEN(4, sodium_base64_VARIANT_ORIGINAL_NO_PADDING)];
    sodium_bin2base64(text, sizeof text, digest.data(), 4, sodium_base64_VARIANT_ORIGINAL_NO_PADDING);
    return text;
}

ParsedKey parse_recipient(std::string_view line) {
    const std::size_t space = line.find(' ');
    const std::string_view type = line.substr(0, space);
    if (type != kEd25519Type && type != kRsaType)
        refuse("an SSH key of type " + std::string(type) + ", which age files cannot be "
               "encrypted to: ssh-ed25519 and ssh-rsa keys are");
    std::string_view rest = space == std::string_view::npos ? "" : line.substr(space + 1);
    rest = rest.substr(0, rest.find(' '));  // the comment after it is the owner's
    const std::optional<SecretBytes> wire = base64_bytes(rest, nullptr);
    if (!wire) refuse("not an SSH public key: its key is not base64");
    if (type == kRsaType) {
        const std::optional<RsaPublic> key = rsa_of_wire(wire->span());
        if (!key) refuse("not an ssh-rsa public key: its key is not one (type, e, n)");
        check_rsa_key(*key);
        return {kRsaType, SecretBytes(wire->span())};
    }
    const std::optional<Ed25519PublicKey> key = ed25519_of_wire(wire->span());
    if (!key) refuse("not an ssh-ed25519 public key: its key is not one (type and 32 bytes)");
    x25519_public_of(*key);  // refuses an encoding that is no point
    return {kEd25519Type, SecretBytes(std::span<const std::uint8_t>(*key))};
}

std::string unsupported_key_type(std::string_view line) {
    const std::size_t space = line.find(' ');
    if (space == std::string_view::npos) return "";
    const std::string_view type = line.substr(0, space);
    if (type == kEd25519Type || type == kRsaType) return "";
    std::string_view rest = line.substr(space + 1);
    rest = rest.substr(0, rest.find(' '));
    const std::optional<SecretBytes> wire = base64_bytes(rest, nullptr);
    if (!wire) return "";
    WireReader reader(wire->span());
    const auto stated = reader.string();
    if (!stated || as_text(*stated) != type) return "";
    return std::string(type);
}

Ed25519PublicKey parse_ed25519_recipient(std::string_view line) {
    const ParsedKey parsed = parse_recipient(line);
    if (parsed.type != kEd25519Type) refuse("not an ssh-ed25519 public key");
    Ed25519PublicKey key{};
    std::copy_n(parsed.bytes.data(), key.size(), key.begin());
    return key;
}

RsaPublic rsa_public_of(std::span<const std::uint8_t> wire) {
    const std::optional<RsaPublic> key = rsa_of_wire(wire);
    if (!key) refuse("not an ssh-rsa public key");
    check_rsa_key(*key);
    return *key;
}

RsaPrivate rsa_private_of(std::span<const std::uint8_t> identity) {
    WireReader reader(identity);
    const auto wire = reader.string();
    const auto d = reader.string(), p = reader.string(), q = reader.string(), iqmp = reader.string();
    if (!wire || !d || !p || !q || !iqmp) refuse("not an ssh-rsa identity");
    const RsaPublic pub = rsa_public_of(*wire);
    return {*wire, pub.n, pub.e, *d, *p, *q, *iqmp};
}

std::string rsa_recipient_text(std::span<const std::uint8_t> wire) {
    return std::string(kRsaType) + " " + base64_text(wire);
}

std::string ed25519_recipient_text(const Ed25519PublicKey& key) {
    return std::string(kEd25519Type) + " " + base64_text(ed25519_wire(key));
}

std::optional<StatedPublicKey> stated_public_key(std::string_view file) {
    if (!file.starts_with(kPrivateKeyBegin)) return std::nullopt;
    try {
        const SecretBytes blob = openssh_blob(file);
        WireReader reader(blob.span());
        std::uint32_t keys = 0;
        if (!reader.string() || !reader.string() || !reader.string() || !reader.u32(keys) ||
            keys != 1)
            return std::nullopt;
        const auto wire = reader.string();
        if (!wire) return std::nullopt;
        if (rsa_of_wire(*wire)) return StatedPublicKey{kRsaType, {wire->begin(), wire->end()}};
        if (ed25519_of_wire(*wire))
            return StatedPublicKey{kEd25519Type, {wire->begin(), wire->end()}};
    } catch (const Error&) {
    }
    return std::nullopt;  // damaged, or of another type: parse_identity says how
}

std::vector<std::uint8_t> public_wire_of_identity(std::string_view type, const SecretBytes& bytes) {
    if (type == kRsaType) {
        const RsaPrivate key = rsa_private_of(bytes.span());
        return {key.wire.begin(), key.wire.end()};
    }
    return ed25519_wire(ed25519_public_key(bytes));
}

ParsedKey rsa_identity(std::span<const std::uint8_t> n, std::span<const std::uint8_t> e,
                       std::span<const std::uint8_t> d, std::span<const std::uint8_t> p,
                       std::span<const std::uint8_t> q, std::span<const std::uint8_t> iqmp) {
    // SSH's mpints: a zero byte before a magnitude whose top bit is set.
    auto mpint = [](std::span<const std::uint8_t> magnitude) {
        while (!magnitude.empty() && magnitude[0] == 0) magnitude = magnitude.subspan(1);
        std::vector<std::uint8_t> out;
        if (!magnitude.empty() && (magnitude[0] & 0x80) != 0) out.push_back(0);
        out.insert(out.end(), magnitude.begin(), magnitude.end());
        return out;
    };
    std::vector<std::uint8_t> wire;
    put_string(wire, std::span(reinterpret_cast<const std::uint8_t*>(kRsaType.data()),
                               kRsaType.size()));
    put_string(wire, mpint(e));
    put_string(wire, mpint(n));
    check_rsa_key(*rsa_of_wire(wire));
    return packed_rsa_identity(wire, d, p, q, iqmp);
}

ParsedKey parse_identity(std::string_view file, const SecretBytes* passphrase,
                         const KdfLimits& kdf_limits) {
    if (is_pem_private_key(file)) return parse_pem_identity(file, passphrase);
    const SecretBytes blob = openssh_blob(file);
    WireReader reader(blob.span());
    const auto cipher = reader.string();
    const auto kdf = reader.string();
    const auto kdf_options = reader.string();
    std::uint32_t keys = 0;
    if (!cipher || !kdf || !kdf_options || !reader.u32(keys))
        refuse("a damaged OpenSSH private key file (its header)");
    const bool is_protected = as_text(*cipher) != "none";
    if (is_protected && passphrase == nullptr)
        refuse("a passphrase-protected SSH private key, and no passphrase for it");
    if (keys != 1) refuse("an OpenSSH private key file with " + std::to_string(keys) + " keys, not 1");
    const auto public_wire = reader.string();
    const auto private_section = reader.string();
    if (!public_wire || !private_section) refuse("a damaged OpenSSH private key file (its keys)");
    const SecretBytes section =
        is_protected ? decrypt_section(*private_section, as_text(*cipher), as_text(*kdf),
                                       *kdf_options, *passphrase, kdf_limits)
                     : SecretBytes(*private_section);
    WireReader secret(section.span());
    std::uint32_t check1 = 0, check2 = 0;
    const bool checks = secret.u32(check1) && secret.u32(check2);
    // The two check words are equal (PROTOCOL.key): under a wrong passphrase they are not.
    // They are random, and a wrong passphrase is the user's own mistake to be told of.
    if (checks && check1 != check2) {
        if (is_protected) throw Error(ErrorCause::wrong_key, "wrong passphrase for the SSH private key");
        refuse("a damaged OpenSSH private key file (its check words differ)");
    }
    const auto type = secret.string();
    if (!checks || !type) refuse("a damaged OpenSSH private key file (its private section)");
    if (as_text(*type) == kRsaType) {
        // n, e, d, iqmp, p, q (PROTOCOL.key's order), kept as the public wire form and d, p,
        // q, iqmp; the public key must be the one the file states.
        const auto n = secret.string(), e = secret.string(), d = secret.string(),
                   iqmp = secret.string(), p = secret.string(), q = secret.string();
        const std::optional<RsaPublic> stated = rsa_of_wire(*public_wire);
        auto same = [](const std::optional<std::span<const std::uint8_t>>& mpint,
                       std::span<const std::uint8_t> expected) {
            if (!mpint) return false;
            const std::optional<std::span<const std::uint8_t>> value = magnitude(*mpint);
            return value && std::equal(value->begin(), value->end(), expected.begin(), expected.end());
        };
        if (!d || !iqmp || !p || !q || !stated || !same(n, stated->n) || !same(e, stated->e))
            refuse("a damaged OpenSSH private key file (its RSA key)");
        check_rsa_key(*stated);
        return packed_rsa_identity(*public_wire, *d, *p, *q, *iqmp);
    }
    if (as_text(*type) != kEd25519Type)
        refuse("an SSH private key of type " + std::string(as_text(*type)) +
               ", which age files cannot be opened with: ssh-ed25519 and ssh-rsa keys can");
    const auto public_key = secret.string();
    const auto secret_key = secret.string();  // seed (32) || public key (32)
    const std::optional<Ed25519PublicKey> stated = ed25519_of_wire(*public_wire);
    if (!public_key || !secret_key || public_key->size() != kEd25519KeySize ||
        secret_key->size() != 2 * kEd25519KeySize || !stated ||
        !std::equal(public_key->begin(), public_key->end(), stated->begin()) ||
        !std::equal(secret_key->begin() + kEd25519KeySize, secret_key->end(), stated->begin()))
        refuse("a damaged OpenSSH private key file (its Ed25519 key)");
    SecretBytes seed(secret_key->first(kEd25519KeySize));
    const Ed25519PublicKey derived = ed25519_public_key(seed);
    if (derived != *stated) refuse("a damaged OpenSSH private key file (its key does not match)");
    return {kEd25519Type, std::move(seed)};
}

Ed25519PublicKey ed25519_public_key(const SecretBytes& seed) {
    if (seed.size() != kEd25519KeySize)
        throw Error(ErrorCause::invalid_argument, "an Ed25519 seed is 32 bytes");
    ensure_sodium();
    Ed25519PublicKey key{};
    SecretBytes expanded(crypto_sign_SECRETKEYBYTES);
    crypto_sign_seed_keypair(key.data(), expanded.data(), seed.data());
    declassify(key.data(), key.size());  // public by definition
    return key;
}

X25519PublicKey x25519_public_of(const Ed25519PublicKey& key) {
    ensure_sodium();
    X25519PublicKey out{};
    if (crypto_sign_ed25519_pk_to_curve25519(out.data(), key.data()) != 0)
        refuse("the ssh-ed25519 key is not a valid Ed25519 point");
    return out;
}

SecretBytes x25519_secret_of(const SecretBytes& seed) {
    SecretBytes digest(crypto_hash_sha512_BYTES);
    crypto_hash_sha512(digest.data(), seed.data(), seed.size());
    return SecretBytes(digest.span().first(kX25519KeySize));
}

}  // namespace warp::formats::ssh
