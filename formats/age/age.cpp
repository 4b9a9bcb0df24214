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
#include "formats/age/unlock.hpp"
#include "formats/age/stanza_plan.hpp"
#include "formats/common/kdf.hpp"

namespace warp::formats::age {
namespace {

[[noreturn]] void refuse(const std::string& what) { throw Error(ErrorCause::usage, what); }

void check_cipher(const Options& options) {
    if (options.aead && *options.aead != Aead::chacha20_poly1305)
        refuse("age files are ChaCha20-Poly1305 only");
}

FileInfo info_of(const Header& header, bool armored) {
    FileInfo info;
    info.format = armored ? Format::age_armored : Format::age;
    info.aead = Aead::chacha20_poly1305;
    info.chunk_log2 = static_cast<unsigned>(std::bit_width(kChunkSize)) - 1;
    for (const Stanza& stanza : header.stanzas) {
        EntryInfo entry;
        entry.type = stanza.args[0];
        const StanzaKind* stanza_kind = stanza_kind_of(stanza);
        entry.known = stanza_kind != nullptr;
        if (entry.known) {
            const KeyKind& kind = key_kind_of(stanza_kind->key_type);
            entry.post_quantum = kind.post_quantum;
            entry.public_key = kind.public_key();
        }
        if (&kScryptStanza == stanza_kind && stanza.args.size() == 3)
            if (const auto kib = kScryptStanza.kdf_memory_kib(stanza))
                entry.scrypt_log2_n = static_cast<unsigned>(std::bit_width(*kib)) - 1;
        info.entries.push_back(entry);
    }
    if (!armored) info.header_bytes = header.size;
    return info;
}

}  // namespace

Result encrypt(ByteSource& in, ByteSink& final_out, const Options& options) {
    check_cipher(options);
    check_stanza_plan({}, options.recipients);
    const RandomFn random = options.random ? options.random : RandomFn(system_random);
    std::optional<stream::LookaheadSource> lookahead;
    const stream::StreamSelection chosen = stream::select_for_stream(
        Aead::chacha20_poly1305, options.backend, options.size_hint, in, lookahead);

    WipedFileKey file_key;
    random(file_key.bytes.data(), file_key.bytes.size());
    const std::vector<Stanza> stanzas =
        wrap_recipients({}, options.recipients, file_key.bytes, random, options.plugin_ui);
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
    if (options.size_hint) out.expect_remaining(sealed_payload_bytes(*options.size_hint));
    const AeadKey key(*chosen.selection.impl, payload_key.span());
    Result result;
    result.format = options.armor ? Format::age_armored : Format::age;
    result.selection = chosen.selection;
    result.entries_after = stanzas.size();
    result.plaintext_bytes = seal_payload(key, *chosen.source, out, options.progress,
                                          options.threads, options.size_hint);
    if (armor) armor->finish();
    return result;
}

Result decrypt(ByteSource& raw, ByteSink& out, const Options& options, bool armored) {
    std::optional<ArmorSource> armor;
    if (armored) armor.emplace(raw);
    ByteSource& in = armor ? static_cast<ByteSource&>(*armor) : raw;
    const Header header = read_header(in);
    check_stanzas(header);
    WipedFileKey file_key;
    Result result;
    result.format = armored ? Format::age_armored : Format::age;
    result.entries_before = result.entries_after = header.stanzas.size();
    result.opened_with =
        open_file_key(header, options, file_key.bytes, &result.opened_by_plugin);

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
    if (payload_bytes)
        if (const std::optional<std::uint64_t> plaintext = opened_payload_bytes(*payload_bytes))
            out.expect_remaining(*plaintext);
    result.plaintext_bytes = open_payload(key, *chosen.source, out, options.progress,
                                          options.threads, payload_bytes);
    return result;
}

FileInfo read_info(ByteSource& raw, bool armored, std::optional<std::uint64_t> file_size) {
    std::optional<ArmorSource> armor;
    if (armored) armor.emplace(raw);
    ByteSource& in = armor ? static_cast<ByteSource&>(*armor) : raw;
    const Header header = read_header(in);
    check_stanzas(header);  // info judges the header as decrypt does
    FileInfo info = info_of(header, armored);
    if (!armored && file_size && *file_size >= header.size + kPayloadNonceSize)
        info.plaintext_bytes =
            opened_payload_bytes(*file_size - header.size - kPayloadNonceSize);
    return info;
}

}  // namespace warp::formats::age
