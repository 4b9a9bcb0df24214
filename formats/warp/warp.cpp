// SPEC 2 (file = header || payload): the facade of warp.hpp, tying the header (header.cpp),
// the key slots (key_slot.cpp, unlock.cpp) and the payload (payload.cpp) together.
#include "formats/warp/warp.hpp"

#include <algorithm>
#include <string>

#include "engine/aead_key.hpp"
#include "engine/error.hpp"
#include "engine/stream/lookahead.hpp"
#include "formats/warp/header.hpp"
#include "formats/common/kdf.hpp"
#include "formats/warp/payload.hpp"
#include "formats/warp/suite.hpp"
#include "formats/warp/key_slot.hpp"
#include "formats/warp/unlock.hpp"

namespace warp::formats::warp_format {
namespace {

void check_options(const Options& options) {
    if (options.chunk_log2 < kMinChunkLog2 || options.chunk_log2 > kMaxChunkLog2)
        throw Error(ErrorCause::usage, "chunk size 2^" + std::to_string(options.chunk_log2) +
                                           " is outside " + chunk_size_bounds_text());
    check_slot_plan({}, options.recipients, false);
}

}  // namespace

Result encrypt(ByteSource& in, ByteSink& out, const Options& options) {
    check_options(options);
    const RandomFn random = options.random ? options.random : RandomFn(system_random);

    // The engine's one decision for this file: backend and, under auto, the suite. It reads
    // ahead of a stream when the size matters; the slots and the payload both use it.
    std::optional<stream::LookaheadSource> lookahead;
    const stream::StreamSelection chosen =
        stream::select_for_stream(options.aead, options.backend, options.size_hint, in, lookahead);
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
    if (options.size_hint)
        out.expect_remaining(sealed_payload_bytes(*options.size_hint, options.chunk_log2));
    Result result;
    result.format = Format::warp;
    result.selection = chosen.selection;
    result.entries_after = slots.size();
    result.plaintext_bytes = seal_payload(key, options.chunk_log2, *chosen.source, out,
                                          options.progress, options.threads, options.size_hint);
    return result;
}

Result decrypt(ByteSource& in, ByteSink& out, const Options& options) {
    const Header header = read_header(in);
    std::optional<std::uint64_t> payload_bytes;
    if (options.size_hint && *options.size_hint >= header.bytes.size())
        payload_bytes = *options.size_hint - header.bytes.size();
    // The engine's one decision for this file (the header fixes the AEAD): slots and payload.
    std::optional<stream::LookaheadSource> lookahead;
    const stream::StreamSelection chosen = stream::select_for_stream(
        aead_of(header.suite), options.backend, payload_bytes, in, lookahead);
    WipedKey payload_key;
    Result result;
    result.selection = chosen.selection;
    result.entries_before = result.entries_after = header.slots.size();
    result.opened_with = unlock(header, options, *chosen.selection.impl, payload_key);
    const AeadKey key(*chosen.selection.impl, payload_key.span());
    if (payload_bytes)
        if (const auto geometry = payload_geometry(*payload_bytes, header.chunk_log2))
            out.expect_remaining(geometry->plaintext_bytes);
    result.plaintext_bytes = open_payload(key, header.chunk_log2, *chosen.source, out,
                                          options.progress, options.threads, payload_bytes);
    return result;
}

FileInfo read_info(ByteSource& in, std::optional<std::uint64_t> file_size) {
    const Header header = read_header(in);
    FileInfo info;
    info.format = Format::warp;
    info.version = header.version;
    info.aead = aead_of(header.suite);
    info.chunk_log2 = header.chunk_log2;
    for (const SlotFields& slot : header.slots) {
        EntryInfo entry;
        entry.known = slot.known();
        if (slot.known()) {
            entry.type = slot.kind->name;
            entry.argon2id = slot.kind->kdf(slot);
            entry.note = slot.kind->info_note;
            const KeyKind& kind = key_kind_of(slot.kind->key_type);
            entry.post_quantum = kind.post_quantum;
            entry.public_key = kind.public_key();
        } else {
            entry.type = "unknown";
            entry.type_code = slot.type;
        }
        info.entries.push_back(entry);
    }
    info.header_bytes = header.bytes.size();
    if (file_size && *file_size >= header.bytes.size())
        if (const auto geometry =
                payload_geometry(*file_size - header.bytes.size(), header.chunk_log2))
            info.plaintext_bytes = geometry->plaintext_bytes;
    return info;
}

}  // namespace warp::formats::warp_format
