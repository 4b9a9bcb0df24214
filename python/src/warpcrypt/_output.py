"""Where decrypt_file writes: a new file beside the destination, renamed over it only once the
whole input authenticated, so that a wrong key or a truncated file leaves the destination as
it was (pyrage creates and truncates it first, then writes what it decrypted before failing)."""

from __future__ import annotations

import os
import secrets
import stat
from typing import Any, Optional


class Output:
    """A context manager: `fd` to write to; commit() makes it the destination; leaving the
    block without commit() removes what was written."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.fd = -1
        self.temporary: Optional[str] = None

    def __enter__(self) -> Output:
        # Through a symbolic link to the file it names, as writing to the link would go.
        target = os.path.realpath(self.path)
        try:
            existing = os.stat(target)
        except FileNotFoundError:
            existing = None
        if existing is not None and not stat.S_ISREG(existing.st_mode):
            # A device, a FIFO, /dev/stdout: nothing to rename over; written directly.
            self.fd = os.open(target, os.O_WRONLY | os.O_TRUNC)
            return self
        try:
            self._open_temporary(target, existing)
        except PermissionError:
            # A directory we may not create in, with a destination we may write: as pyrage.
            self.fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666)
        return self

    def _open_temporary(self, target: str, existing: Optional[os.stat_result]) -> None:
        directory, name = os.path.split(target)
        for _ in range(100):
            path = os.path.join(directory, f".{name}.{secrets.token_hex(6)}.part")
            try:
                # 0o666 less the umask, as a new destination would get; an existing one's
                # mode is kept, so that a private file stays private.
                self.fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            except FileExistsError:
                continue
            self.temporary = path
            if existing is not None:
                os.fchmod(self.fd, stat.S_IMODE(existing.st_mode) & 0o777)
            return
        raise FileExistsError(f"no free temporary name beside {target}")

    def commit(self) -> None:
        os.close(self.fd)
        self.fd = -1
        if self.temporary is not None:
            os.replace(self.temporary, os.path.realpath(self.path))
            self.temporary = None

    def __exit__(self, *exc: Any) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1
        if self.temporary is not None:
            try:
                os.unlink(self.temporary)
            except FileNotFoundError:
                pass
            self.temporary = None
