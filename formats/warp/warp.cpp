// SPEC 2 (file = header || payload): the facade of container.hpp, tying the header (header.cpp),
// the key slots (key_slot.cpp, unlock.cpp) and the payload (payload.cpp) together.
#include "formats/container.hpp"

#include <algorithm>
#include <string>

#include "engine/aead_key.hpp"
#include "engine/error.hpp"
#include "engine/stream/lookahead.hpp"
#include "formats/header.hpp"
#include "formats/kdf.hpp"
#include "formats/payload.hpp"
#include "formats/suite.hpp"
#include "formats/unlock.hpp"

namespace warp::formats {
namespace {

[[noreturn]] void refuse(const std::string& what) { throw Error(ErrorCause::usage, what); }

void check_options(const EncryptOptions& options) {
    if (options.chunk_log2 < kMinChunkLog2 || options.chunk_log2 > kMaxChunkLog2)
        refuse("chunk size 2^" + std::to_string(options.chunk_log2) +
               " is outside " + chunk_size_bounds_text());
    if (options.suite && !is_known_suite(static_cast<std::uint8_t>(*options.suite)))
        refuse("unknown suite " + std::to_string(static_cast<unsigned>(*options.suite)));
    const std::size_t n = options.recipients.size();
    if (n < kMinSlots || n > kMaxSlots)
        refuse("a file holds " + std::to_string(kMinSlots) + " to " + std::to_string(kMaxSlots) +
               " key slots; " + std::to_string(n) + " were asked for");
    for (const SlotKind* kind : slot_kinds()) {
        const auto of_kind = std::count_if(options.recipients.begin(), options.recipients.end(),
                                           [&](const Secret& r) { return r.type == kind->type; });
        if (kind->one_per_file && static_cast<std::size_t>(of_kind) > kMaxPassphraseSlots)
            refuse("a file holds at most one " + std::string(kind->name) + " slot; " +
                   std::to_string(of_kind) + " " + std::string(kind->secret) + "s were given");
    }
    for (std::size_t i = 0; i < options.recipients.size(); ++i) {
        const Secret& r = options.recipients[i];
        const SlotKind* kind = slot_kind_of(static_cast<std::uint8_t>(r.type));
        if (kind == nullptr)
            refuse("unknown key slot type " + std::to_string(static_cast<unsigned>(r.type)));
        if (std::string why = kind->recipient_problem(r); !why.empty())
            refuse("key slot " + std::to_string(i + 1) + ": " + why);
    }
}

}  // namespace

EncryptResult encrypt(ByteSource& in, ByteSink& out, const EncryptOptions& options) {
    check_options(options);
    const RandomFn random = options.random ? options.random : RandomFn(system_random);

    // The engine's one decision for this file: backend and, under auto, the suite. It reads
    // ahead of a stream when the size matters; the slots and the payload both use it.
    std::optional<Aead> cipher;
    if (options.suite) cipher = aead_of(*options.suite);
    std::optional<stream::LookaheadSource> lookahead;
    const stream::StreamSelection chosen =
        stream::select_for_stream(cipher, options.backend, options.size_hint, in, lookahead);
    const Suite suite = suite_of(chosen.selection.aead);

    // Randomness is drawn in this order (SPEC 9 relies on it): file key, each slot's salt,
    // payload nonce.
    WipedKey file_key;
    random(file_key.data(), kFileKeySize);
    std::vector<std::vector<std::uint8_t>> slots;
    slots.reserve(options.recipients.size());
    for (const Secret& recipient : options.recipients)
        slots.push_back(make_slot(recipient, file_key.span(), *chosen.selection.impl, random));
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
    const AeadKey key(*chosen.selection.impl, payload_key.span());
    out.write(header.data(), header.size());
    EncryptResult result{chosen.selection, 0};
    result.plaintext_bytes = seal_payload(key, options.chunk_log2, *chosen.source, out,
                                          options.progress, options.threads);
    return result;
}

DecryptResult decrypt(ByteSource& in, ByteSink& out, const DecryptOptions& options) {
    const Header header = read_header(in);
    std::optional<std::uint64_t> payload_bytes;
    if (options.size_hint && *options.size_hint >= header.bytes.size())
        payload_bytes = *options.size_hint - header.bytes.size();
    // The engine's one decision for this file (the header fixes the AEAD): slots and payload.
    std::optional<stream::LookaheadSource> lookahead;
    const stream::StreamSelection chosen = stream::select_for_stream(
        aead_of(header.suite), options.backend, payload_bytes, in, lookahead);
    WipedKey payload_key;
    DecryptResult result;
    result.selection = chosen.selection;
    result.slot_used = unlock(header, options, *chosen.selection.impl, payload_key);
    const AeadKey key(*chosen.selection.impl, payload_key.span());
    result.plaintext_bytes = open_payload(key, header.chunk_log2, *chosen.source, out,
                                          options.progress, options.threads);
    return result;
}

HeaderInfo read_info(ByteSource& in, std::optional<std::uint64_t> file_size) {
    const Header header = read_header(in);
    HeaderInfo info;
    info.version = header.version;
    info.suite = header.suite;
    info.chunk_log2 = header.chunk_log2;
    for (const SlotFields& slot : header.slots) {
        SlotInfo entry{static_cast<SlotType>(slot.type), slot.known(), "", std::nullopt, ""};
        if (slot.known()) {
            entry.name = slot.kind->name;
            entry.kdf = slot.kind->kdf(slot);
            entry.note = slot.kind->info_note;
        }
        info.slots.push_back(entry);
    }
    info.header_bytes = header.bytes.size();
    if (file_size && *file_size >= info.header_bytes)
        if (const auto geometry =
                payload_geometry(*file_size - info.header_bytes, header.chunk_log2))
            info.plaintext_bytes = geometry->plaintext_bytes;
    return info;
}

}  // namespace warp::formats
