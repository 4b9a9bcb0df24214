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
#include "formats/kdf.hpp"
#include "formats/slot_kind.hpp"

namespace warp::formats::age {
namespace {

[[noreturn]] void refuse(const std::string& what) { throw Error(ErrorCause::usage, what); }

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
    // Armor, or what was meant as armor (a line before it, spaces inside its BEGIN line): the
    // armor reader's strict rules then say what is wrong, rather than "bad magic".
    const std::size_t start = text.find_first_not_of(" \t\r\n");
    if (start != std::string_view::npos && text.substr(start).starts_with("-----BEGIN"))
        return Format::age_armored;
    if (text.find(kArmorLabel) != std::string_view::npos) return Format::age_armored;
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
    check_stanzas(header);  // info judges the header as decrypt does
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
