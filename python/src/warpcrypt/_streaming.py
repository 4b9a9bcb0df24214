"""Encryption and decryption between file objects, in bounded memory: the library reads and
writes through callbacks (_stream.py), taking the GIL only while in them."""

from __future__ import annotations

from typing import Any, Sequence

from ._common import fail, for_decryption, for_encryption
from ._errors import DecryptError, EncryptError
from ._native import NULL, lib, new_error_box
from ._stream import Sink, Source, on_read, on_write


def encrypt_io(reader: Any, writer: Any, recipients: Sequence[Any], armored: bool = False, *,
               format: str = "age") -> None:
    """Encrypts everything `reader` gives (read() or readinto()) to `recipients`, into
    `writer` (write()), which is then flushed. An exception the objects raise comes through
    unchanged."""
    options, handles, ui = for_encryption(recipients, armored, format)
    source, sink = Source(reader), Sink(writer)
    err = new_error_box()
    status = lib.warpcrypt_encrypt(options, handles, len(handles), on_read, source.handle,
                                   on_write, sink.handle, NULL, err)
    if status:
        fail(status, err, EncryptError, source, sink, ui)
    sink.finish()


def decrypt_io(reader: Any, writer: Any, identities: Sequence[Any]) -> None:
    """Decrypts an age or warp file from `reader` into `writer`. Each chunk is written once it
    authenticated, so a file that turns out truncated or damaged raises DecryptError after
    the chunks before the damage were written."""
    options, handles, ui = for_decryption(identities)
    source, sink = Source(reader), Sink(writer)
    err = new_error_box()
    status = lib.warpcrypt_decrypt(options, handles, len(handles), on_read, source.handle,
                                   on_write, sink.handle, NULL, err)
    if status:
        fail(status, err, DecryptError, source, sink, ui)
    sink.finish()
