// Changing the stanzas of an age file without re-encrypting it, which neither age nor rage
// can do: the file key is opened once (the header MAC verified), the kept stanzas are written
// as they were (canonical base64: the same bytes), the new ones are sealed to the same file
// key, and the new header gets its MAC under the same MAC key. The payload nonce and the
// payload follow byte for byte, so the payload key is unchanged and every chunk still opens.
#include <memory>
#include <string>

#include "engine/error.hpp"
#include "formats/age/age.hpp"
#include "formats/age/armor.hpp"
#include "formats/age/header.hpp"
#include "formats/age/stanza_plan.hpp"
#include "formats/age/unlock.hpp"
#include "formats/common/copy_rest.hpp"
#include "formats/common/entries_kept.hpp"
#include "formats/common/kdf.hpp"

namespace warp::formats::age {
namespace {

[[noreturn]] void refuse(const std::string& what) { throw Error(ErrorCause::usage, what); }

// Which stanzas stay: every refusal that needs no key, before any is tried.
std::vector<bool> stanzas_kept(const Header& header, const Options& options) {
    if (options.remove.empty() && options.recipients.empty())
        refuse("nothing to change: no stanza to add or remove was given");
    const std::size_t before = header.stanzas.size();
    const std::vector<bool> kept = entries_kept(before, options.remove, entry_word(Format::age));
    std::vector<const StanzaKind*> kept_kinds;
    for (std::size_t i = 0; i < before; ++i)
        if (kept[i]) kept_kinds.push_back(stanza_kind_of(header.stanzas[i]));
    if (kept_kinds.empty() && options.recipients.empty())
        refuse("that would remove the last stanza, and a file needs one to open");
    check_stanza_plan(kept_kinds, options.recipients);
    return kept;
}

}  // namespace

Result rekey(ByteSource& raw, ByteSink& final_out, const Options& options, bool armored) {
    std::optional<ArmorSource> armor_in;
    if (armored) armor_in.emplace(raw);
    ByteSource& in = armor_in ? static_cast<ByteSource&>(*armor_in) : raw;
    const Header header = read_header(in);
    check_stanzas(header);
    const std::vector<bool> kept = stanzas_kept(header, options);

    Result result;
    result.format = armored ? Format::age_armored : Format::age;
    WipedFileKey file_key;
    result.opened_with =
        open_file_key(header, options, file_key.bytes, &result.opened_by_plugin);

    std::vector<Stanza> stanzas;
    for (std::size_t i = 0; i < header.stanzas.size(); ++i)
        if (kept[i]) stanzas.push_back(header.stanzas[i]);
    const RandomFn random = options.random ? options.random : RandomFn(system_random);
    std::vector<const StanzaKind*> kept_kinds;
    for (const Stanza& stanza : stanzas) kept_kinds.push_back(stanza_kind_of(stanza));
    for (Stanza& stanza : wrap_recipients(kept_kinds, options.recipients, file_key.bytes, random,
                                          options.plugin_ui))
        stanzas.push_back(std::move(stanza));

    std::optional<ArmorSink> armor_out;
    if (armored) armor_out.emplace(final_out);
    ByteSink& out = armor_out ? static_cast<ByteSink&>(*armor_out) : final_out;
    std::string text;
    {
        WipedKey mac_key;
        derive_key(file_key.bytes, {}, kHeaderLabel, mac_key);
        text = write_header(stanzas, mac_key.span());
    }
    out.write(reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
    result.entries_before = header.stanzas.size();
    result.entries_after = stanzas.size();
    // The nonce and the payload, as they are: a truncated or damaged payload stays so (rekey
    // does not read it; verify does).
    result.payload_bytes = copy_rest(in, out);
    if (armor_out) armor_out->finish();
    return result;
}

}  // namespace warp::formats::age
