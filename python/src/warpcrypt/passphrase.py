"""Encryption to a passphrase (as pyrage.passphrase): age's scrypt by default, Argon2id for
warp files.

`work_factor` (not in pyrage) is log2 of the KDF's memory in KiB: for age it is scrypt's work
factor (N = 2**work_factor), for warp Argon2id's memory. The default, 18, is age's own cost
and warp's 256 MiB; tests use small ones. Decryption bounds the cost it accepts (1 GiB).
"""

from __future__ import annotations

from typing import Optional, Union

from . import _keys
from ._common import fail, input_bytes, take_buffer
from ._errors import DecryptError, EncryptError
from ._native import NULL, ffi, lib, new_error_box, raise_error
from ._options import cached_options, check_armored, encrypt_settings

__all__ = ["decrypt", "encrypt"]


def _recipient(passphrase: bytes) -> object:
    out = ffi.new("warpcrypt_recipient **")
    err = new_error_box()
    status = lib.warpcrypt_recipient_passphrase(passphrase, len(passphrase), out, err)
    if status:
        raise_error(status, err, EncryptError)
    return ffi.gc(out[0], lib.warpcrypt_recipient_free)


def _identity(passphrase: bytes) -> object:
    out = ffi.new("warpcrypt_identity **")
    err = new_error_box()
    status = lib.warpcrypt_identity_passphrase(passphrase, len(passphrase), out, err)
    if status:
        raise_error(status, err, DecryptError)
    return ffi.gc(out[0], lib.warpcrypt_identity_free)


def encrypt(plaintext: bytes, passphrase: Union[str, bytes], armored: bool = False, *,
            format: str = "age", work_factor: Optional[int] = None) -> bytes:
    """`plaintext` encrypted to `passphrase` (str as UTF-8, or bytes; not empty)."""
    data = input_bytes(plaintext, "plaintext")
    secret = _keys.secret_argument(passphrase, "passphrase")
    check_armored(armored)
    options = cached_options(encrypt_settings(format, armored, work_factor), EncryptError)
    recipient = _recipient(secret)
    out = ffi.new("uint8_t **")
    out_len = ffi.new("size_t *")
    err = new_error_box()
    status = lib.warpcrypt_encrypt_buffer(options, [recipient], 1, data, len(data), out,
                                          out_len, NULL, err)
    if status:
        fail(status, err, EncryptError)
    return take_buffer(out, out_len)


def decrypt(ciphertext: bytes, passphrase: Union[str, bytes]) -> bytes:
    """The plaintext of a file encrypted to `passphrase`; DecryptError when it does not open
    it (or the file is not encrypted to a passphrase)."""
    data = input_bytes(ciphertext, "ciphertext")
    identity = _identity(_keys.secret_argument(passphrase, "passphrase"))
    out = ffi.new("uint8_t **")
    out_len = ffi.new("size_t *")
    err = new_error_box()
    status = lib.warpcrypt_decrypt_buffer(NULL, [identity], 1, data, len(data), out, out_len,
                                          NULL, err)
    if status:
        fail(status, err, DecryptError)
    return take_buffer(out, out_len)
