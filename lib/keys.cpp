// Recipients and identities of the C API (include/warpcrypt.h, "Keys"): the formats' key kinds
// (formats/keys/key_kind.hpp) behind handles, read and written as the command reads them.
#include <algorithm>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/secure_memory.hpp"
#include "formats/common/text_lines.hpp"
#include "formats/keys/key_file.hpp"
#include "formats/keys/key_kind.hpp"
#include "formats/keys/plugin_keys.hpp"
#include "formats/keys/pq/hybrid_keys.hpp"
#include "formats/keys/protected_identity.hpp"
#include "formats/keys/recipient_argument.hpp"
#include "formats/keys/ssh.hpp"
#include "formats/keys/x25519.hpp"
#include "lib/guard.hpp"
#include "lib/handles.hpp"
#include "lib/text_out.hpp"

namespace warp::capi {
namespace {

using formats::KeyType;
using formats::Secret;

// The most an identity file's text may be, as the command's -i (cli/keys.hpp).
constexpr std::size_t kMaxIdentityFileBytes = 64 * 1024;

std::string_view text_view(const char* text, std::size_t len) {
    if (text == nullptr && len != 0) throw Error(ErrorCause::usage, "text is NULL");
    return {text == nullptr ? "" : text, len};
}

// Without surrounding blanks and line ends: a key copied from a file often ends in "\n".
std::string_view trimmed(std::string_view text) {
    const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
    while (!text.empty() && blank(text.front())) text.remove_prefix(1);
    while (!text.empty() && blank(text.back())) text.remove_suffix(1);
    return text;
}

bool starts_with_key_file(std::string_view text) {
    return text.size() >= formats::kKeyFilePrefix.size() &&
           std::equal(formats::kKeyFilePrefix.begin(), formats::kKeyFilePrefix.end(), text.begin(),
                      [](char a, char b) {
                          return a == (b >= 'A' && b <= 'Z' ? static_cast<char>(b + 32) : b);
                      });
}

SecretBytes secret_of(const std::uint8_t* bytes, std::size_t len, const char* what) {
    if (bytes == nullptr && len != 0)
        throw Error(ErrorCause::usage, std::string(what) + " is NULL");
    if (len == 0)
        throw Error(ErrorCause::usage, std::string(what) + " is empty",
                    "an empty passphrase protects nothing: give one");
    return SecretBytes(std::span(bytes, len));
}

warpcrypt_recipient* new_recipient(Secret secret, std::string text) {
    auto* handle = new warpcrypt_recipient;
    handle->secret = std::move(secret);
    handle->text = std::move(text);
    return handle;
}

warpcrypt_identity* new_identity(Secret secret) {
    auto* handle = new warpcrypt_identity;
    handle->secret = std::move(secret);
    return handle;
}

// An array of handles the caller frees with one call; freed here on a failure half-way.
template <typename Handle, typename Make>
void hand_out_list(std::vector<Secret>& secrets, Handle*** out, std::size_t* count, Make make) {
    auto** list = new Handle*[std::max<std::size_t>(secrets.size(), 1)]();
    std::size_t made = 0;
    try {
        for (Secret& secret : secrets) list[made++] = make(std::move(secret));
    } catch (...) {
        for (std::size_t i = 0; i < made; ++i) delete list[i];
        delete[] list;
        throw;
    }
    *out = list;
    *count = made;
}

// One identity's text, of any kind that has one; never quoted in an error.
Secret decode_identity(std::string_view text) {
    if (starts_with_key_file(text))
        return Secret{KeyType::key_file, formats::decode_key_file(text), {}};
    const formats::KeyKind* kind = formats::identity_kind_of(text);
    if (kind == nullptr || kind->decode_identity == nullptr)
        throw Error(
            ErrorCause::usage,
            "not an identity (its " + std::to_string(text.size()) + " characters are not shown)",
            "an identity is AGE-SECRET-KEY-PQ-1..., AGE-SECRET-KEY-1..., "
            "AGE-PLUGIN-NAME-1... or a warpcrypt key file's text");
    return kind->decode_identity(text);
}

// The identities of an identity file's text, as the command's -i reads one.
std::vector<Secret> decode_identity_file(std::string_view text, const SecretBytes* passphrase,
                                         const formats::KdfLimits& limits) {
    if (text.size() > kMaxIdentityFileBytes)
        throw Error(ErrorCause::usage, "the identity file is larger than 64 KiB");
    std::vector<Secret> identities;
    if (starts_with_key_file(text)) {
        identities.push_back(Secret{KeyType::key_file, formats::decode_key_file(text), {}});
        return identities;
    }
    const bool ssh_key = formats::identity_needs_passphrase(text);
    if (ssh_key || formats::is_protected_identity(text)) {
        const char* what =
            ssh_key ? "an SSH key under a passphrase" : "a passphrase-protected identity file";
        if (passphrase == nullptr)
            throw Error(
                ErrorCause::usage,
                std::string("the identity file is ") + what + ", and no passphrase was given",
                "give its passphrase");
        if (ssh_key) {
            identities.push_back(
                formats::decode_identity_with_passphrase(text, *passphrase, limits));
            return identities;
        }
        const SecretBytes inside =
            formats::open_protected_identity(text, *passphrase, limits, kMaxIdentityFileBytes);
        return formats::decode_identity_file_text(
            std::string_view(reinterpret_cast<const char*>(inside.data()), inside.size()));
    }
    return formats::decode_identity_file_text(text);
}

}  // namespace
}  // namespace warp::capi

