"""What a file's header says, read without a key (`warpcrypt info`). Not in pyrage."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, List, Optional

from ._common import input_bytes
from ._errors import DecryptError
from ._native import ffi, lib, new_error_box, raise_error, text

FORMAT_NAMES = {lib.WARPCRYPT_FORMAT_WARP: "warp", lib.WARPCRYPT_FORMAT_AGE: "age"}
CIPHER_NAMES = {
    lib.WARPCRYPT_CIPHER_AUTO: "auto",
    lib.WARPCRYPT_CIPHER_AES_256_GCM: "aes-256-gcm",
    lib.WARPCRYPT_CIPHER_CHACHA20_POLY1305: "chacha20-poly1305",
}


@dataclass(frozen=True)
class Entry:
    """One key slot (warp) or stanza (age) of a header."""

    type: str  # warp: "x25519", "passphrase", ...; age: the stanza's tag
    known: bool  # a type warpcrypt opens
    post_quantum: Optional[bool]  # None when the type is unknown
    public_key: bool  # opened by a key pair (X25519, post-quantum, SSH) rather than a secret
    argon2id_passes: int  # warp passphrase slots; else 0
    argon2id_memory_kib: int
    scrypt_log2_n: int  # age scrypt stanzas; else 0
    note: str  # what else the entry says of itself, or ""


@dataclass(frozen=True)
class Info:
    """A file's header. header_bytes is None for armored age files, plaintext_bytes when the
    size does not tell it."""

    format: str  # "warp" or "age"
    armored: bool
    version: int  # warp: the header's version; age: 1
    cipher: str  # "aes-256-gcm" or "chacha20-poly1305"
    chunk_size: int  # plaintext bytes per chunk
    header_bytes: Optional[int]
    plaintext_bytes: Optional[int]
    entries: List[Entry] = field(default_factory=list)


def _entry(raw: Any) -> Entry:
    return Entry(
        type=text(raw.type),
        known=bool(raw.known),
        post_quantum=None if raw.post_quantum < 0 else bool(raw.post_quantum),
        public_key=bool(raw.public_key),
        argon2id_passes=raw.argon2id_passes,
        argon2id_memory_kib=raw.argon2id_memory_kib,
        scrypt_log2_n=raw.scrypt_log2_n,
        note=text(raw.note),
    )


def info(ciphertext: bytes) -> Info:
    """The header of an age or warp file in memory (the whole file, or at least its header;
    plaintext_bytes is told only from the whole). DecryptError when it is neither."""
    data = input_bytes(ciphertext, "ciphertext")
    out = ffi.new("warpcrypt_info **")
    err = new_error_box()
    status = lib.warpcrypt_info_buffer(data, len(data), out, err)
    if status:
        raise_error(status, err, DecryptError)
    raw = out[0]
    try:
        return Info(
            format=FORMAT_NAMES.get(raw.format, str(raw.format)),
            armored=bool(raw.armored),
            version=raw.version,
            cipher=CIPHER_NAMES.get(raw.cipher, str(raw.cipher)),
            chunk_size=raw.chunk_size,
            header_bytes=raw.header_bytes if raw.header_bytes_known else None,
            plaintext_bytes=raw.plaintext_bytes if raw.plaintext_bytes_known else None,
            entries=[_entry(raw.entries[i]) for i in range(raw.entry_count)],
        )
    finally:
        lib.warpcrypt_info_free(raw)
