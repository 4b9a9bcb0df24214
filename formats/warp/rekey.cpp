// SPEC 4.7: changing the slots of a file. The kept slots are copied as stored, the new ones
// sealed with the file key that a kept or removed slot gave, the header MAC recomputed under
// the same header key, and the payload copied byte for byte.
#include <algorithm>
#include <array>
#include <memory>
#include <string>

#include "engine/error.hpp"
#include "engine/selection.hpp"
#include "formats/container.hpp"
#include "formats/header.hpp"
#include "formats/kdf.hpp"
#include "formats/suite.hpp"
#include "formats/unlock.hpp"

namespace warp::formats {
namespace {

[[noreturn]] void refuse(const std::string& what) { throw Error(ErrorCause::usage, what); }

std::string slot_count_text(std::size_t n) {
    return std::to_string(n) + (n == 1 ? " key slot" : " key slots");
}

// Which of the header's slots stay: every refusal that needs no key, before any is tried.
std::vector<bool> slots_kept(const Header& header, const RekeyOptions& options) {
    if (header.version == kVersion1)
        throw Error(ErrorCause::unsupported,
                    "rekey writes version 2 headers, and this version 1 file's slots do not fit "
                    "one: decrypt it and encrypt it again");
    if (options.remove.empty() && options.add.empty())
        refuse("nothing to change: no slot to add or remove was given");
    const std::size_t before = header.slots.size();
    std::vector<bool> kept(before, true);
    for (const std::size_t index : options.remove) {
        if (index >= before)
            refuse("there is no key slot " + std::to_string(index + 1) + ": the file has " +
                   slot_count_text(before));
        if (!kept[index]) refuse("key slot " + std::to_string(index + 1) + " is removed twice");
        kept[index] = false;
    }
    const std::size_t after =
        static_cast<std::size_t>(std::count(kept.begin(), kept.end(), true)) + options.add.size();
    if (after < kMinSlots)
        refuse("that would remove the last key slot, and a file needs one to open");
    if (after > kMaxSlots)
        refuse("a file holds " + std::to_string(kMinSlots) + " to " + std::to_string(kMaxSlots) +
               " key slots, and this would leave " + std::to_string(after));
    for (const SlotKind* kind : slot_kinds()) {
        std::size_t n = 0;
        std::size_t first_kept = before;
        for (std::size_t i = 0; i < before; ++i)
            if (kept[i] && header.slots[i].kind == kind) {
                ++n;
                first_kept = std::min(first_kept, i);
            }
        const std::size_t added = static_cast<std::size_t>(
            std::count_if(options.add.begin(), options.add.end(),
                          [&](const Secret& s) { return s.type == kind->type; }));
        if (kind->one_per_file && n + added > kMaxPassphraseSlots) {
            if (first_kept < before && added > 0)
                refuse("the file has a " + std::string(kind->name) + " slot already (key slot " +
                       std::to_string(first_kept + 1) + "), and a file holds one at most; " +
                       "remove it in the same rekey to replace it");
            refuse("a file holds at most one " + std::string(kind->name) + " slot");
        }
    }
    for (const Secret& secret : options.add) {
        const SlotKind* kind = slot_kind_of(static_cast<std::uint8_t>(secret.type));
        if (kind == nullptr)
            refuse("unknown key slot type " + std::to_string(static_cast<unsigned>(secret.type)));
        if (std::string why = kind->recipient_problem(secret); !why.empty()) refuse(why);
    }
    return kept;
}

std::uint64_t copy_all(ByteSource& in, ByteSink& out) {
    constexpr std::size_t kBlock = std::size_t{1} << 20;
    const std::unique_ptr<std::uint8_t[]> buffer(new std::uint8_t[kBlock]);
    std::uint64_t total = 0;
    for (;;) {
        const std::size_t got = in.read(buffer.get(), kBlock);
        if (got == 0) return total;
        out.write(buffer.get(), got);
        total += got;
    }
}

}  // namespace

RekeyResult rekey(ByteSource& in, ByteSink& out, const RekeyOptions& options) {
    const Header header = read_header(in);
    const std::vector<bool> kept = slots_kept(header, options);

    // The file's own AEAD opens its slots and seals the new ones; they are a few bytes each.
    const Selection selection =
        select(aead_of(header.suite), SizeHint::exactly(kFileKeySize), options.open.backend);
    RekeyResult result;
    WipedKey file_key;
    result.slot_used = open_file_key(header, options.open, *selection.impl, file_key);

    std::vector<std::vector<std::uint8_t>> slots;
    for (std::size_t i = 0; i < header.slots.size(); ++i)
        if (kept[i]) slots.push_back(header.slots[i].stored);
    const RandomFn random = options.random ? options.random : RandomFn(system_random);
    for (const Secret& recipient : options.add)
        slots.push_back(make_slot(recipient, file_key.span(), *selection.impl, random));

    std::vector<std::uint8_t> bytes =
        build_header(header.suite, header.chunk_log2, slots, header.payload_nonce);
    {
        WipedKey header_key;
        derive_header_key(file_key.span(), header_key);
        set_header_mac(bytes, header_key.span());
    }
    out.write(bytes.data(), bytes.size());
    result.slots_before = header.slots.size();
    result.slots_after = slots.size();
    result.payload_bytes = copy_all(in, out);
    return result;
}

}  // namespace warp::formats
