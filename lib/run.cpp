// Encrypting, decrypting, verifying and range decryption through the C API
// (include/warpcrypt.h): one call of the formats' front (formats/file.hpp) each, whatever the
// data comes from: callbacks, memory, or descriptors.
#include <algorithm>
#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "engine/registry.hpp"
#include "engine/stream/fd_stream.hpp"
#include "engine/stream/memory_io.hpp"
#include "formats/file.hpp"
#include "lib/callback_io.hpp"
#include "lib/guard.hpp"
#include "lib/handles.hpp"

namespace warp::capi {
namespace {

// An age plugin's questions through the caller's callbacks (formats/plugin_ui.hpp). Texts go
// out NUL-terminated; an answer comes back into locked memory, the buffer wiped after.
formats::PluginUi plugin_ui_of(const warpcrypt_plugin_ui& c, std::chrono::milliseconds limit) {
    formats::PluginUi ui;
    ui.silence_limit = limit;
    if (c.message != nullptr)
        ui.message = [c](std::string_view plugin, std::string_view message) {
            return c.message(c.user, std::string(plugin).c_str(), std::string(message).c_str()) ==
                   0;
        };
    if (c.request != nullptr)
        ui.request = [c](std::string_view plugin, std::string_view prompt,
                         bool secret) -> std::optional<SecretBytes> {
            SecretBytes answer(4096);  // wiped when it goes, whatever the callback wrote
            std::size_t len = 0;
            if (c.request(c.user, std::string(plugin).c_str(), std::string(prompt).c_str(),
                          secret ? 1 : 0, reinterpret_cast<char*>(answer.data()), answer.size(),
                          &len) != 0 ||
                len > answer.size())
                return std::nullopt;
            return SecretBytes(answer.span().first(len));
        };
    if (c.confirm != nullptr)
        ui.confirm = [c](std::string_view plugin, std::string_view prompt, std::string_view yes,
                         std::string_view no) -> std::optional<bool> {
            int chose_yes = 0;
            const std::string no_text(no);
            if (c.confirm(c.user, std::string(plugin).c_str(), std::string(prompt).c_str(),
                          std::string(yes).c_str(), no.empty() ? nullptr : no_text.c_str(),
                          &chose_yes) != 0)
                return std::nullopt;
            return chose_yes != 0;
        };
    if (c.waiting != nullptr)
        ui.waiting = [c](std::string_view plugin) {
            c.waiting(c.user, std::string(plugin).c_str());
        };
    return ui;
}

// The formats' options for one call: the caller's settings, a tally of KDF work of its own,
// and its callbacks.
formats::Options call_options(const warpcrypt_options* handle) {
    static const warpcrypt_options defaults;
    const warpcrypt_options& o = handle == nullptr ? defaults : options_of(handle);
    formats::Options options = o.base;
    options.kdf_limits.tally = std::make_shared<formats::KdfTally>();
    if (o.progress != nullptr)
        options.progress = [fn = o.progress, user = o.progress_user](std::uint64_t done) {
            if (const int status = fn(user, done); status != 0) throw_aborted("progress", status);
        };
    if (o.has_plugin_ui)
        options.plugin_ui = plugin_ui_of(o.plugin_ui, o.base.plugin_ui.silence_limit);
    return options;
}

template <typename Handle>
void check_list(const Handle* const* list, std::size_t count, const char* what) {
    if (count == 0)
        throw Error(ErrorCause::usage, std::string("no ") + what + " given",
                    std::string("give at least one ") + what);
    if (list == nullptr) throw Error(ErrorCause::usage, std::string(what) + "s is NULL");
}

formats::Options encrypt_options(const warpcrypt_options* handle,
                                 const warpcrypt_recipient* const* recipients, std::size_t count) {
    check_list(recipients, count, "recipient");
    formats::Options options = call_options(handle);
    const formats::KdfParams kdf =
        handle == nullptr ? formats::KdfParams{} : options_of(handle).passphrase_kdf;
    for (std::size_t i = 0; i < count; ++i) {
        formats::Secret secret = copy_secret(recipient_of(recipients[i]).secret);
        if (secret.type == formats::KeyType::passphrase) secret.kdf = kdf;
        options.recipients.push_back(std::move(secret));
    }
    return options;
}

formats::Options decrypt_options(const warpcrypt_options* handle,
                                 const warpcrypt_identity* const* identities, std::size_t count) {
    check_list(identities, count, "identity");
    formats::Options options = call_options(handle);
    for (std::size_t i = 0; i < count; ++i)
        options.identities.push_back(copy_secret(identity_of(identities[i]).secret));
    return options;
}

void copy_text(char* to, std::size_t cap, std::string_view text) {
    const std::size_t n = std::min(text.size(), cap - 1);
    std::memcpy(to, text.data(), n);
    to[n] = '\0';
}

int cipher_of(Aead aead) {
    return aead == Aead::aes_gcm ? WARPCRYPT_CIPHER_AES_256_GCM
                                 : WARPCRYPT_CIPHER_CHACHA20_POLY1305;
}

void report(const formats::Result& done, warpcrypt_result* result) {
    if (result == nullptr) return;
    *result = warpcrypt_result{};
    result->format =
        done.format == formats::Format::warp ? WARPCRYPT_FORMAT_WARP : WARPCRYPT_FORMAT_AGE;
    result->armored = done.format == formats::Format::age_armored ? 1 : 0;
    result->cipher = cipher_of(done.selection.aead);
    if (done.selection.backend != nullptr)
        copy_text(result->backend, sizeof result->backend, done.selection.backend->name);
    result->plaintext_bytes = done.plaintext_bytes;
    result->opened_with = static_cast<std::uint32_t>(done.opened_with);
    copy_text(result->plugin, sizeof result->plugin, done.opened_by_plugin);
}

std::span<const std::uint8_t> bytes_of(const std::uint8_t* in, std::size_t len) {
    if (in == nullptr && len != 0) throw Error(ErrorCause::usage, "in is NULL");
    return {in == nullptr ? reinterpret_cast<const std::uint8_t*>("") : in, len};
}

// The output's likely size, so that the buffer is allocated once: the input and its chunks'
// tags, headers, and armor's base64 and line ends.
std::size_t expected_ciphertext(std::size_t in, const formats::Options& options) {
    const std::size_t sealed = in + in / 1024 + 4096;  // a longer header grows the buffer
    return options.armor ? sealed / 3 * 4 + sealed / 32 + 1024 : sealed;
}

void hand_out(BufferSink& sink, std::uint8_t** out, std::size_t* out_len) {
    *out = sink.take(out_len);
}

}  // namespace
}  // namespace warp::capi

