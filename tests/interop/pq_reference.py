#!/usr/bin/env python3
"""A second implementation, for interop tests, of warpcrypt's post-quantum support.

It is written from the specifications alone, not from warpcrypt's code:

  - age v1 (C2SP age.md): the header, its stanzas and MAC, the STREAM payload, the ASCII
    armor, and two recipient types: X25519 ("The X25519 recipient type") and the hybrid
    ML-KEM-768 + X25519 one ("The MLKEM768-X25519 (i.e. X-Wing) hybrid post-quantum
    recipient type"), whose KEM is MLKEM768-X25519 of FiloSottile/hpke `hpke-pq.md`.
  - Bech32 (BIP-173) as age.md uses it, for keys.
  - warpcrypt format v2 (formats/warp/SPEC.md): decryption of files whose key slots are
    X25519 (type 3, section 4.6) or ML-KEM-768 + X25519 (type 4, section 4.8); key-file slots
    (type 2) too, so that the SPEC's own worked example can be read.

Every function names the section it implements. Only the standard library and `cryptography`
(47.0.0 or later: its `hpke` module and `asymmetric.mlkem` appeared in 47.0.0) are used. What
this reference does NOT do, on purpose:

  - warp's XXH3 values (the header checksum, SPEC 3, and the trailer's XXH3_128, SPEC 6) need
    the `xxhash` package, which is not used: the checksum is not verified, and of the trailer
    only the plaintext length L is checked. The header MAC and every AEAD tag are verified, so
    a tampered file is still refused; only the diagnosis of damage (SPEC 7.1) is weaker.
  - no scrypt (passphrase) stanzas, no warp passphrase slots, no warp version 1, no age plugins.

Usage (`python3 pq_reference.py SUBCOMMAND --help` for each):

  keygen [--x25519] [--seed HEX]
  recipient IDENTITY_FILE
  age-encrypt (-r RECIPIENT | -R RECIPIENTS_FILE)... [-a] [--allow-mixed] -o OUT IN
  age-decrypt -i IDENTITY_FILE... -o OUT IN
  warp-decrypt (-i IDENTITY_FILE | -k KEY_FILE)... -o OUT IN
  warp-slot-explain (-i IDENTITY_FILE | -k KEY_FILE)... IN

IN and OUT may be `-` (standard input, standard output). Decryption writes nothing unless the
whole input decrypted and authenticated; failures print one line to standard error and exit 1.
"""

from __future__ import annotations

import argparse
import base64
import datetime
import hashlib
import hmac
import os
import re
import sys
from dataclasses import dataclass, field
from typing import Union

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes, hpke
from cryptography.hazmat.primitives.asymmetric import mlkem, x25519
from cryptography.hazmat.primitives.ciphers.aead import AESGCM, ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF


# ---------------------------------------------------------------------------------------------
# Errors. age's failure kinds are those of the CCTV test vectors (C2SP/CCTV age/README).
# ---------------------------------------------------------------------------------------------


class PQReferenceError(Exception):
    """Any failure of this reference."""


class KeyFormatError(PQReferenceError):
    """A key, identity file or recipient that is malformed or refused."""


class AgeHeaderError(PQReferenceError):
    """age: the header is malformed, or a stanza addressed to an identity is invalid."""


class AgeNoMatchError(PQReferenceError):
    """age: no identity unwrapped the file key."""


class AgeHmacError(PQReferenceError):
    """age: a file key was found, but the header MAC does not verify with it."""


class AgeArmorError(PQReferenceError):
    """age: the ASCII armor is malformed."""


class AgePayloadError(PQReferenceError):
    """age: the STREAM payload fails. `released` is the plaintext of the chunks that
    authenticated before the failure (a streaming reader may have released it)."""

    def __init__(self, message: str, released: bytes = b""):
        super().__init__(message)
        self.released = released


class WarpError(PQReferenceError):
    """warp: one of SPEC 7's refusals. `kind` is SPEC 7.1's cause: corrupted, unsupported,
    wrong_key, truncated."""

    def __init__(self, kind: str, message: str):
        super().__init__(f"{kind}: {message}")
        self.kind = kind


# ---------------------------------------------------------------------------------------------
# Primitives, as the specifications name them.
# ---------------------------------------------------------------------------------------------


def hkdf_sha256(ikm: bytes, salt: bytes, info: bytes, length: int = 32) -> bytes:
    """HKDF-SHA-256 (RFC 5869): extract with `salt`, expand with `info`. An empty salt is the
    same as RFC 5869's default of 32 zero bytes (age.md Conventions, SPEC 1)."""
    return HKDF(algorithm=hashes.SHA256(), length=length, salt=salt, info=info).derive(ikm)


def hmac_sha256(key: bytes, message: bytes) -> bytes:
    """HMAC-SHA-256 (RFC 2104)."""
    return hmac.new(key, message, hashlib.sha256).digest()


def x25519_base(scalar: bytes) -> bytes:
    """X25519(scalar, basepoint), RFC 7748 section 5."""
    return x25519.X25519PrivateKey.from_private_bytes(scalar).public_key().public_bytes_raw()


def x25519_shared(scalar: bytes, point: bytes) -> bytes | None:
    """X25519(scalar, point), RFC 7748 section 5; None when the result is all zero (a point
    of low order), which every caller here must refuse."""
    private_key = x25519.X25519PrivateKey.from_private_bytes(scalar)
    try:
        return private_key.exchange(x25519.X25519PublicKey.from_public_bytes(point))
    except ValueError:  # cryptography refuses the all-zero output
        return None


def x25519_is_canonical(point: bytes) -> bool:
    """SPEC 4.6: read as a little-endian integer u, bit 255 is clear and u < 2^255 - 19."""
    return int.from_bytes(point, "little") < 2**255 - 19


def x25519_is_low_order(point: bytes) -> bool:
    """A point of low order gives an all-zero X25519 output for every (clamped) scalar."""
    return x25519_shared(os.urandom(32), point) is None


# ---------------------------------------------------------------------------------------------
# Bech32: BIP-173 (checksum constant 1), with age.md's rules (Conventions): no length limit,
# all lower case or all upper case, the checksum computed over the lower-case string.
# ---------------------------------------------------------------------------------------------

BECH32_CHARSET = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
BECH32_GENERATOR = [0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3]


def bech32_polymod(values: list[int]) -> int:
    """BIP-173 "Checksum": the BCH code's polynomial modulus."""
    checksum = 1
    for value in values:
        top = checksum >> 25
        checksum = (checksum & 0x1FFFFFF) << 5 ^ value
        for i in range(5):
            if (top >> i) & 1:
                checksum ^= BECH32_GENERATOR[i]
    return checksum


def bech32_hrp_expand(hrp: str) -> list[int]:
    """BIP-173 "Checksum": the human-readable part as checksum input."""
    return [ord(c) >> 5 for c in hrp] + [0] + [ord(c) & 31 for c in hrp]


def bech32_create_checksum(hrp: str, data: list[int]) -> list[int]:
    """BIP-173 "Checksum": six 5-bit words; the constant is 1 (Bech32, not Bech32m)."""
    polymod = bech32_polymod(bech32_hrp_expand(hrp) + data + [0] * 6) ^ 1
    return [(polymod >> 5 * (5 - i)) & 31 for i in range(6)]


def bech32_verify_checksum(hrp: str, data: list[int]) -> bool:
    """BIP-173 "Checksum"."""
    return bech32_polymod(bech32_hrp_expand(hrp) + data) == 1


def convert_bits(data: bytes | list[int], from_bits: int, to_bits: int, pad: bool) -> list[int]:
    """BIP-173 (reference code's convertbits): regroup bits. Without `pad`, the leftover bits
    must be fewer than `from_bits` and all zero (SPEC 8.1), or the string is refused."""
    accumulator, bits, out = 0, 0, []
    max_value = (1 << to_bits) - 1
    for value in data:
        accumulator = (accumulator << from_bits) | value
        bits += from_bits
        while bits >= to_bits:
            bits -= to_bits
            out.append((accumulator >> bits) & max_value)
    if pad:
        if bits:
            out.append((accumulator << (to_bits - bits)) & max_value)
    elif bits >= from_bits or (accumulator << (to_bits - bits)) & max_value:
        raise ValueError("bech32: invalid padding")
    return out


