// `warpcrypt info`: what a container's header says, read without a key: a warp file's, or an
// age file's (its stanzas).
#include <cstdio>
#include <memory>

#include <nlohmann/json.hpp>

#include "cli/commands/common.hpp"
#include "cli/commands/opening.hpp"
#include "formats/file.hpp"
#include "cli/fd_io.hpp"
#include "cli/report.hpp"

namespace warp::cli {
namespace {

struct InfoArgs {
    std::string input;
    bool json = false;
};

// What a public-key entry's kind means later, when quantum computers may break X25519:
// ", post-quantum" (ML-KEM-768 + X25519) or ", classic: not post-quantum" (X25519). Nothing
// for a passphrase or key file: symmetric, as strong as the secret (JSON says true).
std::string quantum_text(const formats::EntryInfo& entry) {
    if (!entry.post_quantum || !entry.public_key) return "";
    return *entry.post_quantum ? ", post-quantum" : ", classic: not post-quantum";
}

void add_quantum_json(nlohmann::ordered_json& entry, const formats::EntryInfo& info) {
    if (info.post_quantum) entry["post_quantum"] = *info.post_quantum;
}

nlohmann::ordered_json warp_json(const std::string& name, const formats::FileInfo& info) {
    nlohmann::ordered_json slots = nlohmann::ordered_json::array();
    for (const formats::EntryInfo& slot : info.entries) {
        nlohmann::ordered_json entry = {{"type", slot.type}};
        if (slot.type_code) entry["type_code"] = *slot.type_code;
        if (slot.argon2id)
            entry["kdf"] = {{"algorithm", "argon2id"},
                            {"memory_kib", slot.argon2id->memory_kib},
                            {"passes", slot.argon2id->passes}};
        add_quantum_json(entry, slot);
        if (!slot.note.empty()) entry["note"] = slot.note;
        slots.push_back(entry);
    }
    nlohmann::ordered_json out = {
        {"file", name},
        {"format", "warp"},
        {"version", info.version},
        {"suite", formats::cipher_name(info.aead)},
        {"chunk_log2", info.chunk_log2},
        {"chunk_size", std::uint64_t{1} << info.chunk_log2},
        {"header_size", info.header_bytes.value_or(0)},
        {"plaintext_size", nullptr},
        {"slots", slots},
    };
    if (info.plaintext_bytes) out["plaintext_size"] = *info.plaintext_bytes;
    return out;
}

std::string chunk_text(const formats::FileInfo& info) {
    return "chunk size:     " + std::to_string(std::uint64_t{1} << info.chunk_log2) + " bytes (2^" +
           std::to_string(info.chunk_log2) + ")\n";
}

std::string warp_text(const std::string& name, const formats::FileInfo& info) {
    std::string text = "file:           " + name + "\n";
    text += "format version: " + std::to_string(info.version) + "\n";
    text += "suite:          " + std::string(formats::cipher_name(info.aead)) + "\n";
    text += chunk_text(info);
    text += "header size:    " + std::to_string(info.header_bytes.value_or(0)) + " bytes\n";
    text += "plaintext size: " +
            (info.plaintext_bytes ? std::to_string(*info.plaintext_bytes) + " bytes"
                                  : std::string("unknown (not a regular file)")) +
            "\n";
    text += "key slots:      " + std::to_string(info.entries.size()) + "\n";
    for (std::size_t i = 0; i < info.entries.size(); ++i) {
        const formats::EntryInfo& slot = info.entries[i];
        text += "  slot " + std::to_string(i + 1) + ": " +
                (slot.known ? slot.type + quantum_text(slot)
                            : "type " + std::to_string(slot.type_code.value_or(0)) +
                                  ", unknown to this warpcrypt (skipped)");
        if (slot.argon2id)
            text += " (argon2id, " +
                    human_bytes(static_cast<double>(slot.argon2id->memory_kib) * 1024.0) + ", " +
                    std::to_string(slot.argon2id->passes) + " passes)";
        if (!slot.note.empty()) text += " (" + slot.note + ")";
        text += "\n";
    }
    return text;
}

nlohmann::ordered_json age_json(const std::string& name, const formats::FileInfo& info) {
    nlohmann::ordered_json stanzas = nlohmann::ordered_json::array();
    for (const formats::EntryInfo& stanza : info.entries) {
        nlohmann::ordered_json entry = {{"type", stanza.type}, {"known", stanza.known}};
        add_quantum_json(entry, stanza);
        if (stanza.scrypt_log2_n) entry["scrypt_work_factor"] = *stanza.scrypt_log2_n;
        stanzas.push_back(entry);
    }
    const bool armored = info.format == formats::Format::age_armored;
    nlohmann::ordered_json out = {{"file", name},
                                  {"format", "age"},
                                  {"version", "age-encryption.org/v1"},
                                  {"armored", armored},
                                  {"header_size", nullptr},
                                  {"plaintext_size", nullptr},
                                  {"stanzas", stanzas}};
    if (info.header_bytes) out["header_size"] = *info.header_bytes;
    if (info.plaintext_bytes) out["plaintext_size"] = *info.plaintext_bytes;
    return out;
}

std::string age_text(const std::string& name, const formats::FileInfo& info) {
    const bool armored = info.format == formats::Format::age_armored;
    std::string text = "file:           " + name + "\n";
    text += std::string("format:         age v1 (age-encryption.org/v1") +
            (armored ? ", ASCII-armored)" : ", binary)") + "\n";
    text += "suite:          " + std::string(formats::cipher_name(info.aead)) + "\n";
    text += chunk_text(info);
    if (info.header_bytes) text += "header size:    " + std::to_string(*info.header_bytes) + " bytes\n";
    text += "plaintext size: " +
            (info.plaintext_bytes ? std::to_string(*info.plaintext_bytes) + " bytes"
                                  : std::string("unknown (not a regular binary file)")) +
            "\n";
    text += "stanzas:        " + std::to_string(info.entries.size()) + "\n";
    for (std::size_t i = 0; i < info.entries.size(); ++i) {
        const formats::EntryInfo& stanza = info.entries[i];
        text += "  stanza " + std::to_string(i + 1) + ": " + stanza.type + quantum_text(stanza);
        if (stanza.scrypt_log2_n)
            text += " (work factor " + std::to_string(*stanza.scrypt_log2_n) + ": " +
                    human_bytes(static_cast<double>(std::uint64_t{1} << *stanza.scrypt_log2_n) *
                                1024.0) +
                    ")";
        // An age plugin's type, most likely: given to the plugin of a plugin identity.
        if (!stanza.known)
            text += ", not a native type (an age plugin's opens it: -i AGE-PLUGIN-..., -j NAME)";
        text += "\n";
    }
    return text;
}

void run(const InfoArgs& args) {
    InputFile input(args.input);
    FdSource source(input.fd(), input.name());
    formats::FileInfo info;
    try {
        info = formats::read_info(source, input.size());
    } catch (const Error& error) {
        rethrow_naming(error, input.name());
    }
    const bool age = info.format != formats::Format::warp;
    // A name from outside, printed as JSON (json_text: ASCII, U+FFFD for a byte that is not
    // UTF-8, file names being bytes) or as text for a terminal, through the one escaping
    // every message goes through (escape_lines).
    const nlohmann::ordered_json json =
        !args.json ? nlohmann::ordered_json()
        : age      ? age_json(input.name(), info)
                   : warp_json(input.name(), info);
    std::string text =
        args.json ? json_text(json)
        : age     ? escape_lines(age_text(input.name(), info))
                  : escape_lines(warp_text(input.name(), info));
    if (std::fputs(text.c_str(), stdout) < 0 || std::fflush(stdout) != 0)
        throw Error(ErrorCause::io, "stdout: write error");
}

}  // namespace

Command add_info_command(CLI::App& parent) {
    auto args = std::make_shared<InfoArgs>();
    CLI::App* cmd = parent.add_subcommand("info", "Show a warp or age file's header (no key needed)");
    add_input(*cmd, args->input);
    cmd->add_flag("--json", args->json, "Print JSON");
    return {cmd, [args] { run(*args); }};
}

}  // namespace warp::cli
