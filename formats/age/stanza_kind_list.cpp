// age.md, "Native recipient types": the stanza types this build knows, one line each, and
// what their bodies share.
#include "formats/age/stanza_kind.hpp"

#include <array>

#include "engine/aead_key.hpp"
#include "engine/selection.hpp"
#include "formats/age/base64.hpp"

namespace warp::formats::age {
namespace {

constexpr std::array<const StanzaKind*, 7> kKinds = {
    &kX25519Stanza,      // stanza_x25519.cpp
    &kScryptStanza,      // stanza_scrypt.cpp
    &kHybridStanza,      // stanza_mlkem768x25519.cpp
    &kSshEd25519Stanza,  // stanza_ssh_ed25519.cpp
    &kSshRsaStanza,      // stanza_ssh_rsa.cpp
    &kTagStanza,         // stanza_tag.cpp: hardware keys' p256tag (written, opened by plugins)
    &kTagPqStanza,       // stanza_tag.cpp: hardware keys' mlkem768p256tag
};

constexpr std::array<std::uint8_t, kChunkNonceSize> kZeroNonce{};

const AeadImpl& chacha() {
    // A 32-byte message: the engine's one decision, for a size that small.
    static const AeadImpl& impl =
        *select(Aead::chacha20_poly1305, SizeHint::exactly(kFileKeySize)).impl;
    return impl;
}

}  // namespace

const StanzaKind* stanza_kind_of(const Stanza& stanza) {
    for (const StanzaKind* kind : kKinds)
        if (stanza.args[0] == kind->tag) return kind;
    return nullptr;
}

const StanzaKind* stanza_kind_for(KeyType type) {
    for (const StanzaKind* kind : kKinds)
        if (kind->key_type == type) return kind;
    return nullptr;
}

std::array<std::uint8_t, kWrappedFileKeySize> seal_file_key(std::span<const std::uint8_t, 32> key,
                                                            const FileKey& file_key) {
    std::array<std::uint8_t, kWrappedFileKeySize> body{};
    const AeadKey aead(chacha(), key);
    const AeadChunk chunk{kZeroNonce.data(), kZeroNonce.size(), nullptr, 0, file_key.data(),
                          body.data(), kFileKeySize, body.data() + kFileKeySize};
    aead.seal({&chunk, 1});
    return body;
}

bool open_file_key(std::span<const std::uint8_t, 32> key, std::span<const std::uint8_t> body,
                   FileKey& file_key) {
    if (body.size() != kWrappedFileKeySize) return false;  // checked before (problem())
    std::array<std::uint8_t, kWrappedFileKeySize> copy{};
    std::copy(body.begin(), body.end(), copy.begin());
    const AeadKey aead(chacha(), key);
    const AeadChunk chunk{kZeroNonce.data(), kZeroNonce.size(), nullptr, 0, copy.data(),
                          file_key.data(), kFileKeySize, copy.data() + kFileKeySize};
    bool ok = false;
    aead.open({&chunk, 1}, &ok);
    return ok;
}

std::optional<std::uint64_t> no_kdf_memory(const Stanza&) { return std::nullopt; }

std::optional<std::vector<std::uint8_t>> argument_bytes(const std::string& arg, std::size_t n) {
    std::optional<std::vector<std::uint8_t>> bytes = base64_decode(arg, false);
    if (!bytes || bytes->size() != n) return std::nullopt;
    return bytes;
}

}  // namespace warp::formats::age