def bech32_encode(hrp: str, payload: bytes) -> str:
    """BIP-173 encoding of `payload` (bytes regrouped in 5-bit words), in lower case; callers
    upper-case identities (age.md)."""
    hrp = hrp.lower()
    data = convert_bits(payload, 8, 5, pad=True)
    words = data + bech32_create_checksum(hrp, data)
    return hrp + "1" + "".join(BECH32_CHARSET[w] for w in words)


def bech32_decode(text: str) -> tuple[str, bytes]:
    """BIP-173 decoding, without the 90-character limit (age.md Conventions). Returns the
    human-readable part in lower case and the payload bytes; raises ValueError."""
    if any(ord(c) < 33 or ord(c) > 126 for c in text):
        raise ValueError("bech32: character out of range")
    if text.lower() != text and text.upper() != text:
        raise ValueError("bech32: mixed case")
    text = text.lower()  # the checksum is computed over the lower-case form
    separator = text.rfind("1")
    if separator < 1 or separator + 7 > len(text):
        raise ValueError("bech32: separator misplaced")
    hrp, data_part = text[:separator], text[separator + 1 :]
    if any(c not in BECH32_CHARSET for c in data_part):
        raise ValueError("bech32: invalid data character")
    data = [BECH32_CHARSET.index(c) for c in data_part]
    if not bech32_verify_checksum(hrp, data):
        raise ValueError("bech32: invalid checksum")
    return hrp, bytes(convert_bits(data[:-6], 5, 8, pad=False))


# ---------------------------------------------------------------------------------------------
# Base64 (age.md Conventions): standard alphabet, no padding, canonical, strict.
# ---------------------------------------------------------------------------------------------

UNPADDED_BASE64 = re.compile(rb"[A-Za-z0-9+/]*")
PADDED_BASE64 = re.compile(rb"[A-Za-z0-9+/]*={0,2}")


def b64_encode(data: bytes) -> bytes:
    """age.md Conventions: base64 without `=` padding."""
    return base64.b64encode(data).rstrip(b"=")


def b64_decode(text: bytes) -> bytes:
    """age.md Conventions: decoders MUST reject non-canonical encodings and `=` padding (and
    anything outside the alphabet: CR, LF, spaces). Raises ValueError."""
    if not UNPADDED_BASE64.fullmatch(text) or len(text) % 4 == 1:
        raise ValueError("invalid unpadded base64")
    data = base64.b64decode(text + b"=" * (-len(text) % 4))
    if b64_encode(data) != text:
        raise ValueError("non-canonical base64")
    return data


def b64_decode_padded(text: bytes) -> bytes:
    """RFC 7468 strict (age.md "ASCII armor"): padded base64, canonical. Raises ValueError."""
    if not PADDED_BASE64.fullmatch(text) or len(text) % 4 != 0:
        raise ValueError("invalid padded base64")
    data = base64.b64decode(text)
    if base64.b64encode(data) != text:
        raise ValueError("non-canonical base64")
    return data


# ---------------------------------------------------------------------------------------------
# Keys: age.md's two native asymmetric types; SPEC 8.1 and 8.2 (the same encodings).
# ---------------------------------------------------------------------------------------------

HRP_X25519_IDENTITY = "age-secret-key-"
HRP_X25519_RECIPIENT = "age"
HRP_HYBRID_IDENTITY = "age-secret-key-pq-"
HRP_HYBRID_RECIPIENT = "age1pq"

MLKEM768_EK_SIZE = 1184  # hpke-pq.md KEM.Nek
MLKEM768_CT_SIZE = 1088  # hpke-pq.md KEM.Nct
HYBRID_ENC_SIZE = 1120  # hpke-pq.md Nenc = KEM.Nct + Group.Nelem
HYBRID_PK_SIZE = 1216  # hpke-pq.md Npk = KEM.Nek + Group.Nelem
HYBRID_LABEL = b"\\.//^\\"  # hpke-pq.md MLKEM768-X25519 Label, 5c 2e 2f 2f 5e 5c


@dataclass(frozen=True)
class X25519Recipient:
    """age.md "The X25519 recipient type": a Curve25519 point, `age1...`."""

    point: bytes

    def __str__(self) -> str:
        return bech32_encode(HRP_X25519_RECIPIENT, self.point)


@dataclass(frozen=True)
class X25519Identity:
    """age.md "The X25519 recipient type": a 32-byte scalar, `AGE-SECRET-KEY-1...`."""

    scalar: bytes

    def recipient(self) -> X25519Recipient:
        """recipient = X25519(identity, basepoint)."""
        return X25519Recipient(x25519_base(self.scalar))

    def __str__(self) -> str:
        return bech32_encode(HRP_X25519_IDENTITY, self.scalar).upper()


@dataclass(frozen=True)
class HybridRecipient:
    """age.md hybrid type / hpke-pq.md: pk = ek_PQ (1184) || ek_T (32), `age1pq1...`."""

    ek_pq: bytes
    pk_x: bytes

    @property
    def pk(self) -> bytes:
        return self.ek_pq + self.pk_x

    def hpke_public_key(self) -> hpke.MLKEM768X25519PublicKey:
        return hpke.MLKEM768X25519PublicKey(
            mlkem.MLKEM768PublicKey.from_public_bytes(self.ek_pq),
            x25519.X25519PublicKey.from_public_bytes(self.pk_x),
        )

    def __str__(self) -> str:
        return bech32_encode(HRP_HYBRID_RECIPIENT, self.pk)


@dataclass(frozen=True)
class HybridIdentity:
    """age.md hybrid type: a 32-byte seed, `AGE-SECRET-KEY-PQ-1...`, expanded as hpke-pq.md's
    expandKey (SPEC 4.8 "identity")."""

    seed: bytes

    def expanded(self) -> tuple[bytes, bytes]:
        """hpke-pq.md expandKey: seed_full = SHAKE256(seed, 96); seed_PQ = the first 64 bytes
        (ML-KEM-768's d || z, FIPS 203 KeyGen_internal), seed_T = the last 32 (the X25519
        scalar; Group.RandomScalar is the identity for Curve25519)."""
        seed_full = hashlib.shake_256(self.seed).digest(96)
        return seed_full[:64], seed_full[64:]

    def mlkem_private_key(self) -> mlkem.MLKEM768PrivateKey:
        return mlkem.MLKEM768PrivateKey.from_seed_bytes(self.expanded()[0])

    def x25519_scalar(self) -> bytes:
        return self.expanded()[1]

    def recipient(self) -> HybridRecipient:
        """hpke-pq.md PrivateKeyToPublicKey: ek = ek_PQ || ek_T."""
        ek_pq = self.mlkem_private_key().public_key().public_bytes_raw()
        return HybridRecipient(ek_pq, x25519_base(self.x25519_scalar()))

    def hpke_private_key(self) -> hpke.MLKEM768X25519PrivateKey:
        return hpke.MLKEM768X25519PrivateKey(
            self.mlkem_private_key(),
            x25519.X25519PrivateKey.from_private_bytes(self.x25519_scalar()),
        )

    def __str__(self) -> str:
        return bech32_encode(HRP_HYBRID_IDENTITY, self.seed).upper()


Identity = Union[X25519Identity, HybridIdentity]
Recipient = Union[X25519Recipient, HybridRecipient]


def check_x25519_recipient_point(point: bytes) -> None:
    """SPEC 4.6 (applied by warpcrypt to age too): canonical and not of low order."""
    if not x25519_is_canonical(point):
        raise KeyFormatError("X25519 recipient is not canonical")
    if x25519_is_low_order(point):
        raise KeyFormatError("X25519 recipient is of low order")


def parse_identity(text: str) -> Identity:
    """age.md: `AGE-SECRET-KEY-1...` (X25519) or `AGE-SECRET-KEY-PQ-1...` (hybrid), 32 bytes
    each. Either case is taken (SPEC 8.1: readers take either case; age itself wants upper)."""
    try:
        hrp, payload = bech32_decode(text)
    except ValueError as error:
        raise KeyFormatError(f"malformed identity: {error}") from None
    if len(payload) != 32 or hrp not in (HRP_X25519_IDENTITY, HRP_HYBRID_IDENTITY):
        raise KeyFormatError("malformed identity: unknown type or wrong length")
    return X25519Identity(payload) if hrp == HRP_X25519_IDENTITY else HybridIdentity(payload)


