"""Python file objects as the library's read and write callbacks.

The library calls them one at a time, in order, perhaps from a thread of its own: cffi takes
the GIL for each call. An exception in a file object's method is kept, the call is aborted
(WARPCRYPT_E_ABORTED), and the caller raises the kept exception in place of the library's.
"""

from __future__ import annotations

import codecs
import io
from typing import Any, Callable, Optional

from ._native import ffi


class Source:
    """A readable object. Bytes go straight into the library's buffer through readinto()
    when the object has it; otherwise read() and a copy. A text stream's str is encoded as
    UTF-8 (pyrage takes a StringIO too)."""

    __slots__ = ("readinto", "read", "pending", "error", "handle")

    def __init__(self, reader: Any) -> None:
        read = getattr(reader, "read", None)
        if read is None:
            raise TypeError("Object does not have a .read() method.")
        self.read: Callable[[int], Any] = read
        readinto = getattr(reader, "readinto", None)
        self.readinto: Optional[Callable[[Any], Optional[int]]] = (
            None if isinstance(reader, io.TextIOBase) else readinto)
        self.pending = b""  # what read() gave beyond the library's buffer
        self.error: Optional[BaseException] = None
        self.handle = ffi.new_handle(self)

    def fill(self, buf: Any, cap: int) -> int:
        if not self.pending and self.readinto is not None:
            try:
                with memoryview(ffi.buffer(buf, cap)) as view:
                    count = self.readinto(view)
            except (NotImplementedError, io.UnsupportedOperation):
                self.readinto = None  # a RawIOBase with read() alone: read() it is
            else:
                if count is None:
                    raise BlockingIOError("readinto() returned None: no data now")
                if not 0 <= count <= cap:
                    raise ValueError(f"readinto() returned {count} for {cap} bytes")
                return count
        if self.pending:
            data = self.pending
        else:
            data = self.read(cap)
            if isinstance(data, str):
                data = data.encode("utf-8")
            elif data is None:
                raise BlockingIOError("read() returned None: the stream has no data now")
            elif not isinstance(data, bytes):
                data = bytes(data)
        count = min(len(data), cap)
        ffi.memmove(buf, data, count)
        self.pending = data[count:]
        return count

    def take_error(self) -> Optional[BaseException]:
        error, self.error = self.error, None
        return error


class Sink:
    """A writable object; each write gets a bytes copy (the library's buffer is only lent
    for the call). A text stream gets str, decoded as UTF-8 (armored output is ASCII)."""

    __slots__ = ("write", "flush", "decoder", "error", "handle")

    def __init__(self, writer: Any) -> None:
        write = getattr(writer, "write", None)
        if write is None:
            raise TypeError("Object does not have a .write() method.")
        self.write: Callable[[Any], Optional[int]] = write
        self.flush = getattr(writer, "flush", None)
        text = isinstance(writer, io.TextIOBase)
        self.decoder = codecs.getincrementaldecoder("utf-8")() if text else None
        self.error: Optional[BaseException] = None
        self.handle = ffi.new_handle(self)

    def put(self, buf: Any, length: int) -> None:
        data: Any = ffi.buffer(buf, length)[:]
        if self.decoder is not None:
            data = self.decoder.decode(data)
        while data:
            written = self.write(data)
            # None: a writer that does not count (most duck-typed ones) wrote everything.
            if written is None or written >= len(data):
                return
            if written <= 0:
                raise OSError(f"write() took {written} of {len(data)} bytes")
            data = data[written:]

    def finish(self) -> None:
        if self.decoder is not None:
            self.decoder.decode(b"", final=True)  # raises on a cut UTF-8 sequence
        if self.flush is not None:
            self.flush()  # as pyrage, whose buffered writer flushes into the object's

    def take_error(self) -> Optional[BaseException]:
        error, self.error = self.error, None
        return error


@ffi.callback("int(void *, uint8_t *, size_t, size_t *)", error=1)
def on_read(user: Any, buf: Any, cap: int, length: Any) -> int:
    source = ffi.from_handle(user)
    try:
        length[0] = source.fill(buf, cap)
        return 0
    except BaseException as error:  # kept and raised after the call
        source.error = error
        return 1


@ffi.callback("int(void *, const uint8_t *, size_t)", error=1)
def on_write(user: Any, buf: Any, length: int) -> int:
    sink = ffi.from_handle(user)
    try:
        sink.put(buf, length)
        return 0
    except BaseException as error:
        sink.error = error
        return 1
