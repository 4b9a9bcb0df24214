// What a file's header says, through the C API (include/warpcrypt.h, warpcrypt_info_*): the
// formats' FileInfo (formats/info.hpp) as a C struct whose texts the library owns.
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "engine/stream/memory_io.hpp"
#include "formats/file.hpp"
#include "lib/callback_io.hpp"
#include "lib/guard.hpp"

namespace warp::capi {
namespace {

// The C struct first, so that a pointer to it is a pointer to the whole; the texts and the
// entries it points into live beside it.
struct InfoHolder {
    warpcrypt_info info{};
    std::vector<std::string> texts;
    std::vector<warpcrypt_entry_info> entries;
};

warpcrypt_info* hand_out(const formats::FileInfo& file) {
    auto holder = std::make_unique<InfoHolder>();
    warpcrypt_info& info = holder->info;
    info.format =
        file.format == formats::Format::warp ? WARPCRYPT_FORMAT_WARP : WARPCRYPT_FORMAT_AGE;
    info.armored = file.format == formats::Format::age_armored ? 1 : 0;
    info.version = file.format == formats::Format::warp ? file.version : 1;
    info.cipher = file.aead == Aead::aes_gcm ? WARPCRYPT_CIPHER_AES_256_GCM
                                             : WARPCRYPT_CIPHER_CHACHA20_POLY1305;
    info.chunk_size = static_cast<std::uint32_t>(formats::chunk_size_of(file.chunk_log2));
    info.header_bytes_known = file.header_bytes ? 1 : 0;
    info.header_bytes = file.header_bytes.value_or(0);
    info.plaintext_bytes_known = file.plaintext_bytes ? 1 : 0;
    info.plaintext_bytes = file.plaintext_bytes.value_or(0);
    // Every text first: the vector stops moving before pointers into it are taken.
    holder->texts.reserve(file.entries.size() * 2);
    for (const formats::EntryInfo& entry : file.entries) {
        holder->texts.push_back(entry.type);
        holder->texts.push_back(entry.note);
    }
    for (std::size_t i = 0; i < file.entries.size(); ++i) {
        const formats::EntryInfo& entry = file.entries[i];
        warpcrypt_entry_info out{};
        out.type = holder->texts[2 * i].c_str();
        out.note = holder->texts[2 * i + 1].c_str();
        out.known = entry.known ? 1 : 0;
        out.post_quantum = entry.post_quantum ? (*entry.post_quantum ? 1 : 0) : -1;
        out.public_key = entry.public_key ? 1 : 0;
        if (entry.argon2id) {
            out.argon2id_passes = entry.argon2id->passes;
            out.argon2id_memory_kib = entry.argon2id->memory_kib;
        }
        out.scrypt_log2_n = entry.scrypt_log2_n.value_or(0);
        holder->entries.push_back(out);
    }
    info.entry_count = holder->entries.size();
    info.entries = holder->entries.empty() ? nullptr : holder->entries.data();
    return &holder.release()->info;
}

}  // namespace
}  // namespace warp::capi

using namespace warp;
using namespace warp::capi;

extern "C" {

int warpcrypt_info_read(warpcrypt_read_fn read, void* read_user, int64_t file_size,
                        warpcrypt_info** out, warpcrypt_error** err) {
    return guarded(err, [&] {
        require(read, "read");
        require(out, "out");
        *out = nullptr;
        CallbackSource in(read, read_user);
        const std::optional<std::uint64_t> size =
            file_size < 0 ? std::nullopt : std::optional<std::uint64_t>(file_size);
        *out = hand_out(formats::read_info(in, size));
    });
}

int warpcrypt_info_buffer(const uint8_t* in, size_t len, warpcrypt_info** out,
                          warpcrypt_error** err) {
    return guarded(err, [&] {
        require(out, "out");
        *out = nullptr;
        if (in == nullptr && len != 0) throw Error(ErrorCause::usage, "in is NULL");
        stream::SpanSource source(
            std::span(in == nullptr ? reinterpret_cast<const std::uint8_t*>("") : in, len));
        *out = hand_out(formats::read_info(source, len));
    });
}

void warpcrypt_info_free(warpcrypt_info* info) {
    delete reinterpret_cast<InfoHolder*>(info);  // the struct is the holder's first member
}

}  // extern "C"