def parse_recipient(text: str) -> Recipient:
    """age.md: `age1...` (32 bytes) or `age1pq1...` (1216 bytes: the ML-KEM-768 encapsulation
    key, which must pass FIPS 203's modulus check, then the X25519 point). SPEC 4.6 and 4.8:
    the X25519 point must be canonical and not of low order."""
    try:
        hrp, payload = bech32_decode(text)
    except ValueError as error:
        raise KeyFormatError(f"malformed recipient: {error}") from None
    if hrp == HRP_X25519_RECIPIENT and len(payload) == 32:
        check_x25519_recipient_point(payload)
        return X25519Recipient(payload)
    if hrp == HRP_HYBRID_RECIPIENT and len(payload) == HYBRID_PK_SIZE:
        ek_pq, pk_x = payload[:MLKEM768_EK_SIZE], payload[MLKEM768_EK_SIZE:]
        try:
            mlkem.MLKEM768PublicKey.from_public_bytes(ek_pq)  # FIPS 203 7.2 modulus check
        except ValueError:
            raise KeyFormatError("ML-KEM-768 encapsulation key is invalid") from None
        check_x25519_recipient_point(pk_x)
        return HybridRecipient(ek_pq, pk_x)
    raise KeyFormatError("malformed recipient: unknown type or wrong length")


def key_file_lines(text: str) -> list[tuple[int, str]]:
    """SPEC 8.1 "An identity file": '#' comments and blank lines skipped, CR LF allowed,
    spaces and tabs around a line ignored. Returns (line number, line)."""
    lines = []
    for number, line in enumerate(text.split("\n"), start=1):
        line = line.strip(" \t\r")
        if line and not line.startswith("#"):
            lines.append((number, line))
    return lines


def parse_identity_file(text: str) -> list[Identity]:
    """SPEC 8.1 and 8.2: one identity or more, of either kind; any other line is an error
    naming the line, never quoting it."""
    identities = []
    for number, line in key_file_lines(text):
        try:
            identities.append(parse_identity(line))
        except KeyFormatError:
            raise KeyFormatError(f"identity file: line {number} is not an identity") from None
    if not identities:
        raise KeyFormatError("identity file: no identity")
    return identities


def parse_recipients_file(text: str) -> list[Recipient]:
    """SPEC 8.1 "A recipients file": the same lines, one recipient per line."""
    recipients = []
    for number, line in key_file_lines(text):
        try:
            recipients.append(parse_recipient(line))
        except KeyFormatError as error:
            raise KeyFormatError(f"recipients file: line {number}: {error}") from None
    return recipients


def parse_warp_key_file(text: str) -> bytes:
    """SPEC 8: one `warpcrypt-key-v1:` line with 64 hex digits (either case), comments,
    blank lines, CR LF and trailing spaces allowed."""
    lines = key_file_lines(text)
    if len(lines) != 1 or not lines[0][1].startswith("warpcrypt-key-v1:"):
        raise KeyFormatError("key file: expected exactly one warpcrypt-key-v1 line")
    digits = lines[0][1][len("warpcrypt-key-v1:") :]
    if not re.fullmatch(r"[0-9A-Fa-f]{64}", digits):
        raise KeyFormatError(f"key file: line {lines[0][0]} does not hold 64 hex digits")
    return bytes.fromhex(digits)


# ---------------------------------------------------------------------------------------------
# age header (age.md "Header": version line, recipient stanzas, header MAC; ABNF).
# ---------------------------------------------------------------------------------------------

AGE_INTRO = b"age-encryption.org/v1"
AGE_VERSION_PREFIX = b"age-encryption.org/"
AGE_COLUMNS_PER_LINE = 64
AGE_BYTES_PER_LINE = 48  # 64 base64 columns
AGE_FILE_KEY_SIZE = 16
AGE_TAG_SIZE = 16


@dataclass
class Stanza:
    """age.md "Recipient stanza": a type (the first argument), arguments, a body."""

    type: str
    args: list[str]
    body: bytes


@dataclass
class AgeHeader:
    """A parsed header. `mac_input` is the header up to and including `---`; `length` is
    the header's size, MAC line included (where the payload starts)."""

    stanzas: list[Stanza]
    mac: bytes
    mac_input: bytes
    length: int


def age_read_line(data: bytes, pos: int) -> tuple[bytes, int]:
    """Every header line ends with LF (ABNF); returns the line without it, and where the next
    line starts."""
    end = data.find(b"\n", pos)
    if end < 0:
        raise AgeHeaderError("header line without LF (truncated header)")
    return data[pos:end], end + 1


def age_is_valid_argument(argument: bytes) -> bool:
    """ABNF: argument = 1*VCHAR (0x21 to 0x7E)."""
    return len(argument) > 0 and all(0x21 <= c <= 0x7E for c in argument)


def age_parse_stanza(data: bytes, pos: int) -> tuple[Stanza, int]:
    """ABNF: stanza = arg-line *full-line final-line; arg-line = "-> " argument *(SP argument)
    LF; full-line = 64base64char LF; final-line = *63base64char LF."""
    line, pos = age_read_line(data, pos)
    parts = line.split(b" ")
    if parts[0] != b"->" or len(parts) < 2:
        raise AgeHeaderError("malformed stanza line")
    if not all(age_is_valid_argument(argument) for argument in parts[1:]):
        raise AgeHeaderError("malformed stanza argument")
    body = b""
    while True:
        line, pos = age_read_line(data, pos)
        try:
            chunk = b64_decode(line)
        except ValueError as error:
            raise AgeHeaderError(f"malformed stanza body line: {error}") from None
        if len(chunk) > AGE_BYTES_PER_LINE:
            raise AgeHeaderError("stanza body line longer than 64 columns")
        body += chunk
        if len(chunk) < AGE_BYTES_PER_LINE:  # the body ends with a short line, maybe empty
            break
    arguments = [argument.decode("ascii") for argument in parts[1:]]
    return Stanza(arguments[0], arguments[1:], body), pos


def age_parse_header(data: bytes) -> AgeHeader:
    """age.md "Header" and its ABNF: header = v1-line 1*stanza end; end = "--- " 43base64char
    LF. The MAC is over the header up to and including "---" (age.md "Header MAC")."""
    line, pos = age_read_line(data, 0)
    if line != AGE_INTRO:
        if line.startswith(AGE_VERSION_PREFIX):
            raise AgeHeaderError("unsupported age version")
        raise AgeHeaderError("not an age file")
    stanzas = []
    while not data.startswith(b"---", pos):
        stanza, pos = age_parse_stanza(data, pos)
        stanzas.append(stanza)
    mac_end = pos + 3
    line, pos = age_read_line(data, pos)
    parts = line.split(b" ")
    if parts[0] != b"---" or len(parts) != 2:
        raise AgeHeaderError("malformed MAC line")
    try:
        mac = b64_decode(parts[1])
    except ValueError as error:
        raise AgeHeaderError(f"malformed MAC: {error}") from None
    if len(mac) != 32:
        raise AgeHeaderError("malformed MAC: not 32 bytes")
    if not stanzas:
        raise AgeHeaderError("header without stanzas")
    return AgeHeader(stanzas, mac, data[:mac_end], pos)


def age_encode_stanza(stanza: Stanza) -> bytes:
    """age.md "Recipient stanza": "-> " arguments LF, then the body in base64 wrapped at 64
    columns, always ending with a line shorter than 64 (possibly empty)."""
    line = b"-> " + " ".join([stanza.type, *stanza.args]).encode("ascii") + b"\n"
    body = b64_encode(stanza.body)
    lines = [body[i : i + AGE_COLUMNS_PER_LINE] for i in range(0, len(body), AGE_COLUMNS_PER_LINE)]
    if not lines or len(lines[-1]) == AGE_COLUMNS_PER_LINE:
        lines.append(b"")
    return line + b"".join(chunk + b"\n" for chunk in lines)


