// SPEC 2 (file = header || payload): the facade of container.hpp, tying the header (header.cpp),
// the key slots (key_slot.cpp, unlock.cpp) and the payload (payload.cpp) together.
#include "formats/container.hpp"

#include <sodium.h>

#include <algorithm>
#include <string>

#include "engine/aead_key.hpp"
#include "engine/error.hpp"
#include "formats/header.hpp"
#include "formats/kdf.hpp"
#include "formats/payload.hpp"
#include "formats/payload_input.hpp"
#include "formats/suite.hpp"
#include "formats/unlock.hpp"

namespace warp::formats {
namespace {

void system_random(std::uint8_t* out, std::size_t len) {
    ensure_sodium();
    randombytes_buf(out, len);
}

[[noreturn]] void refuse(const std::string& what) { throw Error(ErrorCause::usage, what); }

void check_options(const EncryptOptions& options) {
    if (options.chunk_log2 < kMinChunkLog2 || options.chunk_log2 > kMaxChunkLog2)
        refuse("chunk size 2^" + std::to_string(options.chunk_log2) +
               " is outside 2^12..2^24");
    if (options.suite != Suite::aes_256_gcm && options.suite != Suite::chacha20_poly1305)
        refuse("unknown suite " + std::to_string(static_cast<unsigned>(options.suite)));
    const std::size_t n = options.recipients.size();
    if (n < kMinSlots || n > kMaxSlots)
        refuse("a file holds 1 to 16 key slots; " + std::to_string(n) + " were asked for");
    const auto passphrases = std::count_if(options.recipients.begin(), options.recipients.end(),
                                           [](const Secret& r) { return r.type == SlotType::passphrase; });
    if (static_cast<std::size_t>(passphrases) > kMaxPassphraseSlots)
        refuse("a file holds at most one passphrase slot; " + std::to_string(passphrases) +
               " passphrases were given");
    for (const Secret& r : options.recipients) {
        if (r.type == SlotType::key_file) {
            if (r.bytes.size() != kKeyFileSecretSize)
                refuse("a key-file secret is 32 bytes, not " + std::to_string(r.bytes.size()));
        } else if (r.type == SlotType::passphrase) {
            if (r.kdf.passes < kMinKdfPasses || r.kdf.passes > kMaxKdfPasses)
                refuse("Argon2id passes must be 1..16, not " + std::to_string(r.kdf.passes));
            if (r.kdf.memory_kib < kMinKdfMemoryKib || r.kdf.memory_kib > kMaxKdfMemoryKib)
                refuse("Argon2id memory must be 8 KiB..4 GiB, not " +
                       std::to_string(r.kdf.memory_kib) + " KiB");
        } else {
            refuse("unknown key slot type " + std::to_string(static_cast<unsigned>(r.type)));
        }
    }
}

}  // namespace

void encrypt(ByteSource& in, ByteSink& out, const EncryptOptions& options) {
    check_options(options);
    const RandomFn random = options.random ? options.random : RandomFn(system_random);
    const Suite suite = options.suite;

    // Randomness is drawn in this order (SPEC 9 relies on it): file key, each slot's salt,
    // payload nonce.
    WipedKey file_key;
    random(file_key.data(), kFileKeySize);
    const AeadImpl& slot_aead = resolve_aead(options.backend, suite, kFileKeySize);
    std::vector<std::vector<std::uint8_t>> slots;
    slots.reserve(options.recipients.size());
    for (const Secret& recipient : options.recipients)
        slots.push_back(make_slot(recipient, file_key.span(), slot_aead, random));
    std::array<std::uint8_t, kPayloadNonceSize> payload_nonce{};
    random(payload_nonce.data(), payload_nonce.size());

    std::vector<std::uint8_t> header =
        build_header(suite, options.chunk_log2, slots, payload_nonce);
    WipedKey payload_key;
    {
        WipedKey header_key;
        derive_header_key(file_key.span(), header_key);
        set_header_mac(header, header_key.span());
        derive_payload_key(file_key.span(), suite, payload_nonce, payload_key);
    }
    std::optional<LookaheadSource> lookahead;
    const PayloadInput payload =
        choose_payload_input(options.backend, suite, options.size_hint, in, lookahead);
    const AeadKey key(*payload.aead, payload_key.span());
    out.write(header.data(), header.size());
    seal_payload(key, options.chunk_log2, *payload.source, out, options.progress,
                 options.threads);
}

DecryptResult decrypt(ByteSource& in, ByteSink& out, const DecryptOptions& options) {
    const Header header = read_header(in);
    WipedKey payload_key;
    DecryptResult result;
    result.slot_used = unlock(header, options, payload_key);
    std::optional<std::uint64_t> payload_bytes;
    if (options.size_hint && *options.size_hint >= header.bytes.size())
        payload_bytes = *options.size_hint - header.bytes.size();
    std::optional<LookaheadSource> lookahead;
    const PayloadInput payload =
        choose_payload_input(options.backend, header.suite, payload_bytes, in, lookahead);
    const AeadKey key(*payload.aead, payload_key.span());
    result.plaintext_bytes = open_payload(key, header.chunk_log2, *payload.source, out,
                                          options.progress, options.threads);
    return result;
}

HeaderInfo read_info(ByteSource& in, std::optional<std::uint64_t> file_size) {
    const Header header = read_header(in);
    HeaderInfo info;
    info.version = header.version;
    info.suite = header.suite;
    info.chunk_log2 = header.chunk_log2;
    for (const SlotFields& slot : header.slots)
        info.slots.push_back(SlotInfo{static_cast<SlotType>(slot.type),
                                      slot.is_passphrase() ? slot.kdf : KdfParams{0, 0},
                                      slot.known()});
    info.header_bytes = header.bytes.size();
    if (file_size && *file_size >= info.header_bytes)
        if (const auto geometry =
                payload_geometry(*file_size - info.header_bytes, header.chunk_log2))
            info.plaintext_bytes = geometry->plaintext_bytes;
    return info;
}

}  // namespace warp::formats
