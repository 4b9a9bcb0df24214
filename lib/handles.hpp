// What the C API's opaque handles are (include/warpcrypt.h): the formats' own types, each
// behind a tag that tells a handle of one kind from another's, so that a pointer of the wrong
// kind (a C caller's cast) is refused as a usage error rather than misread.
#pragma once

#include <cstdint>
#include <string>

#include "formats/keys/key.hpp"
#include "formats/options.hpp"
#include "warpcrypt.h"

namespace warp::capi {

enum class HandleTag : std::uint32_t {
    freed = 0,
    recipient = 0x57524331,  // "WRC1"
    identity = 0x57494431,   // "WID1"
    options = 0x574f5031,    // "WOP1"
};

}  // namespace warp::capi

struct warpcrypt_error {
    int status;
    std::string message;
    std::string hint;
};

struct warpcrypt_recipient {
    warp::capi::HandleTag tag = warp::capi::HandleTag::recipient;
    warp::formats::Secret secret;
    std::string text;  // its text form as given, or "" (a passphrase, a key file's)
};

struct warpcrypt_identity {
    warp::capi::HandleTag tag = warp::capi::HandleTag::identity;
    warp::formats::Secret secret;
};

struct warpcrypt_options {
    warp::capi::HandleTag tag = warp::capi::HandleTag::options;
    // What every call starts from: format, armor, cipher, chunk size, threads, backend, KDF
    // limits, the plugin timeout. Recipients, identities and the callbacks are the call's.
    warp::formats::Options base;
    warp::formats::KdfParams passphrase_kdf;  // for passphrase recipients
    bool has_plugin_ui = false;
    warpcrypt_plugin_ui plugin_ui{};
    warpcrypt_progress_fn progress = nullptr;
    void* progress_user = nullptr;
};

namespace warp::capi {

// The handle behind a pointer the caller gave, or Error(usage) naming `what` when it is null
// or of another kind.
const warpcrypt_recipient& recipient_of(const warpcrypt_recipient* handle);
const warpcrypt_identity& identity_of(const warpcrypt_identity* handle);
warpcrypt_options& options_of(warpcrypt_options* handle);
const warpcrypt_options& options_of(const warpcrypt_options* handle);

// A copy of a key, into locked memory of its own.
formats::Secret copy_secret(const formats::Secret& secret);

}  // namespace warp::capi
