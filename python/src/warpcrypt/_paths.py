"""Encryption and decryption between named files: the library reads and writes the file
descriptors itself, so the GIL is released for the whole call and no Python runs in it."""

from __future__ import annotations

import os
from typing import Any, Sequence

from ._common import fail, for_decryption, for_encryption
from ._errors import DecryptError, EncryptError
from ._native import NULL, lib, new_error_box
from ._output import Output


def _path(value: Any, name: str) -> str:
    try:
        return os.fspath(value)
    except TypeError:
        raise TypeError(f"argument '{name}': '{type(value).__name__}' object cannot be "
                        "converted to 'PyString'") from None


def encrypt_file(infile: str, outfile: str, recipients: Sequence[Any], armored: bool = False,
                 *, format: str = "age") -> None:
    """Encrypts `infile` into `outfile`, created or truncated (as pyrage). A missing input
    raises FileNotFoundError."""
    source, target = _path(infile, "infile"), _path(outfile, "outfile")
    options, handles, ui = for_encryption(recipients, armored, format)
    in_fd = os.open(source, os.O_RDONLY)
    try:
        out_fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666)
        try:
            err = new_error_box()
            status = lib.warpcrypt_encrypt_fd(options, handles, len(handles), in_fd, out_fd,
                                              NULL, err)
            if status:
                fail(status, err, EncryptError, ui)
        finally:
            os.close(out_fd)
    finally:
        os.close(in_fd)


def decrypt_file(infile: str, outfile: str, identities: Sequence[Any]) -> None:
    """Decrypts `infile` into `outfile`. The plaintext goes to a temporary file beside
    `outfile`, renamed over it only once the whole file authenticated: on a DecryptError
    `outfile` is as it was (_output.py)."""
    source, target = _path(infile, "infile"), _path(outfile, "outfile")
    options, handles, ui = for_decryption(identities)
    in_fd = os.open(source, os.O_RDONLY)
    try:
        with Output(target) as output:
            err = new_error_box()
            status = lib.warpcrypt_decrypt_fd(options, handles, len(handles), in_fd, output.fd,
                                              NULL, err)
            if status:
                fail(status, err, DecryptError, ui)
            output.commit()
    finally:
        os.close(in_fd)
