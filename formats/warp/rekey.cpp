// SPEC 4.7: changing the slots of a file. The kept slots are copied as stored, the new ones
// sealed with the file key that a kept or removed slot gave, the header MAC recomputed under
// the same header key, and the payload copied byte for byte.
#include <algorithm>
#include <array>
#include <memory>
#include <string>

#include "engine/error.hpp"
#include "engine/selection.hpp"
#include "formats/common/copy_rest.hpp"
#include "formats/common/entries_kept.hpp"
#include "formats/warp/key_slot.hpp"
#include "formats/warp/warp.hpp"
#include "formats/warp/header.hpp"
#include "formats/common/kdf.hpp"
#include "formats/warp/suite.hpp"
#include "formats/warp/unlock.hpp"

namespace warp::formats::warp_format {
namespace {

[[noreturn]] void refuse(const std::string& what) { throw Error(ErrorCause::usage, what); }

// Which of the header's slots stay: every refusal that needs no key, before any is tried.
std::vector<bool> slots_kept(const Header& header, const Options& options) {
    if (header.version == kVersion1)
        throw Error(ErrorCause::unsupported,
                    "rekey writes version 2 headers, and this version 1 file's slots do not fit "
                    "one: decrypt it and encrypt it again");
    if (options.remove.empty() && options.recipients.empty())
        refuse("nothing to change: no slot to add or remove was given");
    const std::size_t before = header.slots.size();
    const std::vector<bool> kept =
        entries_kept(before, options.remove, entry_word(Format::warp));
    std::vector<const SlotKind*> kept_kinds;
    std::vector<std::size_t> kept_indices;
    for (std::size_t i = 0; i < before; ++i)
        if (kept[i]) {
            kept_kinds.push_back(header.slots[i].kind);
            kept_indices.push_back(i);
        }
    check_slot_plan(kept_kinds, options.recipients, true, kept_indices);
    return kept;
}

}  // namespace

Result rekey(ByteSource& in, ByteSink& out, const Options& options) {
    const Header header = read_header(in);
    const std::vector<bool> kept = slots_kept(header, options);

    // The file's own AEAD opens its slots and seals the new ones; they are a few bytes each.
    const Selection selection =
        select(aead_of(header.suite), SizeHint::exactly(kFileKeySize), options.backend);
    Result result;
    result.selection = selection;
    WipedKey file_key;
    result.opened_with = open_file_key(header, options, *selection.impl, file_key);

    std::vector<std::vector<std::uint8_t>> slots;
    for (std::size_t i = 0; i < header.slots.size(); ++i)
        if (kept[i]) slots.push_back(header.slots[i].stored);
    const RandomFn random = options.random ? options.random : RandomFn(system_random);
    for (const Secret& recipient : options.recipients)
        slots.push_back(make_slot(recipient, file_key.span(), *selection.impl, random));

    std::vector<std::uint8_t> bytes =
        build_header(header.suite, header.chunk_log2, slots, header.payload_nonce);
    {
        WipedKey header_key;
        derive_header_key(file_key.span(), header_key);
        set_header_mac(bytes, header_key.span());
    }
    out.write(bytes.data(), bytes.size());
    result.entries_before = header.slots.size();
    result.entries_after = slots.size();
    result.payload_bytes = copy_rest(in, out);
    return result;
}

}  // namespace warp::formats::warp_format