using namespace warp;
using namespace warp::capi;

extern "C" {

int warpcrypt_encrypt(const warpcrypt_options* options,
                      const warpcrypt_recipient* const* recipients, size_t count,
                      warpcrypt_read_fn read, void* read_user, warpcrypt_write_fn write,
                      void* write_user, warpcrypt_result* result, warpcrypt_error** err) {
    return guarded(err, [&] {
        require(read, "read");
        require(write, "write");
        const formats::Options run = encrypt_options(options, recipients, count);
        CallbackSource in(read, read_user);
        CallbackSink out(write, write_user);
        report(formats::encrypt(in, out, run), result);
    });
}

int warpcrypt_decrypt(const warpcrypt_options* options, const warpcrypt_identity* const* identities,
                      size_t count, warpcrypt_read_fn read, void* read_user,
                      warpcrypt_write_fn write, void* write_user, warpcrypt_result* result,
                      warpcrypt_error** err) {
    return guarded(err, [&] {
        require(read, "read");
        require(write, "write");
        const formats::Options run = decrypt_options(options, identities, count);
        CallbackSource in(read, read_user);
        CallbackSink out(write, write_user);
        report(formats::decrypt(in, out, run), result);
    });
}

int warpcrypt_verify(const warpcrypt_options* options, const warpcrypt_identity* const* identities,
                     size_t count, warpcrypt_read_fn read, void* read_user,
                     warpcrypt_result* result, warpcrypt_error** err) {
    return guarded(err, [&] {
        require(read, "read");
        const formats::Options run = decrypt_options(options, identities, count);
        CallbackSource in(read, read_user);
        report(formats::verify(in, run), result);
    });
}

int warpcrypt_decrypt_range(const warpcrypt_options* options,
                            const warpcrypt_identity* const* identities, size_t count,
                            warpcrypt_read_at_fn read_at, void* read_user, uint64_t size,
                            uint64_t offset, uint64_t length, warpcrypt_write_fn write,
                            void* write_user, warpcrypt_result* result, warpcrypt_error** err) {
    return guarded(err, [&] {
        require(read_at, "read_at");
        require(write, "write");
        const formats::Options run = decrypt_options(options, identities, count);
        CallbackRandomAccess in(read_at, read_user, size);
        CallbackSink out(write, write_user);
        report(formats::decrypt_range(in, out, run, offset, length), result);
    });
}

int warpcrypt_encrypt_buffer(const warpcrypt_options* options,
                             const warpcrypt_recipient* const* recipients, size_t count,
                             const uint8_t* in, size_t in_len, uint8_t** out, size_t* out_len,
                             warpcrypt_result* result, warpcrypt_error** err) {
    return guarded(err, [&] {
        require(out, "out");
        require(out_len, "out_len");
        *out = nullptr;
        *out_len = 0;
        formats::Options run = encrypt_options(options, recipients, count);
        run.size_hint = in_len;
        stream::SpanSource source(bytes_of(in, in_len));
        BufferSink sink(expected_ciphertext(in_len, run));
        report(formats::encrypt(source, sink, run), result);
        hand_out(sink, out, out_len);
    });
}

int warpcrypt_decrypt_buffer(const warpcrypt_options* options,
                             const warpcrypt_identity* const* identities, size_t count,
                             const uint8_t* in, size_t in_len, uint8_t** out, size_t* out_len,
                             warpcrypt_result* result, warpcrypt_error** err) {
    return guarded(err, [&] {
        require(out, "out");
        require(out_len, "out_len");
        *out = nullptr;
        *out_len = 0;
        formats::Options run = decrypt_options(options, identities, count);
        run.size_hint = in_len;
        stream::SpanSource source(bytes_of(in, in_len));
        BufferSink sink(in_len);  // the plaintext is shorter than the file
        report(formats::decrypt(source, sink, run), result);
        hand_out(sink, out, out_len);  // only now: a failure returns nothing partial
    });
}

int warpcrypt_decrypt_range_buffer(const warpcrypt_options* options,
                                   const warpcrypt_identity* const* identities, size_t count,
                                   const uint8_t* in, size_t in_len, uint64_t offset,
                                   uint64_t length, uint8_t** out, size_t* out_len,
                                   warpcrypt_result* result, warpcrypt_error** err) {
    return guarded(err, [&] {
        require(out, "out");
        require(out_len, "out_len");
        *out = nullptr;
        *out_len = 0;
        const formats::Options run = decrypt_options(options, identities, count);
        stream::SpanRandomAccess source(bytes_of(in, in_len));
        BufferSink sink(static_cast<std::size_t>(std::min<std::uint64_t>(length, in_len)));
        report(formats::decrypt_range(source, sink, run, offset, length), result);
        hand_out(sink, out, out_len);
    });
}

void warpcrypt_buffer_free(uint8_t* buffer, size_t len) {
    free_buffer(buffer, len);
}

int warpcrypt_encrypt_to(const warpcrypt_options* options,
                         const warpcrypt_recipient* const* recipients, size_t count,
                         const uint8_t* in, size_t in_len, warpcrypt_alloc_fn alloc,
                         void* alloc_user, size_t* out_len, warpcrypt_result* result,
                         warpcrypt_error** err) {
    return guarded(err, [&] {
        require(alloc, "alloc");
        require(out_len, "out_len");
        *out_len = 0;
        formats::Options run = encrypt_options(options, recipients, count);
        run.size_hint = in_len;  // exact: the format announces the output's size from it
        stream::SpanSource source(bytes_of(in, in_len));
        // Only the header comes before the size is known, unless the file is armored.
        AllocatingSink sink(alloc, alloc_user,
                            run.armor ? expected_ciphertext(in_len, run) : 16 * 1024);
        const formats::Result done = formats::encrypt(source, sink, run);
        *out_len = sink.finish();
        report(done, result);
    });
}

int warpcrypt_decrypt_to(const warpcrypt_options* options,
                         const warpcrypt_identity* const* identities, size_t count,
                         const uint8_t* in, size_t in_len, warpcrypt_alloc_fn alloc,
                         void* alloc_user, size_t* out_len, warpcrypt_result* result,
                         warpcrypt_error** err) {
    return guarded(err, [&] {
        require(alloc, "alloc");
        require(out_len, "out_len");
        *out_len = 0;
        formats::Options run = decrypt_options(options, identities, count);
        run.size_hint = in_len;
        stream::SpanSource source(bytes_of(in, in_len));
        // Nothing comes before the size for a binary file; an armored one grows from here.
        AllocatingSink sink(alloc, alloc_user, 64 * 1024);
        const formats::Result done = formats::decrypt(source, sink, run);
        *out_len = sink.finish();
        report(done, result);
    });
}

int warpcrypt_encrypt_fd(const warpcrypt_options* options,
                         const warpcrypt_recipient* const* recipients, size_t count, int in_fd,
                         int out_fd, warpcrypt_result* result, warpcrypt_error** err) {
    return guarded(err, [&] {
        const formats::Options run = encrypt_options(options, recipients, count);
        stream::FdSource in(in_fd, "descriptor " + std::to_string(in_fd));
        stream::FdSink out(out_fd, "descriptor " + std::to_string(out_fd));
        const formats::Result done = formats::encrypt(in, out, run);
        out.flush();
        report(done, result);
    });
}

int warpcrypt_decrypt_fd(const warpcrypt_options* options,
                         const warpcrypt_identity* const* identities, size_t count, int in_fd,
                         int out_fd, warpcrypt_result* result, warpcrypt_error** err) {
    return guarded(err, [&] {
        const formats::Options run = decrypt_options(options, identities, count);
        stream::FdSource in(in_fd, "descriptor " + std::to_string(in_fd));
        stream::FdSink out(out_fd, "descriptor " + std::to_string(out_fd));
        const formats::Result done = formats::decrypt(in, out, run);
        out.flush();
        report(done, result);
    });
}

int warpcrypt_decrypt_range_fd(const warpcrypt_options* options,
                               const warpcrypt_identity* const* identities, size_t count, int in_fd,
                               uint64_t offset, uint64_t length, int out_fd,
                               warpcrypt_result* result, warpcrypt_error** err) {
    return guarded(err, [&] {
        const formats::Options run = decrypt_options(options, identities, count);
        const std::string name = "descriptor " + std::to_string(in_fd);
        const std::uint64_t size = stream::regular_file_size(in_fd, name);
        stream::FdRandomAccess in(in_fd, size, name);
        stream::FdSink out(out_fd, "descriptor " + std::to_string(out_fd));
        const formats::Result done = formats::decrypt_range(in, out, run, offset, length);
        out.flush();
        report(done, result);
    });
}

}  // extern "C"