def age_header_mac(file_key: bytes, mac_input: bytes) -> bytes:
    """age.md "Header MAC": HMAC-SHA-256 keyed with HKDF-SHA-256(ikm = file key, salt = empty,
    info = "header")."""
    return hmac_sha256(hkdf_sha256(file_key, b"", b"header"), mac_input)


def age_encode_header(stanzas: list[Stanza], file_key: bytes) -> bytes:
    """age.md "Header": version line, stanzas, then "---", a space, the MAC and LF."""
    mac_input = AGE_INTRO + b"\n" + b"".join(age_encode_stanza(s) for s in stanzas) + b"---"
    return mac_input + b" " + b64_encode(age_header_mac(file_key, mac_input)) + b"\n"


# ---------------------------------------------------------------------------------------------
# age recipient types: X25519 and mlkem768x25519 (age.md "Native recipient types").
# ---------------------------------------------------------------------------------------------

X25519_STANZA_TYPE = "X25519"
X25519_STANZA_INFO = b"age-encryption.org/v1/X25519"
HYBRID_STANZA_TYPE = "mlkem768x25519"
HYBRID_STANZA_INFO = b"age-encryption.org/mlkem768x25519"
ZERO_NONCE = bytes(12)


def hpke_suite() -> hpke.Suite:
    """age.md "mlkem768x25519 recipient stanza": KEM MLKEM768-X25519, KDF HKDF-SHA256,
    AEAD ChaCha20Poly1305 (RFC 9180 base mode, aad empty)."""
    return hpke.Suite(hpke.KEM.MLKEM768_X25519, hpke.KDF.HKDF_SHA256, hpke.AEAD.CHACHA20_POLY1305)


def x25519_wrap(file_key: bytes, recipient: X25519Recipient) -> Stanza:
    """age.md "X25519 recipient stanza": a fresh ephemeral secret; wrap key = HKDF(shared,
    salt = ephemeral share || recipient, info); body = ChaCha20-Poly1305(wrap key, 0^12,
    file key)."""
    ephemeral_secret = os.urandom(32)
    share = x25519_base(ephemeral_secret)
    shared = x25519_shared(ephemeral_secret, recipient.point)
    if shared is None:
        raise KeyFormatError("X25519 recipient is of low order")
    wrap_key = hkdf_sha256(shared, share + recipient.point, X25519_STANZA_INFO)
    body = ChaCha20Poly1305(wrap_key).encrypt(ZERO_NONCE, file_key, None)
    return Stanza(X25519_STANZA_TYPE, [b64_encode(share).decode()], body)


def x25519_unwrap(identity: X25519Identity, stanza: Stanza) -> bytes | None:
    """age.md "X25519 recipient stanza", identity side: ignore other types (None); reject
    (AgeHeaderError) a stanza without exactly two arguments, a share that is not the
    canonical base64 of 32 bytes, a body that is not 32 bytes, or an all-zero shared secret;
    None when the body does not decrypt (not addressed to this identity)."""
    if stanza.type != X25519_STANZA_TYPE:
        return None
    if len(stanza.args) != 1:
        raise AgeHeaderError("X25519 stanza: wrong number of arguments")
    try:
        share = b64_decode(stanza.args[0].encode())
    except ValueError as error:
        raise AgeHeaderError(f"X25519 stanza: {error}") from None
    if len(share) != 32:
        raise AgeHeaderError("X25519 stanza: the share is not 32 bytes")
    if len(stanza.body) != AGE_FILE_KEY_SIZE + AGE_TAG_SIZE:
        raise AgeHeaderError("X25519 stanza: the body is not 32 bytes")
    shared = x25519_shared(identity.scalar, share)
    if shared is None:
        raise AgeHeaderError("X25519 stanza: the shared secret is all zero")
    salt = share + identity.recipient().point
    wrap_key = hkdf_sha256(shared, salt, X25519_STANZA_INFO)
    try:
        return ChaCha20Poly1305(wrap_key).decrypt(ZERO_NONCE, stanza.body, None)
    except InvalidTag:
        return None


def hybrid_wrap(file_key: bytes, recipient: HybridRecipient) -> Stanza:
    """age.md "mlkem768x25519 recipient stanza": HPKE SealBase(pkR = recipient, info =
    "age-encryption.org/mlkem768x25519", aad = ""); the arguments are the type and base64(enc),
    the body is the HPKE ciphertext. Python's single-shot encrypt returns enc || ciphertext."""
    sealed = hpke_suite().encrypt(file_key, recipient.hpke_public_key(), HYBRID_STANZA_INFO)
    enc, body = sealed[:HYBRID_ENC_SIZE], sealed[HYBRID_ENC_SIZE:]
    return Stanza(HYBRID_STANZA_TYPE, [b64_encode(enc).decode()], body)


def hybrid_unwrap(identity: HybridIdentity, stanza: Stanza) -> bytes | None:
    """age.md "mlkem768x25519 recipient stanza", identity side: ignore other types (None);
    reject (AgeHeaderError) a stanza without exactly two arguments, an enc that is not the
    canonical base64 of 1120 bytes, or a body that is not 32 bytes; then HPKE OpenBase.

    ML-KEM's implicit rejection makes a wrong identity fail only at the AEAD (None). An X25519
    half of enc of low order is refused (AgeHeaderError), as filippo.io/hpke refuses the
    all-zero X25519 output at decapsulation (CCTV hybrid_low_order, hybrid_identity);
    python's HPKE reports that as a failed tag, so it is checked first here."""
    if stanza.type != HYBRID_STANZA_TYPE:
        return None
    if len(stanza.args) != 1:
        raise AgeHeaderError("mlkem768x25519 stanza: wrong number of arguments")
    try:
        enc = b64_decode(stanza.args[0].encode())
    except ValueError as error:
        raise AgeHeaderError(f"mlkem768x25519 stanza: {error}") from None
    if len(enc) != HYBRID_ENC_SIZE:
        raise AgeHeaderError("mlkem768x25519 stanza: enc is not 1120 bytes")
    if len(stanza.body) != AGE_FILE_KEY_SIZE + AGE_TAG_SIZE:
        raise AgeHeaderError("mlkem768x25519 stanza: the body is not 32 bytes")
    if x25519_shared(identity.x25519_scalar(), enc[MLKEM768_CT_SIZE:]) is None:
        raise AgeHeaderError("mlkem768x25519 stanza: X25519 share of low order")
    try:
        return hpke_suite().decrypt(
            enc + stanza.body, identity.hpke_private_key(), HYBRID_STANZA_INFO
        )
    except InvalidTag:
        return None


def age_unwrap(identity: Identity, stanza: Stanza) -> bytes | None:
    """Dispatch a stanza to the identity's own type (age.md: identities MUST ignore
    unrecognised stanzas)."""
    if isinstance(identity, HybridIdentity):
        return hybrid_unwrap(identity, stanza)
    return x25519_unwrap(identity, stanza)


def age_find_file_key(header: AgeHeader, identities: list[Identity]) -> bytes:
    """age.md "Header": each identity is given every stanza; the first file key unwrapped is
    the file key; an invalid stanza for an identity fails the file (as age's Decrypt); then
    the header MAC MUST verify with that key."""
    for identity in identities:
        for stanza in header.stanzas:
            file_key = age_unwrap(identity, stanza)
            if file_key is not None:
                if not hmac.compare_digest(age_header_mac(file_key, header.mac_input), header.mac):
                    raise AgeHmacError("bad header MAC")
                return file_key
    raise AgeNoMatchError("no identity matched any of the file's recipients")


# ---------------------------------------------------------------------------------------------
# age payload (age.md "Payload"): 16-byte nonce, HKDF payload key, STREAM ChaCha20-Poly1305.
# ---------------------------------------------------------------------------------------------

AGE_NONCE_SIZE = 16
STREAM_CHUNK_SIZE = 64 * 1024
STREAM_ENC_CHUNK_SIZE = STREAM_CHUNK_SIZE + AGE_TAG_SIZE


def age_payload_key(file_key: bytes, nonce: bytes) -> bytes:
    """age.md "Payload": payload key = HKDF-SHA-256(ikm = file key, salt = nonce, info =
    "payload")."""
    return hkdf_sha256(file_key, nonce, b"payload")


