"""The *_async functions of pyrage's newer line: the synchronous call run in an executor
(the event loop's default unless `executor` is given), whose threads run while the library
works without the GIL.

Arguments are checked at the call, as the synchronous functions check them, and key lists are
copied into tuples then, so that a list changed before the executor runs cannot matter.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextvars
import functools
from typing import Any, Callable, Optional, Sequence

from ._common import input_bytes
from ._keys import identity_handles, recipient_handles
from ._memory import decrypt, encrypt
from ._options import check_armored, format_code
from ._paths import _path, decrypt_file, encrypt_file
from ._stream import Sink, Source
from ._streaming import decrypt_io, encrypt_io


def _schedule(executor: Optional[Any], call: Callable[..., Any], *args: Any,
              **kwargs: Any) -> asyncio.Future:
    # Keys are handles in this process: a process pool cannot take them.
    refused = [getattr(concurrent.futures, name, None)
               for name in ("ProcessPoolExecutor", "InterpreterPoolExecutor")]
    for cls in refused:
        if cls is not None and isinstance(executor, cls):
            raise TypeError(f"{cls.__name__} is not supported; executor must be thread-based")
    loop = asyncio.get_running_loop()
    # As asyncio.to_thread: the caller's context variables reach the call (and callbacks).
    context = contextvars.copy_context()
    return loop.run_in_executor(executor, context.run, functools.partial(call, *args, **kwargs))


def _recipients(recipients: Any) -> tuple:
    recipient_handles(recipients)  # raises TypeError now rather than on await
    return tuple(recipients)


def _identities(identities: Any) -> tuple:
    identity_handles(identities)
    return tuple(identities)


def encrypt_async(plaintext: bytes, recipients: Sequence[Any], armored: bool = False, *,
                  executor: Optional[Any] = None, format: str = "age") -> asyncio.Future:
    input_bytes(plaintext, "plaintext")
    recipients = _recipients(recipients)
    check_armored(armored)
    format_code(format)
    return _schedule(executor, encrypt, plaintext, recipients, armored, format=format)


def encrypt_file_async(infile: str, outfile: str, recipients: Sequence[Any],
                       armored: bool = False, *, executor: Optional[Any] = None,
                       format: str = "age") -> asyncio.Future:
    _path(infile, "infile")
    _path(outfile, "outfile")
    recipients = _recipients(recipients)
    check_armored(armored)
    format_code(format)
    return _schedule(executor, encrypt_file, infile, outfile, recipients, armored,
                     format=format)


def encrypt_io_async(reader: Any, writer: Any, recipients: Sequence[Any],
                     armored: bool = False, *, executor: Optional[Any] = None,
                     format: str = "age") -> asyncio.Future:
    recipients = _recipients(recipients)
    Source(reader), Sink(writer)  # TypeError for an object that cannot read or write
    check_armored(armored)
    format_code(format)
    return _schedule(executor, encrypt_io, reader, writer, recipients, armored, format=format)


def decrypt_async(ciphertext: bytes, identities: Sequence[Any], *,
                  executor: Optional[Any] = None) -> asyncio.Future:
    input_bytes(ciphertext, "ciphertext")
    return _schedule(executor, decrypt, ciphertext, _identities(identities))


def decrypt_file_async(infile: str, outfile: str, identities: Sequence[Any], *,
                       executor: Optional[Any] = None) -> asyncio.Future:
    _path(infile, "infile")
    _path(outfile, "outfile")
    return _schedule(executor, decrypt_file, infile, outfile, _identities(identities))


def decrypt_io_async(reader: Any, writer: Any, identities: Sequence[Any], *,
                     executor: Optional[Any] = None) -> asyncio.Future:
    identities = _identities(identities)
    Source(reader), Sink(writer)
    return _schedule(executor, decrypt_io, reader, writer, identities)
