"""libwarpcrypt through cffi in ABI mode: the header is read at import, nothing is compiled.

WARPCRYPT_LIBRARY (a path) and WARPCRYPT_HEADER override the copies installed beside this
file, so that the tests can run against a build tree without installing anything.
"""

from __future__ import annotations

import os
import re
import sys
from typing import Any, NoReturn

from cffi import FFI

from ._errors import make_error

_HERE = os.path.dirname(os.path.abspath(__file__))
_LIBRARY_FILE = "libwarpcrypt.0.dylib" if sys.platform == "darwin" else "libwarpcrypt.so.0"


def _header_path() -> str:
    return os.environ.get("WARPCRYPT_HEADER") or os.path.join(_HERE, "warpcrypt.h")


def _library_path() -> str:
    return os.environ.get("WARPCRYPT_LIBRARY") or os.path.join(_HERE, _LIBRARY_FILE)


def cdef_source(header: str) -> str:
    """The declarations of `header` as cffi's parser takes them: without the preprocessor.

    cffi parses C declarations but runs no preprocessor, so the directives go, and with them
    whatever only a C++ compiler sees (the `extern "C"` wrapper), and the export macro.
    """
    kept = []
    cplusplus_depth = 0  # > 0 inside `#ifdef __cplusplus`
    continued = False  # the previous directive line ended in a backslash
    for line in header.splitlines():
        stripped = line.strip()
        if continued:
            continued = stripped.endswith("\\")
            continue
        if stripped.startswith("#"):
            continued = stripped.endswith("\\")
            directive = " ".join(stripped.lstrip("#").split())
            if cplusplus_depth:
                if directive.startswith("if"):
                    cplusplus_depth += 1
                elif directive.startswith("endif"):
                    cplusplus_depth -= 1
            elif directive in ("ifdef __cplusplus", "if defined(__cplusplus)"):
                cplusplus_depth = 1
            continue
        if not cplusplus_depth:
            kept.append(line)
    return re.sub(r"\bWARPCRYPT_API\b", "", "\n".join(kept))


def _load() -> tuple[FFI, Any]:
    ffi = FFI()
    header = _header_path()
    try:
        with open(header, encoding="utf-8") as file:
            ffi.cdef(cdef_source(file.read()))
    except OSError as error:
        raise ImportError(f"warpcrypt: cannot read the C header {header}: {error}") from error
    path = _library_path()
    try:
        library = ffi.dlopen(path)
    except OSError as error:
        raise ImportError(
            f"warpcrypt: cannot load {path}: {error} (WARPCRYPT_LIBRARY names another copy)"
        ) from error
    return ffi, library


ffi, lib = _load()
NULL = ffi.NULL


def text(pointer: Any) -> str:
    """A NUL-terminated text of the library's, or "" for NULL. Not strict UTF-8: texts may
    quote what a plugin sent."""
    if pointer == NULL:
        return ""
    return ffi.string(pointer).decode("utf-8", "replace")


def take_error(status: int, err_box: Any, cls: type[Exception]) -> Exception:
    """The exception of class `cls` for a failed call: the library's message and hint (the
    meaning of `status` when the call left no error). The error is freed in any case."""
    err = err_box[0] if err_box is not None else NULL
    try:
        message = text(lib.warpcrypt_error_message(err)) if err != NULL else ""
        hint = text(lib.warpcrypt_error_hint(err)) if err != NULL else ""
    finally:
        if err != NULL:
            err_box[0] = NULL
            lib.warpcrypt_error_free(err)
    if not message:
        message = text(lib.warpcrypt_status_meaning(status))
    return make_error(cls, message, status, hint)


def raise_error(status: int, err_box: Any, cls: type[Exception]) -> NoReturn:
    raise take_error(status, err_box, cls)


def discard_error(err_box: Any) -> None:
    """Frees the error a call left, when a Python exception is raised in its place."""
    err = err_box[0]
    if err != NULL:
        err_box[0] = NULL
        lib.warpcrypt_error_free(err)


def new_error_box() -> Any:
    return ffi.new("warpcrypt_error *[1]")