def stream_nonce(counter: int, last: bool) -> bytes:
    """age.md "Payload": an 11-byte big-endian chunk counter, then 0x01 for the final chunk and
    0x00 before it."""
    return counter.to_bytes(11, "big") + (b"\x01" if last else b"\x00")


def stream_encrypt(payload_key: bytes, plaintext: bytes) -> bytes:
    """age.md "Payload": 64 KiB chunks; the final one may be shorter, and is empty only when
    the whole plaintext is."""
    aead = ChaCha20Poly1305(payload_key)
    chunks = [
        plaintext[i : i + STREAM_CHUNK_SIZE] for i in range(0, len(plaintext), STREAM_CHUNK_SIZE)
    ]
    chunks = chunks or [b""]
    return b"".join(
        aead.encrypt(stream_nonce(i, i == len(chunks) - 1), chunk, None)
        for i, chunk in enumerate(chunks)
    )


def stream_decrypt(payload_key: bytes, ciphertext: bytes):
    """age.md "Payload", read as a streaming reader reads it (age's own reader): records of
    64 KiB + 16; a shorter record is the final chunk; a full one is the final chunk when it
    opens only with the final flag. Errors: no final chunk, an empty final chunk after others,
    a chunk that does not authenticate, data after the final chunk. Yields each chunk's
    plaintext once it authenticated."""
    aead = ChaCha20Poly1305(payload_key)
    pos, counter = 0, 0
    while True:
        record = ciphertext[pos : pos + STREAM_ENC_CHUNK_SIZE]
        pos += len(record)
        if not record:
            raise AgePayloadError("the payload ends without a final chunk")
        last = len(record) < STREAM_ENC_CHUNK_SIZE
        if last and counter > 0 and len(record) == AGE_TAG_SIZE:
            raise AgePayloadError("the final chunk is empty but not the only chunk")
        plaintext = stream_open(aead, counter, last, record)
        if plaintext is None and not last:
            last = True  # a full-size final chunk
            plaintext = stream_open(aead, counter, last, record)
        if plaintext is None:
            raise AgePayloadError(f"chunk {counter} does not authenticate")
        yield plaintext
        if last:
            if pos != len(ciphertext):
                raise AgePayloadError("data after the final chunk")
            return
        counter += 1


def stream_open(aead: ChaCha20Poly1305, counter: int, last: bool, record: bytes) -> bytes | None:
    """One STREAM chunk; None when it does not authenticate (a record under 16 bytes never
    does)."""
    try:
        return aead.decrypt(stream_nonce(counter, last), record, None)
    except (InvalidTag, ValueError):
        return None


# ---------------------------------------------------------------------------------------------
# age ASCII armor (age.md "ASCII armor"): strict PEM, RFC 7468 section 3.
# ---------------------------------------------------------------------------------------------

ARMOR_BEGIN = b"-----BEGIN AGE ENCRYPTED FILE-----"
ARMOR_END = b"-----END AGE ENCRYPTED FILE-----"


def armor_encode(data: bytes) -> bytes:
    """RFC 7468 strict: padded base64 in 64-column lines between the two labels, LF endings."""
    text = base64.b64encode(data)
    lines = [text[i : i + AGE_COLUMNS_PER_LINE] for i in range(0, len(text), AGE_COLUMNS_PER_LINE)]
    return b"".join(line + b"\n" for line in [ARMOR_BEGIN, *lines, ARMOR_END])


def armor_read_line(data: bytes, pos: int) -> tuple[bytes, int]:
    """One armor line, ending in LF or CR LF (age.md: MAY accept both), or at the end of the
    input; an input that ends before the line starts is an error."""
    if pos >= len(data):
        raise AgeArmorError("armor ends early")
    end = data.find(b"\n", pos)
    end = len(data) if end < 0 else end
    line = data[pos:end]
    return (line[:-1] if line.endswith(b"\r") else line), end + 1


def armor_decode(data: bytes) -> bytes:
    """age.md "ASCII armor": strict PEM with label "AGE ENCRYPTED FILE", canonical padded
    base64 in lines of 64 columns, the last one shorter or full; only whitespace before and
    after the block is tolerated. (age also bounds that whitespace to 1024 bytes; not here.)"""
    pos = 0
    while True:
        line, pos = armor_read_line(data, pos)
        if line.strip():
            break
    if line != ARMOR_BEGIN:
        raise AgeArmorError("invalid armor first line")
    decoded = []
    while True:
        line, pos = armor_read_line(data, pos)
        if line == ARMOR_END:
            break
        if not line or len(line) > AGE_COLUMNS_PER_LINE:
            raise AgeArmorError("armor line empty or longer than 64 columns")
        try:
            chunk = b64_decode_padded(line)
        except ValueError as error:
            raise AgeArmorError(f"armor: {error}") from None
        decoded.append(chunk)
        if len(chunk) < AGE_BYTES_PER_LINE:  # a short line is the last one
            line, pos = armor_read_line(data, pos)
            if line != ARMOR_END:
                raise AgeArmorError("invalid armor closing line")
            break
    if data[pos:].strip():
        raise AgeArmorError("data after the armor")
    return b"".join(decoded)


def is_armored(data: bytes) -> bool:
    """Whether to read the input as armor (what age's CLI does: it looks for the PEM start)."""
    return data.lstrip().startswith(b"-----BEGIN")


# ---------------------------------------------------------------------------------------------
# age: whole files.
# ---------------------------------------------------------------------------------------------


def age_encrypt(
    plaintext: bytes,
    recipients: list[Recipient],
    armor: bool = False,
    allow_mixed: bool = False,
    file_key: bytes | None = None,
    nonce: bytes | None = None,
) -> bytes:
    """age.md: a fresh 16-byte file key wrapped for each recipient, the header with its MAC,
    a fresh 16-byte nonce, the STREAM payload; optionally armored. Like age 1.4 (and SPEC 4.8
    "No mixing"), post-quantum recipients are not mixed with X25519 ones unless allow_mixed
    (for tests that need such a file)."""
    if not recipients:
        raise KeyFormatError("no recipients")
    kinds = {isinstance(r, HybridRecipient) for r in recipients}
    if len(kinds) > 1 and not allow_mixed:
        raise KeyFormatError("post-quantum recipients cannot be mixed with X25519 recipients")
    file_key = file_key if file_key is not None else os.urandom(AGE_FILE_KEY_SIZE)
    nonce = nonce if nonce is not None else os.urandom(AGE_NONCE_SIZE)
    stanzas = [
        hybrid_wrap(file_key, r) if isinstance(r, HybridRecipient) else x25519_wrap(file_key, r)
        for r in recipients
    ]
    header = age_encode_header(stanzas, file_key)
    encrypted = header + nonce + stream_encrypt(age_payload_key(file_key, nonce), plaintext)
    return armor_encode(encrypted) if armor else encrypted


def age_decrypt(data: bytes, identities: list[Identity], armored: bool | None = None) -> bytes:
    """age.md: (un-armor,) parse the header, find the file key and verify the MAC, read the
    nonce, decrypt the payload. `armored` None: detect the armor."""
    if armored if armored is not None else is_armored(data):
        data = armor_decode(data)
    header = age_parse_header(data)
    file_key = age_find_file_key(header, identities)
    nonce = data[header.length : header.length + AGE_NONCE_SIZE]
    if len(nonce) != AGE_NONCE_SIZE:
        raise AgeHeaderError("the payload nonce is missing or short")
    released = []
    try:
        for chunk in stream_decrypt(
            age_payload_key(file_key, nonce), data[header.length + AGE_NONCE_SIZE :]
        ):
            released.append(chunk)
    except AgePayloadError as error:
        error.released = b"".join(released)
        raise
    return b"".join(released)


# ---------------------------------------------------------------------------------------------
# warp format v2 (formats/warp/SPEC.md): reading files with X25519 and post-quantum slots.
# ---------------------------------------------------------------------------------------------

