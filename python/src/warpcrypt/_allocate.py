"""The output of encrypt() and decrypt() made in the `bytes` object they return.

warpcrypt_encrypt_to / _decrypt_to ask their caller for the output's memory once its size is
known (before the payload is made), through this module's callback: it makes an uninitialised
`bytes` object of that size, and the library writes into it with the GIL released. That saves
copying the output from the library's memory into a new `bytes` (64 MiB: 38 ms of fresh pages
and copying, with the GIL held) and wiping and freeing the library's copy (11 ms; measured
2026-12-06, scripts/bench-python.py's machine).

Writing into a `bytes` object is what CPython's own C code does to fill one it has just made
(PyBytes_FromStringAndSize with NULL): nothing else holds it yet. Elsewhere than CPython, a
bytearray takes its place and is copied into `bytes` once at the end.
"""

from __future__ import annotations

import ctypes
import platform
from typing import Any, Callable, List

from ._native import ffi

if platform.python_implementation() == "CPython":
    _new_bytes = ctypes.pythonapi.PyBytes_FromStringAndSize
    _new_bytes.restype = ctypes.py_object
    _new_bytes.argtypes = (ctypes.c_void_p, ctypes.c_ssize_t)

    def _make(size: int) -> Any:
        return _new_bytes(None, size)

    def _finish(made: Any) -> bytes:
        return made
else:  # pragma: no cover - PyPy and others

    def _make(size: int) -> Any:
        return bytearray(size)

    def _finish(made: Any) -> bytes:
        return bytes(made)


@ffi.callback("uint8_t *(void *, size_t)")
def _allocate(user: Any, size: int) -> Any:
    made = ffi.from_handle(user)
    made.append(_make(size))
    if size == 0:
        return ffi.NULL
    return ffi.cast("uint8_t *", ffi.from_buffer(made[-1]))


def made_by(call: Callable[[Any, Any], int]) -> "tuple[int, List[Any]]":
    """Runs `call(alloc, alloc_user)`; returns its status and the objects made for it."""
    made: List[Any] = []
    return call(_allocate, ffi.new_handle(made)), made


def output_of(made: List[Any], size: int) -> bytes:
    """What the call wrote: the one object made for it, `size` bytes long."""
    if not made:
        return b""
    return _finish(made[0]) if len(made[0]) == size else bytes(made[0][:size])
