// age.md, "Encrypted file format": the header, then the payload; what ties header.cpp, the
// stanza types, payload.cpp and armor.cpp together.
#include "formats/age/age.hpp"

#include <algorithm>
#include <bit>

#include "engine/aead_key.hpp"
#include "engine/error.hpp"
#include "engine/stream/lookahead.hpp"
#include "formats/age/armor.hpp"
#include "formats/age/header.hpp"
#include "formats/age/payload.hpp"
#include "formats/age/stanza_kind.hpp"
#include "formats/kdf.hpp"
#include "formats/slot_kind.hpp"

namespace warp::formats::age {
namespace {

[[noreturn]] void refuse(const std::string& what) { throw Error(ErrorCause::usage, what); }

struct WipedFileKey {
    FileKey bytes{};
    ~WipedFileKey() { secure_wipe(bytes.data(), bytes.size()); }
};

void derive_key(const FileKey& file_key, std::span<const std::uint8_t> salt,
                std::string_view label, WipedKey& out) {
    hkdf_sha256(file_key, salt, label_bytes(label), out.span());
}

void check_recipients(const EncryptOptions& options) {
    if (options.recipients.empty()) refuse("an age file needs a recipient or a passphrase");
    for (const Secret& r : options.recipients) {
        if (r.type == SlotType::key_file)
            refuse("age files have no key-file recipients: use -r/-R (age1...) or a passphrase, "
                   "or the warp format");
        if (r.type == SlotType::passphrase) {
            if (options.recipients.size() != 1)
                refuse("an age file with a passphrase holds nothing else (age.md: an scrypt "
                       "stanza is alone in its header); encrypt to the passphrase alone");
            if (!std::has_single_bit(r.kdf.memory_kib) ||
                scrypt_memory_kib(kDefaultScryptLog2N - 5) > r.kdf.memory_kib)
                refuse("an age passphrase's scrypt memory is a power of two from 8 MiB (work "
                       "factor 13), not " + std::to_string(r.kdf.memory_kib / 1024) + " MiB");
        }
        if (r.type == SlotType::x25519)
            if (std::string why = kX25519Slot.recipient_problem(r); !why.empty()) refuse(why);
    }
}

// age.md's header rules that no grammar says: each known stanza well formed, a stanza that
// must be alone alone. A header failure (corrupted) names the stanza.
void check_stanzas(const Header& header) {
    for (std::size_t i = 0; i < header.stanzas.size(); ++i) {
        const StanzaKind* kind = stanza_kind_of(header.stanzas[i]);
        if (kind == nullptr) continue;
        if (std::string why = kind->problem(header.stanzas[i]); !why.empty())
            throw Error(ErrorCause::corrupted,
                        "age header: stanza " + std::to_string(i + 1) + ": " + why);
        if (kind->alone && header.stanzas.size() != 1)
            throw Error(ErrorCause::corrupted,
                        "age header: an " + std::string(kind->tag) +
                            " stanza must be alone in its header, and this one has " +
                            std::to_string(header.stanzas.size()) + " stanzas");
    }
}

std::string stanza_types(const Header& header) {
    std::string types;
    for (const Stanza& s : header.stanzas)
        if (types.find(s.args[0]) == std::string::npos)
            types += (types.empty() ? "" : ", ") + s.args[0];
    return types;
}

// The file key from the first stanza an identity opens whose file key verifies the MAC.
std::size_t open_file_key(const Header& header, const DecryptOptions& options,
                          FileKey& file_key) {
    if (options.identities.empty())
        throw Error(ErrorCause::usage, "no identity or passphrase to open the file with");
    const bool any_known = std::any_of(header.stanzas.begin(), header.stanzas.end(),
                                       [](const Stanza& s) { return stanza_kind_of(s); });
    const bool hybrid = std::any_of(header.stanzas.begin(), header.stanzas.end(),
                                    [](const Stanza& s) { return s.args[0] == kHybridTag; });
    if (!any_known && hybrid)
        throw Error(ErrorCause::unsupported,
                    "the file is encrypted to mlkem768x25519 (post-quantum) recipients only, "
                    "which this warpcrypt does not implement");
    std::size_t attempts = 0;
    for (std::size_t i = 0; i < header.stanzas.size(); ++i) {
        const Stanza& stanza = header.stanzas[i];
        const StanzaKind* kind = stanza_kind_of(stanza);
        if (kind == nullptr) continue;  // "MUST ignore unrecognized stanzas"
        for (const Secret& identity : options.identities) {
            if (identity.type != kind->secret_type) continue;
            if (const std::optional<std::uint64_t> kib = kind->kdf_memory_kib(stanza);
                kib && *kib > options.max_kdf_memory_kib)
                throw Error(ErrorCause::usage,
                            "stanza " + std::to_string(i + 1) + " needs " +
                                std::to_string(*kib / 1024) +
                                " MiB for its passphrase KDF (scrypt), over the --kdf-max-memory "
                                "limit of " +
                                std::to_string(options.max_kdf_memory_kib / 1024) + " MiB");
            ++attempts;
            WipedKey mac_key;
            const bool unwrapped = kind->unwrap(stanza, identity, file_key);
            derive_key(file_key, {}, kHeaderLabel, mac_key);
            const std::array<std::uint8_t, kMacSize> mac = header_mac(header.mac_input, mac_key.span());
            // Unwrapped or not, the MAC is checked: both failures take the same steps, and
            // say the same (the warp format's SPEC 4.3).
            const bool mac_ok = equal_in_constant_time(mac.data(), header.mac.data(), kMacSize);
            if (unwrapped && mac_ok) return i;
        }
    }
    if (attempts > 0)
        throw Error(ErrorCause::wrong_key,
                    "wrong key or passphrase, or an altered header: no stanza of the age file "
                    "opened (stanzas: " + stanza_types(header) + ")");
    throw Error(ErrorCause::wrong_key, "no identity or passphrase given matches the age file's "
                                       "stanzas (" + stanza_types(header) + ")");
}

Info info_of(const Header& header) {
    Info info;
    for (const Stanza& stanza : header.stanzas) {
        StanzaInfo entry{stanza.args[0], stanza_kind_of(stanza) != nullptr, std::nullopt};
        if (&kScryptStanza == stanza_kind_of(stanza) && stanza.args.size() == 3)
            if (const auto kib = kScryptStanza.kdf_memory_kib(stanza))
                entry.scrypt_log2_n = static_cast<unsigned>(std::bit_width(*kib)) - 1;
        info.stanzas.push_back(entry);
    }
    info.header_bytes = header.size;
    return info;
}

}  // namespace

Format detect(std::span<const std::uint8_t> first_bytes) {
    const std::string_view text(reinterpret_cast<const char*>(first_bytes.data()),
                                first_bytes.size());
    if (text.starts_with(std::string_view(reinterpret_cast<const char*>(kMagic.data()),
                                          kMagic.size())))
        return Format::warp;
    if (text.starts_with(kIntro)) return Format::age;
    const std::size_t start = text.find_first_not_of(" \t\r\n");
    if (start != std::string_view::npos && text.substr(start).starts_with("-----BEGIN"))
        return Format::age_armored;
    return Format::unknown;
}

Result encrypt(ByteSource& in, ByteSink& final_out, const EncryptOptions& options) {
    check_recipients(options);
    const RandomFn random = options.random ? options.random : RandomFn(system_random);
    std::optional<stream::LookaheadSource> lookahead;
    const stream::StreamSelection chosen = stream::select_for_stream(
        Aead::chacha20_poly1305, options.backend, options.size_hint, in, lookahead);

    WipedFileKey file_key;
    random(file_key.bytes.data(), file_key.bytes.size());
    std::vector<Stanza> stanzas;
    for (const Secret& recipient : options.recipients)
        stanzas.push_back(stanza_kind_for(recipient.type)->wrap(recipient, file_key.bytes, random));
    std::array<std::uint8_t, kPayloadNonceSize> nonce{};
    random(nonce.data(), nonce.size());

    std::optional<ArmorSink> armor;
    if (options.armor) armor.emplace(final_out);
    ByteSink& out = armor ? static_cast<ByteSink&>(*armor) : final_out;
    WipedKey mac_key, payload_key;
    derive_key(file_key.bytes, {}, kHeaderLabel, mac_key);
    derive_key(file_key.bytes, nonce, kPayloadLabel, payload_key);
    const std::string header = write_header(stanzas, mac_key.span());
    out.write(reinterpret_cast<const std::uint8_t*>(header.data()), header.size());
    out.write(nonce.data(), nonce.size());
    const AeadKey key(*chosen.selection.impl, payload_key.span());
    Result result;
    result.selection = chosen.selection;
    result.plaintext_bytes = seal_payload(key, *chosen.source, out, options.progress,
                                          options.threads);
    if (armor) armor->finish();
    return result;
}

Result decrypt(ByteSource& raw, ByteSink& out, const DecryptOptions& options, bool armored) {
    std::optional<ArmorSource> armor;
    if (armored) armor.emplace(raw);
    ByteSource& in = armor ? static_cast<ByteSource&>(*armor) : raw;
    const Header header = read_header(in);
    check_stanzas(header);
    WipedFileKey file_key;
    Result result;
    result.stanza_used = open_file_key(header, options, file_key.bytes);

    std::array<std::uint8_t, kPayloadNonceSize> nonce{};
    if (read_fully(in, nonce.data(), nonce.size()) != nonce.size())
        throw Error(ErrorCause::truncated, "truncated: input ends inside the age payload's nonce");
    std::optional<std::uint64_t> payload_bytes;
    if (!armored && options.size_hint && *options.size_hint >= header.size + kPayloadNonceSize)
        payload_bytes = *options.size_hint - header.size - kPayloadNonceSize;
    std::optional<stream::LookaheadSource> lookahead;
    const stream::StreamSelection chosen = stream::select_for_stream(
        Aead::chacha20_poly1305, options.backend, payload_bytes, in, lookahead);
    WipedKey payload_key;
    derive_key(file_key.bytes, nonce, kPayloadLabel, payload_key);
    const AeadKey key(*chosen.selection.impl, payload_key.span());
    result.selection = chosen.selection;
    result.plaintext_bytes =
        open_payload(key, *chosen.source, out, options.progress, options.threads);
    return result;
}

Info read_info(ByteSource& raw, bool armored, std::optional<std::uint64_t> file_size) {
    std::optional<ArmorSource> armor;
    if (armored) armor.emplace(raw);
    ByteSource& in = armor ? static_cast<ByteSource&>(*armor) : raw;
    const Header header = read_header(in);
    Info info = info_of(header);
    info.armored = armored;
    if (!armored && file_size && *file_size >= header.size + kPayloadNonceSize + kTagSize) {
        // age.md, "Payload": whole records, then a final one of 16 (empty) to 64 KiB + 16.
        const std::uint64_t p = *file_size - header.size - kPayloadNonceSize;
        const std::uint64_t records = (p + kRecordSize - 1) / kRecordSize;
        const std::uint64_t last = p - (records - 1) * kRecordSize;
        if (last > kTagSize || records == 1) info.plaintext_bytes = p - records * kTagSize;
    }
    return info;
}

}  // namespace warp::formats::age