WARP_MAGIC = b"\x89WARP\r\n\x1a"
WARP_SUITES = {1: "AES-256-GCM", 2: "ChaCha20-Poly1305"}
SLOT_PASSPHRASE, SLOT_KEY_FILE, SLOT_X25519, SLOT_HYBRID = 1, 2, 3, 4
WARP_SLOT_LENGTHS = {SLOT_PASSPHRASE: 104, SLOT_KEY_FILE: 96, SLOT_X25519: 112, SLOT_HYBRID: 1200}
WARP_SLOT_NAMES = {1: "passphrase", 2: "key file", 3: "X25519", 4: "ML-KEM-768 + X25519"}
WARP_MAX_SLOT_LENGTH = 2048
WARP_CHECK_SIZE = 32
WARP_WRAPPED_KEY_SIZE = 48
WARP_TRAILER_CHUNK_SIZE = 40
WARP_TAG_SIZE = 16


@dataclass
class WarpSlot:
    """SPEC 4.1: type, length, body; every body ends with check[32] || wrapped_key[48], and
    what comes before them is the slot's salt (E for X25519, enc for the hybrid type)."""

    index: int
    type: int
    raw: bytes  # the whole slot: type, length, body

    @property
    def body(self) -> bytes:
        return self.raw[3:]

    @property
    def salt(self) -> bytes:
        return self.body[: -(WARP_CHECK_SIZE + WARP_WRAPPED_KEY_SIZE)]

    @property
    def check(self) -> bytes:
        return self.body[-(WARP_CHECK_SIZE + WARP_WRAPPED_KEY_SIZE) : -WARP_WRAPPED_KEY_SIZE]

    @property
    def prefix(self) -> bytes:
        """SPEC 4.2 slot_prefix: every byte of the slot before wrapped_key."""
        return self.raw[:-WARP_WRAPPED_KEY_SIZE]

    @property
    def wrapped_key(self) -> bytes:
        return self.raw[-WARP_WRAPPED_KEY_SIZE:]


@dataclass
class WarpHeader:
    """SPEC 3. `mac_input` is every header byte before the MAC; `length` is H."""

    suite: int
    chunk_log2: int
    slots: list[WarpSlot]
    payload_nonce: bytes
    checksum: bytes
    mac: bytes
    mac_input: bytes
    length: int


def warp_need(data: bytes, end: int) -> None:
    """SPEC 7.1: an input that ends inside the header is truncated."""
    if len(data) < end:
        raise WarpError("truncated", "input ends inside the header")


def warp_parse_header(data: bytes) -> WarpHeader:
    """SPEC 3 (fields), 4.1 (slot layout) and 7 items 1 to 3, in SPEC 7.1's order, except the
    checksum (item 4): XXH3_64 needs the xxhash package, which this reference does not use, so
    the checksum is read and NOT verified."""
    warp_need(data, 12)
    if data[:8] != WARP_MAGIC:
        raise WarpError("corrupted", "not a warpcrypt file (bad magic)")
    version, suite, chunk_log2, slot_count = data[8], data[9], data[10], data[11]
    if version != 2:
        raise WarpError("unsupported", f"version {version} (this reference reads version 2 only)")
    if not 1 <= slot_count <= 16:
        raise WarpError("corrupted", "slot_count outside 1..16")
    slots, pos = [], 12
    for index in range(1, slot_count + 1):
        warp_need(data, pos + 3)
        slot_type, length = data[pos], int.from_bytes(data[pos + 1 : pos + 3], "big")
        if length > WARP_MAX_SLOT_LENGTH:
            raise WarpError("corrupted", f"slot {index} is longer than 2048 bytes")
        warp_need(data, pos + 3 + length)
        slots.append(WarpSlot(index, slot_type, data[pos : pos + 3 + length]))
        pos += 3 + length
    warp_need(data, pos + 72)
    if suite not in WARP_SUITES:
        raise WarpError("unsupported", f"suite {suite}")
    if not 12 <= chunk_log2 <= 24:
        raise WarpError("corrupted", "malformed header: chunk_log2 outside 12..24")
    for slot in slots:
        warp_check_slot_fields(slot)
    if sum(slot.type == SLOT_PASSPHRASE for slot in slots) > 1:
        raise WarpError("corrupted", "malformed header: more than one passphrase slot")
    return WarpHeader(
        suite=suite,
        chunk_log2=chunk_log2,
        slots=slots,
        payload_nonce=data[pos : pos + 32],
        checksum=data[pos + 32 : pos + 40],  # XXH3_64: not verified (no xxhash), see above
        mac=data[pos + 40 : pos + 72],
        mac_input=data[: pos + 40],
        length=pos + 72,
    )


def warp_check_slot_fields(slot: WarpSlot) -> None:
    """SPEC 7 item 3: a slot of a known type has its type's length; a passphrase slot's
    passes are 1..16 and memory_kib 8..4194304. Unknown types are not judged (SPEC 4.4)."""
    expected = WARP_SLOT_LENGTHS.get(slot.type)
    if expected is None:
        return
    if len(slot.body) != expected:
        raise WarpError("corrupted", f"malformed header: slot {slot.index} has the wrong length")
    if slot.type == SLOT_PASSPHRASE:
        passes = int.from_bytes(slot.body[16:20], "big")
        memory_kib = int.from_bytes(slot.body[20:24], "big")
        if not 1 <= passes <= 16 or not 8 <= memory_kib <= 4194304:
            raise WarpError("corrupted", f"malformed header: slot {slot.index} Argon2id cost")


def warp_aead(suite: int, key: bytes) -> AESGCM | ChaCha20Poly1305:
    """SPEC 1 and 3: the file's suite, 01 AES-256-GCM, 02 ChaCha20-Poly1305."""
    return AESGCM(key) if suite == 1 else ChaCha20Poly1305(key)


def warp_x25519_slot_secret(identity: X25519Identity, slot: WarpSlot) -> dict[str, bytes | None]:
    """SPEC 4.6, reader: shared = X25519(i, E), R = X25519(i, basepoint),
    s = HKDF(shared, E || R, "warpcrypt v2 x25519 slot", 32); s is None when shared is all
    zero (the slot does not open)."""
    e_share = slot.salt
    shared = x25519_shared(identity.scalar, e_share)
    r_point = x25519_base(identity.scalar)
    s = (
        None
        if shared is None
        else hkdf_sha256(shared, e_share + r_point, b"warpcrypt v2 x25519 slot")
    )
    return {"i": identity.scalar, "R": r_point, "E": e_share, "shared": shared, "s": s}


def warp_hybrid_slot_secret(identity: HybridIdentity, slot: WarpSlot) -> dict[str, bytes | None]:
    """SPEC 4.8, reader: (d || z || x) = SHAKE256(seed, 96); ss_PQ = ML-KEM-768 decapsulation
    of ct_PQ; ss_X = X25519(x, ct_X) (all zero: the slot does not open, s is None);
    ss = SHA3-256(ss_PQ || ss_X || ct_X || pk_X || label);
    s = HKDF(ss, enc || pk, "warpcrypt v2 mlkem768x25519 slot", 32)."""
    enc = slot.salt
    ct_pq, ct_x = enc[:MLKEM768_CT_SIZE], enc[MLKEM768_CT_SIZE:]
    mlkem_seed, x_scalar = identity.expanded()
    recipient = identity.recipient()
    ss_pq = identity.mlkem_private_key().decapsulate(ct_pq)  # implicit rejection: never fails
    ss_x = x25519_shared(x_scalar, ct_x)
    values: dict[str, bytes | None] = {
        "seed": identity.seed,
        "d": mlkem_seed[:32],
        "z": mlkem_seed[32:],
        "x": x_scalar,
        "ek": recipient.ek_pq,
        "pk_X": recipient.pk_x,
        "ct_PQ": ct_pq,
        "ct_X": ct_x,
        "ss_PQ": ss_pq,
        "ss_X": ss_x,
        "ss": None,
        "s": None,
    }
    if ss_x is not None:
        ss = hashlib.sha3_256(ss_pq + ss_x + ct_x + recipient.pk_x + HYBRID_LABEL).digest()
        values["ss"] = ss
        values["s"] = hkdf_sha256(ss, enc + recipient.pk, b"warpcrypt v2 mlkem768x25519 slot")
    return values


