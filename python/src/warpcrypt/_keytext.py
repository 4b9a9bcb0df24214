"""Key files read whole: identity files (any kinds, `age -p` protected ones, SSH private keys)
and recipients files, as the command's -i and -R read them."""

from __future__ import annotations

from typing import Any, List, Optional, Union

from . import _keys
from ._errors import IdentityError, RecipientError
from ._native import NULL, ffi, lib, new_error_box, raise_error

TextLike = Union[str, bytes, bytearray, memoryview]


def _text_bytes(value: Any, name: str) -> bytes:
    if isinstance(value, str):
        return value.encode("utf-8")
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    raise TypeError(f"argument '{name}': expected str or bytes, not {type(value).__name__}")


def parse_identities(data: bytes, passphrase: Optional[bytes]) -> List[Any]:
    out = ffi.new("warpcrypt_identity ***")
    count = ffi.new("size_t *")
    err = new_error_box()
    secret = NULL if passphrase is None else passphrase
    size = 0 if passphrase is None else len(passphrase)
    status = lib.warpcrypt_identities_parse_file(data, len(data), secret, size, NULL, out,
                                                 count, err)
    if status:
        raise_error(status, err, IdentityError)
    return _keys.adopt_array(out[0], count[0], _keys.adopt_identity,
                             lib.warpcrypt_identities_free)


def identities_from_file_text(text: TextLike,
                              passphrase: Optional[Union[str, bytes]] = None) -> List[Any]:
    """The identities of an identity file's contents, of whatever kinds it holds: an age
    identity file, a warp key file, an OpenSSH or PEM private key, or an `age -p` protected
    file. `passphrase` opens an encrypted SSH key or a protected file; IdentityError without
    it (or with a wrong one)."""
    data = _text_bytes(text, "text")
    secret = None if passphrase is None else _keys.secret_argument(passphrase, "passphrase")
    return parse_identities(data, secret)


def recipients_from_file_text(text: TextLike) -> List[Any]:
    """The recipients of a recipients file's contents: one a line, "#" comments and blank
    lines skipped, as are SSH keys of types age cannot encrypt to."""
    data = _text_bytes(text, "text")
    out = ffi.new("warpcrypt_recipient ***")
    count = ffi.new("size_t *")
    err = new_error_box()
    status = lib.warpcrypt_recipients_parse_file(data, len(data), out, count, NULL, err)
    if status:
        raise_error(status, err, RecipientError)
    return _keys.adopt_array(out[0], count[0], _keys.adopt_recipient,
                             lib.warpcrypt_recipients_free)
