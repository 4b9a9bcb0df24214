import asyncio
from concurrent.futures import Executor
from dataclasses import dataclass
from os import PathLike
from typing import Any, List, Optional, Protocol, Sequence, Union

from . import keyfile as keyfile
from . import passphrase as passphrase
from . import plugin as plugin
from . import pq as pq
from . import ssh as ssh
from . import tag as tag
from . import tagpq as tagpq
from . import x25519 as x25519

__version__: str
__all__: List[str]

_Recipient = Union[x25519.Recipient, pq.Recipient, ssh.Recipient, keyfile.Recipient,
                   tag.Recipient, tagpq.Recipient, plugin.Recipient, plugin.RecipientPluginV1]
_Identity = Union[x25519.Identity, pq.Identity, ssh.Identity, keyfile.Identity,
                  plugin.Identity, plugin.IdentityPluginV1]
_Buffer = Union[bytes, bytearray, memoryview]
_Path = Union[str, PathLike[str]]
_Format = str  # "age" (the default) or "warp"

class _Reader(Protocol):
    def read(self, size: int = ..., /) -> Union[bytes, str]: ...

class _Writer(Protocol):
    def write(self, data: Any, /) -> Any: ...

class Error(Exception):
    status: Optional[int]
    hint: str

class EncryptError(Error): ...
class DecryptError(Error): ...
class IdentityError(Error): ...
class RecipientError(Error): ...

def encrypt(plaintext: _Buffer, recipients: Sequence[_Recipient], armored: bool = False, *,
            format: _Format = "age") -> bytes: ...
def encrypt_file(infile: _Path, outfile: _Path, recipients: Sequence[_Recipient],
                 armored: bool = False, *, format: _Format = "age") -> None: ...
def encrypt_io(reader: _Reader, writer: _Writer, recipients: Sequence[_Recipient],
               armored: bool = False, *, format: _Format = "age") -> None: ...
def decrypt(ciphertext: _Buffer, identities: Sequence[_Identity]) -> bytes: ...
def decrypt_file(infile: _Path, outfile: _Path, identities: Sequence[_Identity]) -> None: ...
def decrypt_io(reader: _Reader, writer: _Writer, identities: Sequence[_Identity]) -> None: ...
def decrypt_range(ciphertext: _Buffer, identities: Sequence[_Identity], offset: int,
                  length: int) -> bytes: ...

def encrypt_async(plaintext: _Buffer, recipients: Sequence[_Recipient], armored: bool = False,
                  *, executor: Optional[Executor] = None,
                  format: _Format = "age") -> asyncio.Future[bytes]: ...
def encrypt_file_async(infile: _Path, outfile: _Path, recipients: Sequence[_Recipient],
                       armored: bool = False, *, executor: Optional[Executor] = None,
                       format: _Format = "age") -> asyncio.Future[None]: ...
def encrypt_io_async(reader: _Reader, writer: _Writer, recipients: Sequence[_Recipient],
                     armored: bool = False, *, executor: Optional[Executor] = None,
                     format: _Format = "age") -> asyncio.Future[None]: ...
def decrypt_async(ciphertext: _Buffer, identities: Sequence[_Identity], *,
                  executor: Optional[Executor] = None) -> asyncio.Future[bytes]: ...
def decrypt_file_async(infile: _Path, outfile: _Path, identities: Sequence[_Identity], *,
                       executor: Optional[Executor] = None) -> asyncio.Future[None]: ...
def decrypt_io_async(reader: _Reader, writer: _Writer, identities: Sequence[_Identity], *,
                     executor: Optional[Executor] = None) -> asyncio.Future[None]: ...

def identities_from_file_text(
        text: Union[str, _Buffer],
        passphrase: Optional[Union[str, bytes]] = None) -> List[_Identity]: ...
def recipients_from_file_text(text: Union[str, _Buffer]) -> List[_Recipient]: ...

@dataclass(frozen=True)
class Entry:
    type: str
    known: bool
    post_quantum: Optional[bool]
    public_key: bool
    argon2id_passes: int
    argon2id_memory_kib: int
    scrypt_log2_n: int
    note: str

@dataclass(frozen=True)
class Info:
    format: str
    armored: bool
    version: int
    cipher: str
    chunk_size: int
    header_bytes: Optional[int]
    plaintext_bytes: Optional[int]
    entries: List[Entry]

def info(ciphertext: _Buffer) -> Info: ...