def warp_key_file_slot_secret(secret: bytes, slot: WarpSlot) -> dict[str, bytes | None]:
    """SPEC 4.2: s = HKDF(key_file_secret, salt, "warpcrypt v2 key-file slot", 32)."""
    return {
        "key_file_secret": secret,
        "salt": slot.salt,
        "s": hkdf_sha256(secret, slot.salt, b"warpcrypt v2 key-file slot"),
    }


def warp_header_key(file_key: bytes) -> bytes:
    """SPEC 5: header_key = HKDF(file_key, "", "warpcrypt v1 header", 32)."""
    return hkdf_sha256(file_key, b"", b"warpcrypt v1 header")


def warp_payload_key(file_key: bytes, payload_nonce: bytes, suite: int) -> bytes:
    """SPEC 5: payload_key = HKDF(file_key, payload_nonce, "warpcrypt v1 payload" || suite)."""
    return hkdf_sha256(file_key, payload_nonce, b"warpcrypt v1 payload" + bytes([suite]))


def warp_open_slot(
    header: WarpHeader, slot: WarpSlot, s: bytes | None
) -> dict[str, bytes | bool | None]:
    """SPEC 4.2 and 4.3: check = HKDF(s, salt, "warpcrypt v2 slot check"), compared in
    constant time with the stored one; only then wrap_key = HKDF(s, salt, "warpcrypt v2 slot
    wrap") opens wrapped_key = AEAD(wrap_key, 0^12, slot_prefix, file_key); the slot opens
    when, besides, the header MAC verifies with that file key. Returns the values, with
    `opened` and (when the wrapped key opened) `file_key`."""
    values: dict[str, bytes | bool | None] = {"opened": False, "file_key": None}
    if s is None:
        return values
    check = hkdf_sha256(s, slot.salt, b"warpcrypt v2 slot check")
    values.update(check=check, stored_check=slot.check)
    if not hmac.compare_digest(check, slot.check):
        return values
    wrap_key = hkdf_sha256(s, slot.salt, b"warpcrypt v2 slot wrap")
    values["wrap_key"] = wrap_key
    try:
        file_key = warp_aead(header.suite, wrap_key).decrypt(
            bytes(12), slot.wrapped_key, slot.prefix
        )
    except InvalidTag:
        return values
    header_key = warp_header_key(file_key)
    values.update(file_key=file_key, header_key=header_key)
    values["opened"] = hmac.compare_digest(hmac_sha256(header_key, header.mac_input), header.mac)
    if values["opened"]:
        values["payload_key"] = warp_payload_key(file_key, header.payload_nonce, header.suite)
    return values


def warp_slot_attempts(header: WarpHeader, identities: list[Identity], key_secrets: list[bytes]):
    """SPEC 4.4 and 4.5: the slots in order, each with every secret of its kind (X25519
    identities on type 3, post-quantum identities on type 4, key files on type 2); unknown
    types are skipped. Yields (slot, secret number, derivation values incl. s)."""
    for slot in header.slots:
        if slot.type == SLOT_X25519:
            candidates = [i for i in identities if isinstance(i, X25519Identity)]
            derive = warp_x25519_slot_secret
        elif slot.type == SLOT_HYBRID:
            candidates = [i for i in identities if isinstance(i, HybridIdentity)]
            derive = warp_hybrid_slot_secret
        elif slot.type == SLOT_KEY_FILE:
            candidates, derive = key_secrets, warp_key_file_slot_secret
        else:
            continue
        for number, secret in enumerate(candidates, start=1):
            yield slot, number, derive(secret, slot)


def warp_find_file_key(
    header: WarpHeader, identities: list[Identity], key_secrets: list[bytes]
) -> bytes:
    """SPEC 4.3 to 4.5: the first slot that opens gives the file key; every failure is the
    same outcome (wrong key), except a file with no slot of a type this reader knows
    (unsupported). Passphrase slots are known to the format but not tried here."""
    for slot, _number, derived in warp_slot_attempts(header, identities, key_secrets):
        opened = warp_open_slot(header, slot, derived["s"])
        if opened["opened"]:
            return opened["file_key"]
    if not any(slot.type in WARP_SLOT_LENGTHS for slot in header.slots):
        raise WarpError("unsupported", "no key slot of a type this reader knows")
    raise WarpError("wrong_key", "wrong key or passphrase, or an altered header")


