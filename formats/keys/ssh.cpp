// SSH keys as age uses them (ssh.hpp).
#include "formats/keys/ssh.hpp"

#include <sodium.h>

#include <algorithm>
#include <optional>

#include "engine/error.hpp"
#include "formats/common/kdf.hpp"

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

}  // namespace

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

Ed25519PublicKey parse_ed25519_recipient(std::string_view line) {
    const std::size_t space = line.find(' ');
    const std::string_view type = line.substr(0, space);
    if (type != kEd25519Type)
        refuse("an SSH key of type " + std::string(type) + ", which age files cannot be "
               "encrypted to here: only ssh-ed25519 keys are supported");
    std::string_view rest = space == std::string_view::npos ? "" : line.substr(space + 1);
    rest = rest.substr(0, rest.find(' '));  // the comment after it is the owner's
    const std::optional<SecretBytes> wire = base64_bytes(rest, nullptr);
    if (!wire) refuse("not an SSH public key: its key is not base64");
    const std::optional<Ed25519PublicKey> key = ed25519_of_wire(wire->span());
    if (!key) refuse("not an ssh-ed25519 public key: its key is not one (type and 32 bytes)");
    x25519_public_of(*key);  // refuses an encoding that is no point
    return *key;
}

std::string ed25519_recipient_text(const Ed25519PublicKey& key) {
    const std::vector<std::uint8_t> wire = ed25519_wire(key);
    std::string text(sodium_base64_ENCODED_LEN(wire.size(), sodium_base64_VARIANT_ORIGINAL), '\0');
    ensure_sodium();
    sodium_bin2base64(text.data(), text.size(), wire.data(), wire.size(),
                      sodium_base64_VARIANT_ORIGINAL);
    text.resize(text.find('\0'));
    return std::string(kEd25519Type) + " " + text;
}

SecretBytes parse_ed25519_identity(std::string_view file) {
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
    WireReader reader(blob->span().subspan(kMagic.size()));
    const auto cipher = reader.string();
    const auto kdf = reader.string();
    const auto kdf_options = reader.string();
    std::uint32_t keys = 0;
    if (!cipher || !kdf || !kdf_options || !reader.u32(keys))
        refuse("a damaged OpenSSH private key file (its header)");
    if (as_text(*cipher) != "none")
        refuse("a passphrase-protected SSH private key (" + std::string(as_text(*cipher)) +
               ", " + std::string(as_text(*kdf)) + "), which this warpcrypt cannot open yet: "
               "give a copy without a passphrase (ssh-keygen -p -N '' -f COPY)");
    if (keys != 1) refuse("an OpenSSH private key file with " + std::to_string(keys) + " keys, not 1");
    const auto public_wire = reader.string();
    const auto private_section = reader.string();
    if (!public_wire || !private_section) refuse("a damaged OpenSSH private key file (its keys)");
    WireReader secret(*private_section);
    std::uint32_t check1 = 0, check2 = 0;
    const bool checks = secret.u32(check1) && secret.u32(check2);
    const auto type = secret.string();
    if (!checks || !type) refuse("a damaged OpenSSH private key file (its private section)");
    if (as_text(*type) != kEd25519Type)
        refuse("an SSH private key of type " + std::string(as_text(*type)) +
               ", which this warpcrypt cannot open age files with: only ssh-ed25519 keys");
    const auto public_key = secret.string();
    const auto secret_key = secret.string();  // seed (32) || public key (32)
    const std::optional<Ed25519PublicKey> stated = ed25519_of_wire(*public_wire);
    if (!public_key || !secret_key || public_key->size() != kEd25519KeySize ||
        secret_key->size() != 2 * kEd25519KeySize || !stated ||
        !std::equal(public_key->begin(), public_key->end(), stated->begin()) ||
        !std::equal(secret_key->begin() + kEd25519KeySize, secret_key->end(), stated->begin()))
        refuse("a damaged OpenSSH private key file (its Ed25519 key)");
    // Unencrypted, the two check words are equal (PROTOCOL.key); they are random, not secret.
    if (check1 != check2) refuse("a damaged OpenSSH private key file (its check words differ)");
    SecretBytes seed(secret_key->first(kEd25519KeySize));
    const Ed25519PublicKey derived = ed25519_public_key(seed);
    if (derived != *stated) refuse("a damaged OpenSSH private key file (its key does not match)");
    return seed;
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
