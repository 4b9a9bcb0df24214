"""Encryption and decryption from memory to memory: one library call each, during which cffi
has released the GIL. A large output is made in the `bytes` object returned (_allocate.py);
a small one is copied there from the library's memory, which costs less than the callback
that hands out the object (about 3 us of a 1 KiB encryption's 70, 2026-12-06)."""

from __future__ import annotations

import threading
from typing import Any, Sequence

from ._allocate import made_by, output_of
from ._common import fail, for_decryption, for_encryption, input_bytes, take_buffer
from ._errors import DecryptError, EncryptError
from ._native import NULL, ffi, lib, new_error_box

# Outputs from this size on are made in place (_allocate.py).
_IN_PLACE_FROM = 64 * 1024


class _Slots(threading.local):
    """The out-parameters of a small call, made once per thread: three cffi allocations were
    a sixth of what this module adds to a 1 KiB encryption. Only a call that runs no Python
    while the library works (no plugin callbacks) uses them, so none is ever reentered."""

    def __init__(self) -> None:
        self.out = ffi.new("uint8_t *[1]")
        self.out_len = ffi.new("size_t[1]")
        self.err = new_error_box()


_slots = _Slots()


def _small(call: Any, options: Any, handles: Any, data: Any, error_class: type,
           ui: Any) -> bytes:
    """One _buffer call of the library for a small input; its output copied into bytes."""
    if ui is None:
        slots = _slots
        out, out_len, err = slots.out, slots.out_len, slots.err
    else:
        out, out_len, err = ffi.new("uint8_t *[1]"), ffi.new("size_t[1]"), new_error_box()
    status = call(options, handles, len(handles), data, len(data), out, out_len, NULL, err)
    if status:
        fail(status, err, error_class, ui)
    return take_buffer(out, out_len)


def _in_place(call: Any, options: Any, handles: Any, data: Any, error_class: type,
              ui: Any) -> bytes:
    """One _to call of the library for a large input; its output made in the bytes returned."""
    out_len = ffi.new("size_t *")
    err = new_error_box()
    status, made = made_by(lambda alloc, user: call(
        options, handles, len(handles), data, len(data), alloc, user, out_len, NULL, err))
    if status:
        fail(status, err, error_class, ui)
    return output_of(made, out_len[0])


def encrypt(plaintext: bytes, recipients: Sequence[Any], armored: bool = False, *,
            format: str = "age") -> bytes:
    """`plaintext` encrypted to `recipients`: an age file by default (ASCII-armored when
    `armored`), a warp file with format="warp"."""
    data = input_bytes(plaintext, "plaintext")
    options, handles, ui = for_encryption(recipients, armored, format)
    if len(data) < _IN_PLACE_FROM:
        return _small(lib.warpcrypt_encrypt_buffer, options, handles, data, EncryptError, ui)
    return _in_place(lib.warpcrypt_encrypt_to, options, handles, data, EncryptError, ui)


def decrypt(ciphertext: bytes, identities: Sequence[Any]) -> bytes:
    """The plaintext of an age or warp file (armor detected) that one of `identities` opens.
    Nothing is returned unless the whole file authenticated."""
    data = input_bytes(ciphertext, "ciphertext")
    options, handles, ui = for_decryption(identities)
    if len(data) < _IN_PLACE_FROM:
        return _small(lib.warpcrypt_decrypt_buffer, options, handles, data, DecryptError, ui)
    return _in_place(lib.warpcrypt_decrypt_to, options, handles, data, DecryptError, ui)


def _position(value: Any, name: str) -> int:
    if type(value) is not int and not hasattr(value, "__index__"):
        raise TypeError(f"argument '{name}': expected an int, not {type(value).__name__}")
    value = value.__index__()
    if not 0 <= value < 1 << 64:
        raise ValueError(f"argument '{name}' must be from 0 to 2**64 - 1, not {value}")
    return value


def decrypt_range(ciphertext: bytes, identities: Sequence[Any], offset: int,
                  length: int) -> bytes:
    """Plaintext bytes [offset, offset + length), clamped to the plaintext's end: only the
    chunks that hold them are authenticated. Armored age files are refused (DecryptError)."""
    data = input_bytes(ciphertext, "ciphertext")
    options, handles, ui = for_decryption(identities)
    first, count = _position(offset, "offset"), _position(length, "length")
    out = ffi.new("uint8_t **")
    out_len = ffi.new("size_t *")
    err = new_error_box()
    status = lib.warpcrypt_decrypt_range_buffer(options, handles, len(handles), data, len(data),
                                                first, count, out, out_len, NULL, err)
    if status:
        fail(status, err, DecryptError, ui)
    return take_buffer(out, out_len)