def warp_payload_layout(file_size: int, header_size: int, chunk_size: int) -> tuple[int, int]:
    """SPEC 6: R = S - H - 40; n = ceil(R / (C + 16)); L = R - 16 n; valid only when R >= 0 and,
    for n >= 1, the last data chunk is 17..C+16 bytes. Returns (n, L)."""
    r = file_size - header_size - WARP_TRAILER_CHUNK_SIZE
    if r < 0:
        raise WarpError("truncated", "the payload is shorter than one trailer chunk")
    record = chunk_size + WARP_TAG_SIZE
    n = -(-r // record)  # ceil(R / (C + 16))
    if n >= 1 and not 17 <= r - (n - 1) * record <= record:
        raise WarpError("corrupted", "no valid payload has this size")
    return n, r - WARP_TAG_SIZE * n


def warp_nonce(index: int, final: bool) -> bytes:
    """SPEC 6: nonce(i, final) = u88(i) || u8(final)."""
    return index.to_bytes(11, "big") + (b"\x01" if final else b"\x00")


def warp_decrypt_payload(header: WarpHeader, file_key: bytes, data: bytes) -> bytes:
    """SPEC 6: data chunks i < n with nonce(i, 0), then the trailer chunk with nonce(n, 1),
    whose plaintext is u64(L) || XXH3_128(P). Only L is checked: XXH3_128 needs the xxhash
    package, which this reference does not use (every chunk's tag is still verified)."""
    chunk_size = 1 << header.chunk_log2
    n, length = warp_payload_layout(len(data), header.length, chunk_size)
    aead = warp_aead(header.suite, warp_payload_key(file_key, header.payload_nonce, header.suite))
    plaintext, trailer_start = [], len(data) - WARP_TRAILER_CHUNK_SIZE
    for i in range(n):
        start = header.length + i * (chunk_size + WARP_TAG_SIZE)
        chunk = data[start : min(start + chunk_size + WARP_TAG_SIZE, trailer_start)]
        try:
            plaintext.append(aead.decrypt(warp_nonce(i, False), chunk, b""))
        except InvalidTag:
            raise WarpError("corrupted", f"chunk {i} failed to authenticate") from None
    try:
        trailer = aead.decrypt(warp_nonce(n, True), data[trailer_start:], b"")
    except InvalidTag:
        raise WarpError("corrupted", "the trailer chunk failed to authenticate") from None
    if int.from_bytes(trailer[:8], "big") != length:  # trailer[8:24] = XXH3_128(P): not checked
        raise WarpError("corrupted", "the trailer's length disagrees with the payload")
    return b"".join(plaintext)


def warp_decrypt(data: bytes, identities: list[Identity], key_secrets: list[bytes] = ()) -> bytes:
    """SPEC 3 to 6: parse the header, open a slot (MAC included), decrypt the payload."""
    header = warp_parse_header(data)
    file_key = warp_find_file_key(header, identities, list(key_secrets))
    return warp_decrypt_payload(header, file_key, data)


@dataclass
class SlotExplanation:
    """One attempt of warp_explain: the slot, which secret, every intermediate value."""

    slot_index: int
    slot_type: int
    secret_number: int
    values: dict = field(default_factory=dict)


def warp_explain(
    data: bytes, identities: list[Identity], key_secrets: list[bytes] = ()
) -> list[SlotExplanation]:
    """SPEC 4.2, 4.3, 4.6, 4.8 and 5, step by step: for every slot and every secret of its
    kind, the values a worked example lists (for a type-4 slot: ss_PQ, ss_X, ss, s, check,
    wrap_key, file_key, payload_key, and what they come from)."""
    header = warp_parse_header(data)
    explanations = []
    for slot, number, derived in warp_slot_attempts(header, identities, list(key_secrets)):
        values = dict(derived)
        values.update(warp_open_slot(header, slot, derived["s"]))
        explanations.append(SlotExplanation(slot.index, slot.type, number, values))
    return explanations


EXPLAIN_ORDER = (
    "seed d z x ek pk_X ct_PQ ct_X ss_PQ ss_X ss "  # type 4 (SPEC 4.8)
    "i R E shared "  # type 3 (SPEC 4.6)
    "key_file_secret salt "  # type 2 (SPEC 4.2)
    "s check stored_check wrap_key file_key header_key payload_key"  # SPEC 4.2, 5
).split()


def explained_value(name: str, value: bytes | None) -> str:
    """Hex, or why there is no value: an all-zero X25519 output (SPEC 4.6, 4.8), or a step
    not reached."""
    if value is not None:
        return value.hex()
    return "(all zero: the slot does not open)" if name in ("ss_X", "shared") else "-"


def format_explanation(explanation: SlotExplanation) -> str:
    """warp_explain's values as text: one `name = hex` line each, in derivation order."""
    kind = WARP_SLOT_NAMES.get(explanation.slot_type, "?")
    secret = "key file" if explanation.slot_type == SLOT_KEY_FILE else "identity"
    lines = [
        f"slot {explanation.slot_index} (type {explanation.slot_type}, {kind}), "
        f"{secret} {explanation.secret_number}:"
    ]
    for name in EXPLAIN_ORDER:
        if name in explanation.values:
            lines.append(f"  {name:<12} = {explained_value(name, explanation.values[name])}")
    lines.append(f"  {'opened':<12} = {'yes' if explanation.values['opened'] else 'no'}")
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# Command line.
# ---------------------------------------------------------------------------------------------


def read_input(path: str) -> bytes:
    if path == "-":
        return sys.stdin.buffer.read()
    with open(path, "rb") as f:
        return f.read()


def write_output(path: str, data: bytes) -> None:
    if path == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return
    with open(path, "wb") as f:
        f.write(data)


def read_identities(paths: list[str]) -> list[Identity]:
    identities = []
    for path in paths:
        identities += parse_identity_file(read_input(path).decode("utf-8", errors="replace"))
    return identities


def command_keygen(args: argparse.Namespace) -> None:
    """age-keygen 1.4's output (with -pq unless --x25519): `# created:`, `# public key:`, then
    the identity."""
    secret = bytes.fromhex(args.seed) if args.seed else os.urandom(32)
    if len(secret) != 32:
        raise KeyFormatError("--seed must be 32 bytes (64 hex digits)")
    identity = X25519Identity(secret) if args.x25519 else HybridIdentity(secret)
    created = datetime.datetime.now().astimezone().replace(microsecond=0).isoformat()
    created = created.replace("+00:00", "Z")  # Go's time.RFC3339, as age-keygen prints it
    print(f"# created: {created}")
    print(f"# public key: {identity.recipient()}")
    print(identity)


def command_recipient(args: argparse.Namespace) -> None:
    """`age-keygen -y`: the recipient of each identity, one per line."""
    for identity in read_identities([args.identity_file]):
        print(identity.recipient())


def command_age_encrypt(args: argparse.Namespace) -> None:
    recipients = [parse_recipient(r) for r in args.recipient]
    for path in args.recipients_file:
        recipients += parse_recipients_file(read_input(path).decode("utf-8", errors="replace"))
    data = age_encrypt(
        read_input(args.input), recipients, armor=args.armor, allow_mixed=args.allow_mixed
    )
    write_output(args.output, data)


def command_age_decrypt(args: argparse.Namespace) -> None:
    plaintext = age_decrypt(read_input(args.input), read_identities(args.identity))
    write_output(args.output, plaintext)


def warp_secrets(args: argparse.Namespace) -> tuple[list[Identity], list[bytes]]:
    identities = read_identities(args.identity) if args.identity else []
    key_secrets = [
        parse_warp_key_file(read_input(p).decode("utf-8", errors="replace")) for p in args.key_file
    ]
    if not identities and not key_secrets:
        raise KeyFormatError("give at least one -i IDENTITY_FILE or -k KEY_FILE")
    return identities, key_secrets


def command_warp_decrypt(args: argparse.Namespace) -> None:
    identities, key_secrets = warp_secrets(args)
    write_output(args.output, warp_decrypt(read_input(args.input), identities, key_secrets))


def command_warp_slot_explain(args: argparse.Namespace) -> None:
    identities, key_secrets = warp_secrets(args)
    data = read_input(args.input)
    header = warp_parse_header(data)
    suite = f"{header.suite} ({WARP_SUITES[header.suite]})"
    print(
        f"header: suite {suite}, chunk_log2 {header.chunk_log2}, {len(header.slots)} slot(s), "
        f"H = {header.length}"
    )
    print(f"payload_nonce = {header.payload_nonce.hex()}")
    for explanation in warp_explain(data, identities, key_secrets):
        print(format_explanation(explanation))


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="pq_reference.py", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)

    keygen = commands.add_parser("keygen", help="print a new identity, as age-keygen -pq does")
    keygen.add_argument("--x25519", action="store_true", help="an X25519 identity instead")
    keygen.add_argument("--seed", metavar="HEX", help="the 32-byte seed (or X25519 scalar)")
    keygen.set_defaults(run=command_keygen)

    recipient = commands.add_parser(
        "recipient", help="print each identity's recipient (age-keygen -y)"
    )
    recipient.add_argument(
        "identity_file", metavar="IDENTITY_FILE", help="identities of either kind, or -"
    )
    recipient.set_defaults(run=command_recipient)

    encrypt = commands.add_parser("age-encrypt", help="encrypt to age recipients")
    encrypt.add_argument(
        "-r",
        dest="recipient",
        action="append",
        default=[],
        metavar="RECIPIENT",
        help="an age1pq1... or age1... recipient (repeatable)",
    )
    encrypt.add_argument(
        "-R",
        dest="recipients_file",
        action="append",
        default=[],
        metavar="FILE",
        help="a recipients file, one recipient per line (repeatable)",
    )
    encrypt.add_argument("-a", "--armor", action="store_true", help="ASCII armor")
    encrypt.add_argument(
        "--allow-mixed",
        action="store_true",
        help="tests only: allow X25519 recipients beside post-quantum ones",
    )
    encrypt.add_argument(
        "-o", dest="output", required=True, metavar="OUT", help="output file, or -"
    )
    encrypt.add_argument("input", metavar="IN", help="input file, or -")
    encrypt.set_defaults(run=command_age_encrypt)

    decrypt = commands.add_parser("age-decrypt", help="decrypt an age file (armor detected)")
    decrypt.add_argument(
        "-i",
        dest="identity",
        action="append",
        required=True,
        metavar="IDENTITY_FILE",
        help="an identity file, identities of either kind (repeatable)",
    )
    decrypt.add_argument(
        "-o",
        dest="output",
        required=True,
        metavar="OUT",
        help="output file, or -; written only after the whole file authenticated",
    )
    decrypt.add_argument("input", metavar="IN", help="input file, or -")
    decrypt.set_defaults(run=command_age_decrypt)

    for name, run, help_text in (
        ("warp-decrypt", command_warp_decrypt, "decrypt a warp v2 file (slot types 2, 3, 4)"),
        (
            "warp-slot-explain",
            command_warp_slot_explain,
            "print each slot's derivation, step by step (SPEC 4.2, 4.6, 4.8, 5)",
        ),
    ):
        warp = commands.add_parser(name, help=help_text)
        warp.add_argument(
            "-i",
            dest="identity",
            action="append",
            default=[],
            metavar="IDENTITY_FILE",
            help="identities for X25519 (type 3) and post-quantum (type 4) slots (repeatable)",
        )
        warp.add_argument(
            "-k",
            dest="key_file",
            action="append",
            default=[],
            metavar="KEY_FILE",
            help="a warpcrypt-key-v1 key file, for key-file slots (type 2) (repeatable)",
        )
        if name == "warp-decrypt":
            warp.add_argument(
                "-o",
                dest="output",
                required=True,
                metavar="OUT",
                help="output file, or -; written only after the whole file authenticated",
            )
        warp.add_argument("input", metavar="IN", help="a warp file, or -")
        warp.set_defaults(run=run)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        args.run(args)
    except (PQReferenceError, OSError) as error:
        print(f"pq_reference.py {args.command}: error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
