// Errors, versions and handle checks of the C API (include/warpcrypt.h).
#include <sodium.h>

#include <string>

#include "engine/cpu_features.hpp"
#include "engine/exit_codes.hpp"
#include "lib/guard.hpp"
#include "lib/handles.hpp"
#include "warpcrypt.h"

// The API's statuses are the command's exit codes, one number for one meaning.
static_assert(WARPCRYPT_E_INTERNAL == warp::kExitInternal);
static_assert(WARPCRYPT_E_USAGE == warp::kExitUsage);
static_assert(WARPCRYPT_E_WRONG_KEY == warp::kExitWrongKey);
static_assert(WARPCRYPT_E_CORRUPTED == warp::kExitCorrupted);
static_assert(WARPCRYPT_E_TRUNCATED == warp::kExitTruncated);
static_assert(WARPCRYPT_E_UNSUPPORTED == warp::kExitUnsupported);
static_assert(WARPCRYPT_E_IO == warp::kExitIo);
static_assert(WARPCRYPT_E_ABORTED == warp::kExitInterrupted);

namespace warp::capi {

void set_error(warpcrypt_error** err, int status, std::string message, std::string hint) {
    if (err == nullptr) return;
    try {
        *err = new warpcrypt_error{status, std::move(message), std::move(hint)};
    } catch (...) {
        *err = nullptr;  // out of memory: the status alone says it
    }
}

namespace {

template <typename Handle>
const Handle& checked(const Handle* handle, HandleTag tag, const char* what) {
    if (handle == nullptr) throw Error(ErrorCause::usage, std::string(what) + " is NULL");
    if (handle->tag != tag)
        throw Error(ErrorCause::usage, std::string("not a ") + what +
                                           " handle (a handle of "
                                           "another kind, or one already freed)");
    return *handle;
}

}  // namespace

const warpcrypt_recipient& recipient_of(const warpcrypt_recipient* handle) {
    return checked(handle, HandleTag::recipient, "recipient");
}
const warpcrypt_identity& identity_of(const warpcrypt_identity* handle) {
    return checked(handle, HandleTag::identity, "identity");
}
const warpcrypt_options& options_of(const warpcrypt_options* handle) {
    return checked(handle, HandleTag::options, "options");
}
warpcrypt_options& options_of(warpcrypt_options* handle) {
    return const_cast<warpcrypt_options&>(checked(handle, HandleTag::options, "options"));
}

formats::Secret copy_secret(const formats::Secret& secret) {
    return formats::Secret{secret.type, SecretBytes(secret.bytes.span()), secret.kdf};
}

}  // namespace warp::capi

extern "C" {

const char* warpcrypt_version(void) {
    return WARPCRYPT_LIBRARY_VERSION;
}

uint32_t warpcrypt_version_number(void) {
    return WARPCRYPT_VERSION_MAJOR * 10000 + WARPCRYPT_VERSION_MINOR * 100 +
           WARPCRYPT_VERSION_PATCH;
}

int warpcrypt_init(void) {
    return warp::capi::guarded(nullptr, [] {
        if (sodium_init() < 0)
            throw warp::Error(warp::ErrorCause::invalid_argument, "libsodium cannot start");
        (void)warp::cpu_features();
    });
}

int warpcrypt_error_status(const warpcrypt_error* err) {
    return err == nullptr ? WARPCRYPT_OK : err->status;
}
const char* warpcrypt_error_message(const warpcrypt_error* err) {
    return err == nullptr ? "" : err->message.c_str();
}
const char* warpcrypt_error_hint(const warpcrypt_error* err) {
    return err == nullptr ? "" : err->hint.c_str();
}
void warpcrypt_error_free(warpcrypt_error* err) {
    delete err;
}

const char* warpcrypt_status_meaning(int status) {
    for (const warp::ExitCodeMeaning& meaning : warp::kExitCodeMeanings)
        if (meaning.code == status) return meaning.meaning;
    return "unknown status";
}

}  // extern "C"
