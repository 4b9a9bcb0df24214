// SPEC 4 (trying slots), SPEC 5 (header and payload keys), SPEC 7 items 5 and 6.
#include "formats/unlock.hpp"

#include <algorithm>
#include <optional>
#include <string>

#include "engine/error.hpp"
#include "formats/suite.hpp"

namespace warp::format {
namespace {

std::span<const std::uint8_t> label_bytes(std::string_view label) {
    return {reinterpret_cast<const std::uint8_t*>(label.data()), label.size()};
}

std::uint64_t mib_rounded_up(std::uint64_t kib) { return (kib + 1023) / 1024; }

std::string count_of(std::size_t n, const char* what) {
    if (n == 0) return std::string("no ") + what + " slot";
    return std::to_string(n) + " " + what + (n == 1 ? " slot" : " slots");
}

[[noreturn]] void no_slot_opened(const Header& header, const DecryptOptions& options,
                                 std::size_t attempts) {
    const std::size_t slots = header.slots.size();
    if (attempts > 0)
        throw Error(ErrorCause::wrong_key,
                    "wrong key or passphrase: none of the " + std::to_string(slots) +
                        (slots == 1 ? " key slot" : " key slots") + " opened");
    std::size_t passphrase_slots = 0;
    for (const SlotFields& slot : header.slots)
        passphrase_slots += slot.type == static_cast<std::uint8_t>(SlotType::passphrase);
    const bool have_passphrase = std::any_of(
        options.identities.begin(), options.identities.end(),
        [](const Secret& s) { return s.type == SlotType::passphrase; });
    throw Error(ErrorCause::wrong_key,
                "wrong key or passphrase: the file has " +
                    count_of(passphrase_slots, "passphrase") + " and " +
                    count_of(slots - passphrase_slots, "key-file") + ", and no " +
                    (have_passphrase ? "key file" : "passphrase") + " was given");
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

std::size_t unlock(const Header& header, const DecryptOptions& options, WipedKey& payload_key) {
    if (options.identities.empty())
        throw Error(ErrorCause::usage, "no key file or passphrase to open the file with");
    const AeadImpl& aead = resolve_aead(options.backend, header.suite, kFileKeySize);

    WipedKey file_key;
    std::optional<std::size_t> opened;
    std::optional<std::size_t> over_cap;  // the first passphrase slot refused for its cost
    std::size_t attempts = 0;
    for (std::size_t i = 0; i < header.slots.size() && !opened; ++i) {
        const SlotFields& slot = header.slots[i];
        for (const Secret& secret : options.identities) {
            if (static_cast<std::uint8_t>(secret.type) != slot.type) continue;
            if (secret.type == SlotType::passphrase &&
                slot.kdf.memory_kib > options.max_kdf_memory_kib) {
                if (!over_cap) over_cap = i;
                continue;
            }
            ++attempts;
            if (open_slot(slot, secret, aead, file_key.span())) {
                opened = i;
                break;
            }
        }
    }
    if (!opened) {
        if (over_cap)
            throw Error(ErrorCause::usage,
                        "key slot " + std::to_string(*over_cap + 1) + " needs " +
                            std::to_string(mib_rounded_up(header.slots[*over_cap].kdf.memory_kib)) +
                            " MiB for its passphrase KDF, over the --kdf-max-memory limit of " +
                            std::to_string(options.max_kdf_memory_kib / 1024) + " MiB");
        no_slot_opened(header, options, attempts);
    }

    WipedKey header_key;
    derive_header_key(file_key.span(), header_key);
    if (!header_mac_ok(header, header_key.span()))
        throw Error(ErrorCause::corrupted,
                    "header authentication failed (MAC mismatch): the header was altered");
    derive_payload_key(file_key.span(), header.suite, header.payload_nonce, payload_key);
    return *opened;
}

}  // namespace warp::format
