// SPEC 4 (trying slots), SPEC 5 (header and payload keys), SPEC 7 items 5 and 6.
#include "formats/warp/unlock.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "engine/error.hpp"
#include "formats/common/distinct_names.hpp"
#include "formats/common/units_text.hpp"

namespace warp::formats::warp_format {
namespace {


std::string count_of(std::size_t n, const char* what) {
    if (n == 0) return std::string("no ") + what + " slot";
    return std::to_string(n) + " " + what + (n == 1 ? " slot" : " slots");
}

std::size_t unknown_slots(const Header& header) {
    return static_cast<std::size_t>(std::count_if(header.slots.begin(), header.slots.end(),
                                                  [](const SlotFields& s) { return !s.known(); }));
}

std::string skipped_note(const Header& header) {
    const std::size_t unknown = unknown_slots(header);
    if (unknown == 0) return "";
    return " (" + count_of(unknown, "key") + " of a type this warpcrypt does not know, skipped)";
}

// "a, b and c"
std::string joined(const std::vector<std::string>& items, const char* last) {
    std::string text;
    for (std::size_t i = 0; i < items.size(); ++i)
        text += (i == 0 ? "" : i + 1 == items.size() ? last : ", ") + items[i];
    return text;
}

// One message whatever failed: no slot of the right type opened, or one did and the file key
// it gave did not verify the header MAC (SPEC 4.3).
[[noreturn]] void no_slot_opened(const Header& header, std::size_t attempts) {
    const std::size_t slots = header.slots.size();
    if (attempts > 0)
        throw Error(ErrorCause::wrong_key,
                    "wrong key or passphrase, or an altered header: none of the " +
                        std::to_string(slots) + (slots == 1 ? " key slot" : " key slots") +
                        " opened" + skipped_note(header));
    // Nothing was tried: say what the file's slots want.
    std::vector<std::string> counts, wanted;
    for (const SlotKind* kind : slot_kinds()) {
        const std::size_t n = slots_of_kind(header.slots, *kind);
        if (n == 0) continue;
        counts.push_back(count_of(n, std::string(kind->name).c_str()));
        wanted.push_back(std::string(kind->secret));
    }
    throw Error(ErrorCause::wrong_key, "wrong key or passphrase: the file has " +
                                           joined(counts, " and ") + skipped_note(header) +
                                           ", and no " + joined(wanted, " or ") + " was given");
}

// Worded as the age reader's file without a known stanza, with the same exit code.
[[noreturn]] void no_known_slot(const Header& header) {
    DistinctNames types;
    for (const SlotFields& slot : header.slots) types.add(std::to_string(slot.type));
    throw Error(ErrorCause::unsupported,
                "unsupported key slots: none of the file's " + count_of(header.slots.size(), "key") +
                    " is of a type this warpcrypt can open (types: " + types.text() + ")");
}

// Why a slot that runs Argon2id is not tried, or empty and its work counted: the run's KDF
// limits (SPEC 7, kdf_limits.hpp), checked before any work.
std::string over_cap(const KdfParams& kdf, std::size_t index, const Options& options) {
    return options.kdf_limits.draw(
        "key slot " + std::to_string(index + 1), "Argon2id", kdf.memory_kib,
        argon2id_work_kib(kdf.memory_kib, kdf.passes),
        std::to_string(kdf.passes) + " passes x " +
            std::to_string(mib_rounded_up(kdf.memory_kib)) + " MiB");
}

}  // namespace

void derive_header_key(std::span<const std::uint8_t, kFileKeySize> file_key, WipedKey& out) {
    hkdf_sha256(file_key, {}, label_bytes(kHeaderKeyLabel), out.span());
}

void derive_payload_key(std::span<const std::uint8_t, kFileKeySize> file_key, Suite suite,
                        std::span<const std::uint8_t, kPayloadNonceSize> payload_nonce,
                        WipedKey& out) {
    std::array<std::uint8_t, kPayloadKeyLabel.size() + 1> info{};
    std::copy(kPayloadKeyLabel.begin(), kPayloadKeyLabel.end(), info.begin());
    info.back() = static_cast<std::uint8_t>(suite);
    hkdf_sha256(file_key, payload_nonce, info, out.span());
}

std::size_t open_file_key(const Header& header, const Options& options,
                          const AeadImpl& aead, WipedKey& file_key) {
    if (options.identities.empty() && options.deferred_identities.empty())
        throw Error(ErrorCause::usage, "no key, identity or passphrase to open the file with");
    if (unknown_slots(header) == header.slots.size()) no_known_slot(header);

    WipedKey header_key;
    std::string refused;  // why the first slot over a KDF cap was not tried
    std::size_t attempts = 0;
    // Every known slot against `secrets`; the slot opened, or nullopt.
    auto open_with = [&](std::span<const Secret> secrets) -> std::optional<std::size_t> {
        for (std::size_t i = 0; i < header.slots.size(); ++i) {
            const SlotFields& slot = header.slots[i];
            if (!slot.known()) continue;  // SPEC 4.4: another reader's slot
            for (const Secret& secret : secrets) {
                if (secret.type != slot.kind->key_type) continue;
                if (const std::optional<KdfParams> kdf = slot.kind->kdf(slot)) {
                    if (std::string why = over_cap(*kdf, i, options); !why.empty()) {
                        if (refused.empty()) refused = std::move(why);
                        continue;
                    }
                }
                ++attempts;
                // A slot opens only if the file key it gives verifies the header MAC too (SPEC
                // 4.3). The MAC is checked whether or not the slot opened, so that both
                // failures take the same steps.
                const bool slot_opened = open_slot(slot, secret, aead, file_key.span());
                derive_header_key(file_key.span(), header_key);
                const bool mac_ok = header_mac_ok(header, header_key.span());
                if (slot_opened && mac_ok) return i;
            }
        }
        return std::nullopt;
    };
    std::optional<std::size_t> opened = open_with(options.identities);
    // Then, in the order given, the identities that need the user and may open a slot
    // (deferred_identity.hpp).
    for (const DeferredIdentity& deferred : options.deferred_identities) {
        if (opened) break;
        const bool applies = std::any_of(
            header.slots.begin(), header.slots.end(), [&](const SlotFields& slot) {
                return slot.known() && deferred.may_open(slot.kind->key_type, "");
            });
        if (applies) opened = open_with(deferred.open());
    }
    if (!opened) {
        if (!refused.empty()) throw Error(ErrorCause::usage, refused);
        no_slot_opened(header, attempts);
    }
    return *opened;
}

std::size_t unlock(const Header& header, const Options& options, const AeadImpl& aead,
                   WipedKey& payload_key) {
    WipedKey file_key;
    const std::size_t opened = open_file_key(header, options, aead, file_key);
    derive_payload_key(file_key.span(), header.suite, header.payload_nonce, payload_key);
    return opened;
}

}  // namespace warp::formats::warp_format
