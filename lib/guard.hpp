// The boundary of the C API: every entry point runs its body inside `guarded`, which turns
// whatever C++ throws into a status (the command's exit codes, engine/exit_codes.hpp) and an
// optional warpcrypt_error, so that no exception crosses into C.
#pragma once

#include <new>
#include <string>

#include "engine/error.hpp"
#include "engine/exit_codes.hpp"
#include "lib/handles.hpp"

namespace warp::capi {

// Stores an error for the caller, when it asked for one.
void set_error(warpcrypt_error** err, int status, std::string message, std::string hint = {});

// Error(usage) unless `pointer` is set: "NAME is NULL".
template <typename Pointer>  // data or a function
void require(const Pointer& pointer, const char* name) {
    if (pointer == nullptr) throw Error(ErrorCause::usage, std::string(name) + " is NULL");
}

template <typename Body>
int guarded(warpcrypt_error** err, Body&& body) noexcept {
    if (err != nullptr) *err = nullptr;
    try {
        body();
        return WARPCRYPT_OK;
    } catch (const Error& error) {
        const int status = exit_code(error.cause());
        set_error(err, status, error.what(), error.hint());
        return status;
    } catch (const std::bad_alloc&) {
        set_error(err, WARPCRYPT_E_INTERNAL, "out of memory");
        return WARPCRYPT_E_INTERNAL;
    } catch (const std::exception& error) {
        set_error(err, WARPCRYPT_E_INTERNAL, std::string("internal error: ") + error.what());
        return WARPCRYPT_E_INTERNAL;
    } catch (...) {
        set_error(err, WARPCRYPT_E_INTERNAL, "internal error");
        return WARPCRYPT_E_INTERNAL;
    }
}

}  // namespace warp::capi