using namespace warp;
using namespace warp::capi;

extern "C" {

int warpcrypt_recipient_parse(const char* text, size_t len, warpcrypt_recipient** out,
                              warpcrypt_error** err) {
    return guarded(err, [&] {
        require(out, "out");
        *out = nullptr;
        const std::string_view given = trimmed(text_view(text, len));
        Secret secret = formats::parse_recipient_text(given, "recipient");
        *out = new_recipient(std::move(secret), std::string(given));
    });
}

int warpcrypt_recipient_passphrase(const uint8_t* passphrase, size_t len, warpcrypt_recipient** out,
                                   warpcrypt_error** err) {
    return guarded(err, [&] {
        require(out, "out");
        *out = nullptr;
        *out = new_recipient(
            Secret{KeyType::passphrase, secret_of(passphrase, len, "passphrase"), {}}, "");
    });
}

int warpcrypt_recipients_parse_file(const char* text, size_t len, warpcrypt_recipient*** out,
                                    size_t* count, size_t* skipped, warpcrypt_error** err) {
    return guarded(err, [&] {
        require(out, "out");
        require(count, "count");
        *out = nullptr;
        *count = 0;
        const std::string_view file = text_view(text, len);
        std::vector<formats::SkippedLine> left_out;
        std::vector<Secret> secrets = formats::decode_recipients_file_text(file, &left_out);
        if (skipped != nullptr) *skipped = left_out.size();
        hand_out_list<warpcrypt_recipient>(secrets, out, count, [](Secret secret) {
            return new_recipient(std::move(secret), "");
        });
        // Their text forms, as the file gives them: its entries (read as the decoder reads
        // them, formats/common/text_lines.hpp) less the skipped ones, in order.
        std::size_t index = 0;
        formats::for_each_entry(
            file, formats::Indent::trimmed, [&](std::string_view line, std::size_t) {
                if (index < *count && formats::ssh::unsupported_key_type(line).empty())
                    (*out)[index++]->text = std::string(line);
            });
    });
}

void warpcrypt_recipients_free(warpcrypt_recipient** recipients, size_t count) {
    if (recipients == nullptr) return;
    for (std::size_t i = 0; i < count; ++i) warpcrypt_recipient_free(recipients[i]);
    delete[] recipients;
}

int warpcrypt_recipient_kind(const warpcrypt_recipient* recipient) {
    if (recipient == nullptr || recipient->tag != HandleTag::recipient) return 0;
    return static_cast<int>(recipient->secret.type) + 1;
}

int warpcrypt_recipient_encode(const warpcrypt_recipient* recipient, char* buf, size_t cap,
                               size_t* need, warpcrypt_error** err) {
    return guarded(err, [&] {
        const warpcrypt_recipient& handle = recipient_of(recipient);
        if (handle.text.empty())
            throw Error(ErrorCause::usage,
                        "a " + std::string(formats::key_kind_of(handle.secret.type).name) +
                            " recipient has no text form");
        write_text(handle.text, buf, cap, need);
    });
}

void warpcrypt_recipient_free(warpcrypt_recipient* recipient) {
    if (recipient == nullptr || recipient->tag != HandleTag::recipient) return;
    recipient->tag = HandleTag::freed;
    delete recipient;  // the key's SecretBytes wipes itself
}

int warpcrypt_identity_generate(int kind, warpcrypt_identity** out, warpcrypt_error** err) {
    return guarded(err, [&] {
        require(out, "out");
        *out = nullptr;
        switch (kind) {
        case WARPCRYPT_KEY_X25519:
            *out = new_identity(
                Secret{KeyType::x25519, std::move(formats::generate_x25519_identity().secret), {}});
            return;
        case WARPCRYPT_KEY_MLKEM768X25519:
            *out = new_identity(Secret{KeyType::mlkem768x25519,
                                       std::move(formats::pq::generate_hybrid_identity().seed),
                                       {}});
            return;
        case WARPCRYPT_KEY_KEY_FILE:
            *out = new_identity(Secret{KeyType::key_file, formats::generate_key_secret(), {}});
            return;
        default:
            throw Error(ErrorCause::usage,
                        "identities of kind " + std::to_string(kind) + " cannot be generated",
                        "generate WARPCRYPT_KEY_MLKEM768X25519, _X25519 or _KEY_FILE");
        }
    });
}

int warpcrypt_identity_parse(const char* text, size_t len, warpcrypt_identity** out,
                             warpcrypt_error** err) {
    return guarded(err, [&] {
        require(out, "out");
        *out = nullptr;
        *out = new_identity(decode_identity(trimmed(text_view(text, len))));
    });
}

int warpcrypt_identity_passphrase(const uint8_t* passphrase, size_t len, warpcrypt_identity** out,
                                  warpcrypt_error** err) {
    return guarded(err, [&] {
        require(out, "out");
        *out = nullptr;
        *out =
            new_identity(Secret{KeyType::passphrase, secret_of(passphrase, len, "passphrase"), {}});
    });
}

int warpcrypt_identity_plugin(const char* name, warpcrypt_identity** out, warpcrypt_error** err) {
    return guarded(err, [&] {
        require(out, "out");
        require(name, "name");
        *out = nullptr;
        if (!formats::valid_plugin_name(name))
            throw Error(ErrorCause::usage, std::string("'") + name + "' is not a plugin name",
                        "a plugin's name is lower-case letters, digits, '-', '.', '_' and '+'");
        *out = new_identity(formats::plugin_identity_without_data(name));
    });
}

int warpcrypt_identities_parse_file(const char* text, size_t len, const uint8_t* passphrase,
                                    size_t passphrase_len, const warpcrypt_options* options,
                                    warpcrypt_identity*** out, size_t* count,
                                    warpcrypt_error** err) {
    return guarded(err, [&] {
        require(out, "out");
        require(count, "count");
        *out = nullptr;
        *count = 0;
        formats::KdfLimits limits;
        if (options != nullptr)
            limits.max_memory_kib = options_of(options).base.kdf_limits.max_memory_kib;
        if (options != nullptr)
            limits.max_work_kib = options_of(options).base.kdf_limits.max_work_kib;
        std::unique_ptr<SecretBytes> secret;
        if (passphrase != nullptr)
            secret =
                std::make_unique<SecretBytes>(secret_of(passphrase, passphrase_len, "passphrase"));
        std::vector<Secret> identities =
            decode_identity_file(text_view(text, len), secret.get(), limits);
        hand_out_list<warpcrypt_identity>(identities, out, count,
                                          [](Secret s) { return new_identity(std::move(s)); });
    });
}

void warpcrypt_identities_free(warpcrypt_identity** identities, size_t count) {
    if (identities == nullptr) return;
    for (std::size_t i = 0; i < count; ++i) warpcrypt_identity_free(identities[i]);
    delete[] identities;
}

int warpcrypt_identity_kind(const warpcrypt_identity* identity) {
    if (identity == nullptr || identity->tag != HandleTag::identity) return 0;
    return static_cast<int>(identity->secret.type) + 1;
}

int warpcrypt_identity_to_recipient(const warpcrypt_identity* identity, warpcrypt_recipient** out,
                                    warpcrypt_error** err) {
    return guarded(err, [&] {
        require(out, "out");
        *out = nullptr;
        const Secret& secret = identity_of(identity).secret;
        switch (secret.type) {
        case KeyType::key_file:  // symmetric: the same key seals and opens
            *out = new_recipient(copy_secret(secret), "");
            return;
        case KeyType::passphrase:
        case KeyType::plugin:
            throw Error(ErrorCause::usage,
                        std::string("a ") + std::string(formats::key_kind_of(secret.type).name) +
                            " identity has no recipient here",
                        secret.type == KeyType::plugin
                            ? "use the recipient the plugin printed when it made the identity"
                            : "encrypt with warpcrypt_recipient_passphrase");
        default: break;
        }
        const std::string text = formats::key_kind_of(secret.type).recipient_of(secret);
        *out = new_recipient(formats::decode_recipient_text(text), text);
    });
}

int warpcrypt_identity_encode(const warpcrypt_identity* identity, char* buf, size_t cap,
                              size_t* need, warpcrypt_error** err) {
    return guarded(err, [&] {
        const Secret& secret = identity_of(identity).secret;
        std::string text;
        struct Wipe {
            std::string& s;
            ~Wipe() { secure_wipe(s.data(), s.size()); }
        } wipe{text};
        switch (secret.type) {
        case KeyType::x25519: text = formats::encode_identity(secret.bytes); break;
        case KeyType::mlkem768x25519:
            text = formats::pq::encode_hybrid_identity(secret.bytes);
            break;
        case KeyType::key_file: text = formats::encode_key_file(secret.bytes); break;
        case KeyType::plugin: text = std::string(formats::plugin_key_text(secret)); break;
        default:
            throw Error(ErrorCause::usage,
                        "an " + std::string(formats::key_kind_of(secret.type).name) +
                            " identity has no text form here",
                        "keep the file it was read from");
        }
        write_text(trimmed(text), buf, cap, need);
    });
}

void warpcrypt_identity_free(warpcrypt_identity* identity) {
    if (identity == nullptr || identity->tag != HandleTag::identity) return;
    identity->tag = HandleTag::freed;
    delete identity;  // the key's SecretBytes wipes itself
}

}  // extern "C"
