"""pyrage's four exceptions, with what libwarpcrypt says beyond the message.

pyrage derives each directly from Exception; these derive from Error, itself an Exception, so
that `except Exception` and `except pyrage.DecryptError` code behaves the same.
"""

from __future__ import annotations

from typing import Optional


class Error(Exception):
    """A failure warpcrypt reports. `status` is the library's WARPCRYPT_E_* code (the exit
    code of the `warpcrypt` command for the same failure), None when Python refused first;
    `hint` says what may help, or ""."""

    status: Optional[int] = None
    hint: str = ""


class EncryptError(Error):
    """Encryption failed (no recipients, a recipient that cannot be used, an I/O error)."""


class DecryptError(Error):
    """Decryption failed: no identity matches, or the data is damaged or truncated."""


class IdentityError(Error):
    """An identity (a secret key) could not be read."""


class RecipientError(Error):
    """A recipient (a public key) could not be read."""


for _cls in (Error, EncryptError, DecryptError, IdentityError, RecipientError):
    _cls.__module__ = "warpcrypt"  # tracebacks name the public place


def make_error(cls: type, message: str, status: Optional[int] = None, hint: str = ""):
    """`cls(message)` carrying the library's status and hint. The hint also becomes a note
    (Python 3.11+) so that a traceback shows it under the one-line message."""
    error = cls(message)
    if isinstance(error, Error):
        error.status = status
        error.hint = hint
    if hint and hasattr(error, "add_note"):
        error.add_note(hint)
    return error
