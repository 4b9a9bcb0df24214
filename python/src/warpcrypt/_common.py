"""What every encrypting and decrypting call does before and after the library runs: the
arguments checked as pyrage checks them, the options picked, a failure turned into the right
exception."""

from __future__ import annotations

from typing import Any, List, NoReturn, Optional, Tuple

from ._errors import DecryptError, EncryptError, make_error
from ._keys import identity_handles, recipient_handles
from ._native import NULL, discard_error, ffi, lib, raise_error
from ._options import check_armored, encrypt_options, encrypt_settings
from ._plugin_ui import PluginUI, plugin_options


def input_bytes(data: Any, name: str) -> Any:
    """What a `const uint8_t *` parameter takes: bytes as they are (cffi passes a pointer to
    the object's own memory), another buffer through ffi.from_buffer, which also pins it."""
    if isinstance(data, bytes):
        return data
    try:
        return ffi.from_buffer(data)
    except TypeError:
        raise TypeError(f"argument '{name}': '{type(data).__name__}' object cannot be "
                        "converted to 'PyBytes'") from None


def for_encryption(recipients: Any, armored: Any,
                   fmt: Any) -> Tuple[Any, List[Any], Optional[PluginUI]]:
    """Options, recipient handles and the plugin callbacks' state for an encryption."""
    handles, callbacks = recipient_handles(recipients)
    if callbacks:
        check_armored(armored)
        options, ui = plugin_options(encrypt_settings(fmt, armored), callbacks, EncryptError)
    else:
        options, ui = encrypt_options(fmt, armored, EncryptError), None
    if not handles:
        raise make_error(EncryptError, "Missing recipients.")  # pyrage's words
    return options, handles, ui


def for_decryption(identities: Any) -> Tuple[Any, List[Any], Optional[PluginUI]]:
    """Options (the defaults, unless plugins need callbacks), identity handles, plugin state."""
    handles, callbacks = identity_handles(identities)
    if callbacks:
        options, ui = plugin_options((), callbacks, DecryptError)
        return options, handles, ui
    return NULL, handles, None


def fail(status: int, err: Any, error_class: type, *states: Any) -> NoReturn:
    """Raises for a failed call: an exception a Python callback raised (a file object's, a
    plugin callback's), else the library's error as `error_class`."""
    for state in states:
        if state is not None:
            error = state.take_error()
            if error is not None:
                discard_error(err)
                raise error
    raise_error(status, err, error_class)


def take_buffer(out: Any, out_len: Any) -> bytes:
    """The bytes of a buffer the library allocated, which is then wiped and freed."""
    pointer, size = out[0], out_len[0]
    try:
        return ffi.buffer(pointer, size)[:] if size else b""
    finally:
        lib.warpcrypt_buffer_free(pointer, size)
