#!/usr/bin/env python3
"""A second implementation, for interop tests, of age's hardware "tag" recipient types.

A tag recipient is the public half of a key that lives in hardware (a YubiKey, a TPM, the
Secure Enclave): anyone encrypts to it in software, only a plugin that holds the key opens the
file. This file is written from the specifications, not from warpcrypt's code:

  - C2SP age.md and filippo.io/age `tag` (tag.go at 7fa810b, "update tag scheme"): the
    recipients `age1tag1...` (Bech32 of the 33-byte compressed P-256 point) and
    `age1tagpq1...` (Bech32 of the 1249-byte MLKEM768-P256 public key), and their stanzas
    `-> p256tag TAG ENC` and `-> mlkem768p256tag TAG ENC`, whose body is the file key sealed
    with HPKE and whose TAG lets a hardware plugin skip stanzas that are not its own without
    asking the user to touch the key.
  - RFC 9180 (HPKE): base mode, DHKEM(P-256, HKDF-SHA256) (KEM 0x0010) with DeriveKeyPair
    (section 7.1.3), HKDF-SHA256 (0x0001), ChaCha20-Poly1305 (0x0003), and AES-128-GCM (0x0001)
    for the known answers.
  - FiloSottile/hpke `hpke-pq.md`: the MLKEM768-P256 hybrid KEM (0x0050): expandKey,
    DeriveKeyPair (SHAKE256.LabeledDerive), Encaps, EncapsDerand, Decaps.
  - FIPS 203: ML-KEM-768's Encaps_internal (K-PKE.Encrypt), written out below, because
    `cryptography` offers no encapsulation with given randomness and hpke-pq.json's known
    answers need one. Key generation and decapsulation are `cryptography`'s.

THE TAG. TAG = HKDF-Extract(salt = label, ikm = enc || SHA-256(R)[:4])[:4], i.e. the first 4
bytes of HMAC-SHA-256(key = label, enc || SHA-256(R)[:4]), where label is
`age-encryption.org/p256tag` or `age-encryption.org/mlkem768p256tag`, enc the whole HPKE
encapsulation, and R the 33-byte compressed point (p256tag) or the last 65 bytes of the
1249-byte key, the UNCOMPRESSED P-256 point (mlkem768p256tag). An earlier draft (tag.go before
7fa810b, and the example stanzas of some copies of age.md) hashed only the P-256 part of enc
with the whole raw key; files of that draft do not open with this reference, nor with age 1.3
or rage 0.11 (pyrage 1.4.0), which agree with the construction above.

The identity side is a SOFTWARE stand-in for the hardware: tests/plugin/age-plugin-tagtest holds
a P-256 scalar or an MLKEM768-P256 seed in its identity string `AGE-PLUGIN-TAGTEST-1...`
(Bech32, hrp `age-plugin-tagtest-`, upper case). Its payload is one type byte and 32 bytes:

    01 || P-256 scalar (big-endian, 0 < s < n)    -> an age1tag1... recipient
    02 || MLKEM768-P256 seed (hpke-pq.md Nsk)     -> an age1tagpq1... recipient
    (empty)                                        -> both keys of age's own age-plugin-tagtest

The empty payload is what `-j tagtest` sends (C2SP age-plugin.md: the default identity). age's
plugin (filippo.io/age tag/internal/age-plugin-tagtest) refuses any other payload and holds two
fixed keys, DeriveKeyPair("age-plugin-tagtest") of each KEM; this one holds the same two for the
empty payload, so that files made for age's test recipients open here too.

Usage (`python3 tag_reference.py SUBCOMMAND --help` for each):

  keygen [--pq] [--seed HEX]
  recipient IDENTITY_FILE
  age-encrypt (-r RECIPIENT)... [-a] -o OUT IN
  age-decrypt -i IDENTITY_FILE... -o OUT IN

Recipients may also be pq_reference.py's kinds (age1..., age1pq1...), identity files may also
hold AGE-SECRET-KEY-... lines, for files that mix them. Decryption writes nothing unless the
whole input decrypted and authenticated; failures print one line and exit 1.
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Union

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, str(Path(__file__).resolve().parent))

import pq_reference as pq  # noqa: E402  (age's file format, Bech32, base64, X25519, X-Wing)
from cryptography.exceptions import InvalidTag  # noqa: E402
from cryptography.hazmat.primitives import serialization  # noqa: E402
from cryptography.hazmat.primitives.asymmetric import ec, mlkem  # noqa: E402
from cryptography.hazmat.primitives.ciphers.aead import AESGCM, ChaCha20Poly1305  # noqa: E402

TagReferenceError = pq.PQReferenceError
KeyFormatError = pq.KeyFormatError
AgeHeaderError = pq.AgeHeaderError

# ---------------------------------------------------------------------------------------------
# SHA-3 family and HMAC, as FIPS 202, FIPS 203 and RFC 2104 name them.
# ---------------------------------------------------------------------------------------------


def sha3_256(data: bytes) -> bytes:
    return hashlib.sha3_256(data).digest()


def sha3_512(data: bytes) -> bytes:
    return hashlib.sha3_512(data).digest()


def shake128(data: bytes, length: int) -> bytes:
    return hashlib.shake_128(data).digest(length)


def shake256(data: bytes, length: int) -> bytes:
    return hashlib.shake_256(data).digest(length)


def hmac_sha256(key: bytes, message: bytes) -> bytes:
    return hmac.new(key, message, hashlib.sha256).digest()


# ---------------------------------------------------------------------------------------------
# ML-KEM-768 encapsulation, FIPS 203 (August 2024), written out: sections 4.2 (encodings,
# compression, sampling), 4.3 (NTT), 5.2 (K-PKE.Encrypt), 6.2 (ML-KEM.Encaps_internal).
# Only what Encaps_internal needs; its output is checked in the self-test against
# `cryptography`'s decapsulation and hpke-pq.json.
# ---------------------------------------------------------------------------------------------

MLKEM_N, MLKEM_Q = 256, 3329
MLKEM768_K, MLKEM768_ETA1, MLKEM768_ETA2, MLKEM768_DU, MLKEM768_DV = 3, 2, 2, 10, 4
MLKEM768_EK_SIZE = pq.MLKEM768_EK_SIZE  # 384 k + 32 = 1184
MLKEM768_CT_SIZE = pq.MLKEM768_CT_SIZE  # 32 (du k + dv) = 1088


def bit_rev7(value: int) -> int:
    """FIPS 203 section 2.3: the 7-bit reversal of value."""
    return int(f"{value:07b}"[::-1], 2)


MLKEM_ZETAS = [pow(17, bit_rev7(i), MLKEM_Q) for i in range(128)]  # zeta^BitRev7(i), zeta = 17
MLKEM_GAMMAS = [pow(17, 2 * bit_rev7(i) + 1, MLKEM_Q) for i in range(128)]  # section 4.3.1


def mlkem_byte_encode(values: list[int], d: int) -> bytes:
    """FIPS 203 Algorithm 5, ByteEncode_d: 256 d-bit integers, least significant bit first."""
    accumulator = 0
    for i, value in enumerate(values):
        accumulator |= value << (d * i)
    return accumulator.to_bytes(32 * d, "little")


def mlkem_byte_decode(data: bytes, d: int) -> list[int]:
    """FIPS 203 Algorithm 6, ByteDecode_d; for d = 12 the values are reduced mod q (the
    encapsulation key's modulus check, section 7.2, is `cryptography`'s, on parsing)."""
    accumulator, mask = int.from_bytes(data, "little"), (1 << d) - 1
    modulus = MLKEM_Q if d == 12 else 1 << d
    return [((accumulator >> (d * i)) & mask) % modulus for i in range(MLKEM_N)]


def mlkem_compress(value: int, d: int) -> int:
    """FIPS 203 (4.7): round(2^d / q * x) mod 2^d, rounding half up."""
    return ((value << d) + MLKEM_Q // 2) // MLKEM_Q % (1 << d)


def mlkem_decompress(value: int, d: int) -> int:
    """FIPS 203 (4.8): round(q / 2^d * y), rounding half up."""
    return (value * MLKEM_Q + (1 << (d - 1))) >> d


def mlkem_sample_ntt(seed34: bytes) -> list[int]:
    """FIPS 203 Algorithm 7, SampleNTT: rejection sampling of 12-bit values below q from
    SHAKE128(seed34). 3 bytes give two candidates; 840 bytes suffice with overwhelming
    probability, and the stream is squeezed further when they do not."""
    length, coefficients = 840, []
    while True:
        stream = shake128(seed34, length)
        coefficients, pos = [], 0
        while len(coefficients) < MLKEM_N and pos + 3 <= length:
            c0, c1, c2 = stream[pos], stream[pos + 1], stream[pos + 2]
            pos += 3
            for candidate in (c0 + 256 * (c1 % 16), c1 // 16 + 16 * c2):
                if candidate < MLKEM_Q and len(coefficients) < MLKEM_N:
                    coefficients.append(candidate)
        if len(coefficients) == MLKEM_N:
            return coefficients
        length *= 2


def mlkem_sample_cbd(data: bytes, eta: int) -> list[int]:
    """FIPS 203 Algorithm 8, SamplePolyCBD_eta: 64 eta bytes to a centered binomial
    polynomial."""
    bits = int.from_bytes(data, "little")
    out = []
    for i in range(MLKEM_N):
        x = sum((bits >> (2 * i * eta + j)) & 1 for j in range(eta))
        y = sum((bits >> (2 * i * eta + eta + j)) & 1 for j in range(eta))
        out.append((x - y) % MLKEM_Q)
    return out


def mlkem_ntt(f: list[int]) -> list[int]:
    """FIPS 203 Algorithm 9, NTT."""
    f, i, length = list(f), 1, 128
    while length >= 2:
        for start in range(0, MLKEM_N, 2 * length):
            zeta = MLKEM_ZETAS[i]
            i += 1
            for j in range(start, start + length):
                t = zeta * f[j + length] % MLKEM_Q
                f[j + length] = (f[j] - t) % MLKEM_Q
                f[j] = (f[j] + t) % MLKEM_Q
        length //= 2
    return f


def mlkem_ntt_inverse(f: list[int]) -> list[int]:
    """FIPS 203 Algorithm 10, NTT^-1 (the final factor 3303 = 128^-1 mod q)."""
    f, i, length = list(f), 127, 2
    while length <= 128:
        for start in range(0, MLKEM_N, 2 * length):
            zeta = MLKEM_ZETAS[i]
            i -= 1
            for j in range(start, start + length):
                t = f[j]
                f[j] = (t + f[j + length]) % MLKEM_Q
                f[j + length] = zeta * (f[j + length] - t) % MLKEM_Q
        length *= 2
    return [x * 3303 % MLKEM_Q for x in f]


def mlkem_multiply_ntts(f: list[int], g: list[int]) -> list[int]:
    """FIPS 203 Algorithms 11 and 12, MultiplyNTTs with BaseCaseMultiply."""
    h = [0] * MLKEM_N
    for i in range(128):
        a0, a1, b0, b1 = f[2 * i], f[2 * i + 1], g[2 * i], g[2 * i + 1]
        h[2 * i] = (a0 * b0 + a1 * b1 * MLKEM_GAMMAS[i]) % MLKEM_Q
        h[2 * i + 1] = (a0 * b1 + a1 * b0) % MLKEM_Q
    return h


def mlkem_add(f: list[int], g: list[int]) -> list[int]:
    return [(a + b) % MLKEM_Q for a, b in zip(f, g)]


def mlkem_prf(seed: bytes, counter: int, eta: int) -> bytes:
    """FIPS 203 (4.3): PRF_eta(s, b) = SHAKE256(s || b, 64 eta)."""
    return shake256(seed + bytes([counter]), 64 * eta)


def kpke_encrypt(ek: bytes, message: bytes, randomness: bytes) -> bytes:
    """FIPS 203 Algorithm 14, K-PKE.Encrypt(ek, m, r) for ML-KEM-768."""
    k = MLKEM768_K
    t_hat = [mlkem_byte_decode(ek[384 * i : 384 * (i + 1)], 12) for i in range(k)]
    rho = ek[384 * k :]
    a_hat = [[mlkem_sample_ntt(rho + bytes([j, i])) for j in range(k)] for i in range(k)]
    counter = 0
    y = []
    for _ in range(k):
        y.append(mlkem_sample_cbd(mlkem_prf(randomness, counter, MLKEM768_ETA1), MLKEM768_ETA1))
        counter += 1
    e1 = []
    for _ in range(k):
        e1.append(mlkem_sample_cbd(mlkem_prf(randomness, counter, MLKEM768_ETA2), MLKEM768_ETA2))
        counter += 1
    e2 = mlkem_sample_cbd(mlkem_prf(randomness, counter, MLKEM768_ETA2), MLKEM768_ETA2)
    y_hat = [mlkem_ntt(p) for p in y]
    u = []
    for i in range(k):  # u = NTT^-1(A_hat^T o y_hat) + e1
        acc = [0] * MLKEM_N
        for j in range(k):
            acc = mlkem_add(acc, mlkem_multiply_ntts(a_hat[j][i], y_hat[j]))
        u.append(mlkem_add(mlkem_ntt_inverse(acc), e1[i]))
    mu = [mlkem_decompress(bit, 1) for bit in mlkem_byte_decode(message, 1)]
    acc = [0] * MLKEM_N
    for i in range(k):  # v = NTT^-1(t_hat^T o y_hat) + e2 + mu
        acc = mlkem_add(acc, mlkem_multiply_ntts(t_hat[i], y_hat[i]))
    v = mlkem_add(mlkem_add(mlkem_ntt_inverse(acc), e2), mu)
    c1 = b"".join(
        mlkem_byte_encode([mlkem_compress(x, MLKEM768_DU) for x in p], MLKEM768_DU) for p in u
    )
    c2 = mlkem_byte_encode([mlkem_compress(x, MLKEM768_DV) for x in v], MLKEM768_DV)
    return c1 + c2


def mlkem768_encaps_internal(ek: bytes, m: bytes) -> tuple[bytes, bytes]:
    """FIPS 203 Algorithm 17, ML-KEM.Encaps_internal(ek, m): (K, r) = G(m || H(ek)),
    c = K-PKE.Encrypt(ek, m, r). Returns (shared key K, ciphertext c)."""
    if len(ek) != MLKEM768_EK_SIZE or len(m) != 32:
        raise ValueError("ML-KEM-768: ek of 1184 bytes and m of 32 bytes")
    g = sha3_512(m + sha3_256(ek))
    return g[:32], kpke_encrypt(ek, m, g[32:])


# ---------------------------------------------------------------------------------------------
# P-256 (SEC 1 encodings; hpke-pq.md "Group definitions"), over `cryptography`'s curve.
# ---------------------------------------------------------------------------------------------

P256_ORDER = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
P256_SCALAR_SIZE = 32
P256_COMPRESSED_SIZE = 33
P256_UNCOMPRESSED_SIZE = 65


def p256_private_key(scalar: bytes) -> ec.EllipticCurvePrivateKey:
    """A big-endian scalar, 0 < s < n (RFC 9180 7.1.3, hpke-pq.md RandomScalar)."""
    value = int.from_bytes(scalar, "big")
    if len(scalar) != P256_SCALAR_SIZE or not 0 < value < P256_ORDER:
        raise KeyFormatError("P-256 scalar out of range")
    return ec.derive_private_key(value, ec.SECP256R1())


def p256_encode(public_key: ec.EllipticCurvePublicKey, compressed: bool = False) -> bytes:
    """SEC 1 Elliptic-Curve-Point-to-Octet-String: 04 || X || Y, or 02/03 || X."""
    form = (
        serialization.PublicFormat.CompressedPoint
        if compressed
        else serialization.PublicFormat.UncompressedPoint
    )
    return public_key.public_bytes(serialization.Encoding.X962, form)


def p256_decode(point: bytes, compressed: bool) -> ec.EllipticCurvePublicKey:
    """SEC 1 Octet-String-to-Elliptic-Curve-Point, of the one form asked: 33 bytes 02/03 || X,
    or 65 bytes 04 || X || Y, on the curve (which also rules out the point at infinity).
    Raises ValueError."""
    size, prefixes = (
        (P256_COMPRESSED_SIZE, (2, 3)) if compressed else (P256_UNCOMPRESSED_SIZE, (4,))
    )
    if len(point) != size or point[0] not in prefixes:
        raise ValueError("not a P-256 point of the expected encoding")
    return ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)


def p256_public(scalar: bytes, compressed: bool = False) -> bytes:
    return p256_encode(p256_private_key(scalar).public_key(), compressed)


def p256_ecdh(scalar: bytes, point: ec.EllipticCurvePublicKey) -> bytes:
    """The x-coordinate of scalar * point (RFC 9180 DH for P-256; hpke-pq.md
    Group.ElementToSharedSecret)."""
    return p256_private_key(scalar).exchange(ec.ECDH(), point)


def p256_random_scalar(seed: bytes) -> bytes:
    """hpke-pq.md Group.RandomScalar: the first 32-byte chunk of seed that is a scalar in
    [1, n-1]. (filippo.io/hpke reads as many chunks as are given; the document's Group.Nseed
    is 128 bytes, four chunks.)"""
    for start in range(0, len(seed) - P256_SCALAR_SIZE + 1, P256_SCALAR_SIZE):
        chunk = seed[start : start + P256_SCALAR_SIZE]
        if 0 < int.from_bytes(chunk, "big") < P256_ORDER:
            return chunk
    raise ValueError("RandomScalar: rejection sampling failed")


# ---------------------------------------------------------------------------------------------
# HPKE, RFC 9180: labeled HKDF (4), DHKEM(P-256) (4.1, 7.1.3), key schedule (5.1), the AEAD
# (5.2, single message, sequence number 0 unless told).
# ---------------------------------------------------------------------------------------------

KEM_P256 = 0x0010
KEM_MLKEM768_P256 = 0x0050
KDF_HKDF_SHA256 = 0x0001
AEAD_AES_128_GCM = 0x0001
AEAD_CHACHA20_POLY1305 = 0x0003
HPKE_AEAD_SIZES = {AEAD_AES_128_GCM: 16, 0x0002: 32, AEAD_CHACHA20_POLY1305: 32}  # Nk
HPKE_NONCE_SIZE = 12


def i2osp(value: int, length: int) -> bytes:
    return value.to_bytes(length, "big")


def kem_suite_id(kem_id: int) -> bytes:
    """RFC 9180 4.1: suite_id = "KEM" || I2OSP(kem_id, 2)."""
    return b"KEM" + i2osp(kem_id, 2)


def hpke_suite_id(kem_id: int, kdf_id: int, aead_id: int) -> bytes:
    """RFC 9180 5.1: suite_id = "HPKE" || I2OSP(kem_id, 2) || I2OSP(kdf_id, 2) ||
    I2OSP(aead_id, 2)."""
    return b"HPKE" + i2osp(kem_id, 2) + i2osp(kdf_id, 2) + i2osp(aead_id, 2)


def hkdf_extract(salt: bytes, ikm: bytes) -> bytes:
    """RFC 5869 2.2: HMAC-Hash(salt, IKM); an empty salt is HashLen zeros (the same HMAC key)."""
    return hmac_sha256(salt, ikm)


def hkdf_expand(prk: bytes, info: bytes, length: int) -> bytes:
    """RFC 5869 2.3."""
    out, block, counter = b"", b"", 1
    while len(out) < length:
        block = hmac_sha256(prk, block + info + bytes([counter]))
        out += block
        counter += 1
    return out[:length]


def labeled_extract(suite_id: bytes, salt: bytes, label: bytes, ikm: bytes) -> bytes:
    """RFC 9180 4: Extract(salt, "HPKE-v1" || suite_id || label || ikm)."""
    return hkdf_extract(salt, b"HPKE-v1" + suite_id + label + ikm)


def labeled_expand(suite_id: bytes, prk: bytes, label: bytes, info: bytes, length: int) -> bytes:
    """RFC 9180 4: Expand(prk, I2OSP(L, 2) || "HPKE-v1" || suite_id || label || info, L)."""
    return hkdf_expand(prk, i2osp(length, 2) + b"HPKE-v1" + suite_id + label + info, length)


def shake256_labeled_derive(kem_id: int, ikm: bytes, label: bytes, context: bytes, length: int):
    """hpke-pq.md SHAKE256.LabeledDerive: SHAKE256(ikm || "HPKE-v1" || suite_id ||
    I2OSP(len(label), 2) || label || I2OSP(L, 2) || context, L)."""
    labeled_ikm = (
        ikm
        + b"HPKE-v1"
        + kem_suite_id(kem_id)
        + i2osp(len(label), 2)
        + label
        + i2osp(length, 2)
        + context
    )
    return shake256(labeled_ikm, length)


def dhkem_p256_derive_key_pair(ikm: bytes) -> bytes:
    """RFC 9180 7.1.3, DeriveKeyPair for P-256: dkp_prk = LabeledExtract("", "dkp_prk", ikm);
    the first candidate LabeledExpand(dkp_prk, "candidate", I2OSP(counter, 1), 32) that is a
    scalar in [1, n-1] (bitmask 0xff). Returns the scalar."""
    suite_id = kem_suite_id(KEM_P256)
    dkp_prk = labeled_extract(suite_id, b"", b"dkp_prk", ikm)
    for counter in range(256):
        candidate = labeled_expand(suite_id, dkp_prk, b"candidate", bytes([counter]), 32)
        if 0 < int.from_bytes(candidate, "big") < P256_ORDER:
            return candidate
    raise ValueError("DeriveKeyPairError")


def dhkem_p256_extract_and_expand(dh: bytes, kem_context: bytes) -> bytes:
    """RFC 9180 4.1: ExtractAndExpand(dh, kem_context) with Nsecret = 32."""
    suite_id = kem_suite_id(KEM_P256)
    eae_prk = labeled_extract(suite_id, b"", b"eae_prk", dh)
    return labeled_expand(suite_id, eae_prk, b"shared_secret", kem_context, 32)


def dhkem_p256_encap(pk_r: bytes, ikm_e: bytes | None = None) -> tuple[bytes, bytes]:
    """RFC 9180 4.1 Encap (DeriveKeyPair(ikmE) for the ephemeral key when given, as the test
    vectors do; random otherwise). pk_r is the uncompressed point. Returns (shared_secret,
    enc)."""
    scalar = dhkem_p256_derive_key_pair(ikm_e if ikm_e is not None else os.urandom(32))
    enc = p256_public(scalar)
    dh = p256_ecdh(scalar, p256_decode(pk_r, compressed=False))
    return dhkem_p256_extract_and_expand(dh, enc + pk_r), enc


def dhkem_p256_decap(enc: bytes, scalar: bytes) -> bytes:
    """RFC 9180 4.1 Decap: dh = DH(skR, pkE), kem_context = enc || pkRm. Raises ValueError for
    an enc that is not an uncompressed point on the curve."""
    dh = p256_ecdh(scalar, p256_decode(enc, compressed=False))
    return dhkem_p256_extract_and_expand(dh, enc + p256_public(scalar))


HYBRID_LABEL = b"MLKEM768-P256"  # hpke-pq.md MLKEM768-P256 Label
HYBRID_ENC_SIZE = MLKEM768_CT_SIZE + P256_UNCOMPRESSED_SIZE  # Nenc = 1153
HYBRID_PK_SIZE = MLKEM768_EK_SIZE + P256_UNCOMPRESSED_SIZE  # Npk = 1249
HYBRID_P256_SEED_SIZE = 128  # Group.Nseed


def hybrid_expand_key(seed: bytes) -> tuple[bytes, bytes, bytes]:
    """hpke-pq.md expandKey for MLKEM768-P256: seed_full = SHAKE256(seed, 64 + 128);
    seed_PQ = the first 64 (ML-KEM d || z, FIPS 203 KeyGen_internal, `cryptography`'s seed
    form); dk_T = RandomScalar(the other 128). Returns (seed_PQ, dk_T, ek = ek_PQ || ek_T)."""
    if len(seed) != 32:
        raise KeyFormatError("an MLKEM768-P256 seed is 32 bytes")
    seed_full = shake256(seed, 64 + HYBRID_P256_SEED_SIZE)
    seed_pq, dk_t = seed_full[:64], p256_random_scalar(seed_full[64:])
    ek_pq = mlkem.MLKEM768PrivateKey.from_seed_bytes(seed_pq).public_key().public_bytes_raw()
    return seed_pq, dk_t, ek_pq + p256_public(dk_t)


def hybrid_derive_key_pair(ikm: bytes) -> bytes:
    """hpke-pq.md DeriveKeyPair: seed = SHAKE256.LabeledDerive(ikm, "DeriveKeyPair", "", 32).
    Returns the seed (the private key)."""
    return shake256_labeled_derive(KEM_MLKEM768_P256, ikm, b"DeriveKeyPair", b"", 32)


def hybrid_combine(ss_pq: bytes, ss_t: bytes, ct_t: bytes, ek_t: bytes) -> bytes:
    """hpke-pq.md: ss = SHA3-256(ss_PQ || ss_T || ct_T || ek_T || Label)."""
    return sha3_256(ss_pq + ss_t + ct_t + ek_t + HYBRID_LABEL)


def hybrid_encaps(ek: bytes, randomness: bytes | None = None) -> tuple[bytes, bytes]:
    """hpke-pq.md Encaps, or EncapsDerand when randomness is given (32 bytes for ML-KEM's m,
    then RandomScalar's chunks; hpke-pq.json gives 128 bytes). With randomness, ML-KEM is this
    file's Encaps_internal; without, `cryptography`'s. Returns (ss, enc = ct_PQ || ct_T)."""
    ek_pq, ek_t = ek[:MLKEM768_EK_SIZE], ek[MLKEM768_EK_SIZE:]
    point = p256_decode(ek_t, compressed=False)
    if randomness is None:
        ss_pq, ct_pq = mlkem.MLKEM768PublicKey.from_public_bytes(ek_pq).encapsulate()
        sk_e = p256_random_scalar(os.urandom(HYBRID_P256_SEED_SIZE))
    else:
        ss_pq, ct_pq = mlkem768_encaps_internal(ek_pq, randomness[:32])
        sk_e = p256_random_scalar(randomness[32:])
    ct_t = p256_public(sk_e)
    ss_t = p256_ecdh(sk_e, point)
    return hybrid_combine(ss_pq, ss_t, ct_t, ek_t), ct_pq + ct_t


def hybrid_decaps(seed: bytes, enc: bytes) -> bytes:
    """hpke-pq.md Decaps. Raises ValueError for a ct_T that is not an uncompressed point on
    the curve (ML-KEM's implicit rejection never fails)."""
    ct_pq, ct_t = enc[:MLKEM768_CT_SIZE], enc[MLKEM768_CT_SIZE:]
    seed_pq, dk_t, ek = hybrid_expand_key(seed)
    ss_pq = mlkem.MLKEM768PrivateKey.from_seed_bytes(seed_pq).decapsulate(ct_pq)
    ss_t = p256_ecdh(dk_t, p256_decode(ct_t, compressed=False))
    return hybrid_combine(ss_pq, ss_t, ct_t, ek[MLKEM768_EK_SIZE:])


@dataclass(frozen=True)
class HpkeContext:
    """RFC 9180 5.1 KeySchedule's output (base mode, no PSK)."""

    aead_id: int
    key: bytes
    base_nonce: bytes
    exporter_secret: bytes

    def nonce(self, sequence: int) -> bytes:
        """RFC 9180 5.2 ComputeNonce: base_nonce XOR I2OSP(seq, Nn)."""
        return bytes(a ^ b for a, b in zip(self.base_nonce, i2osp(sequence, HPKE_NONCE_SIZE)))

    def aead(self):
        return AESGCM(self.key) if self.aead_id != AEAD_CHACHA20_POLY1305 else ChaCha20Poly1305(
            self.key
        )

    def seal(self, plaintext: bytes, aad: bytes = b"", sequence: int = 0) -> bytes:
        return self.aead().encrypt(self.nonce(sequence), plaintext, aad)

    def open(self, ciphertext: bytes, aad: bytes = b"", sequence: int = 0) -> bytes:
        """Raises InvalidTag."""
        return self.aead().decrypt(self.nonce(sequence), ciphertext, aad)


def hpke_key_schedule(
    kem_id: int, shared_secret: bytes, info: bytes, aead_id: int = AEAD_CHACHA20_POLY1305
) -> HpkeContext:
    """RFC 9180 5.1 KeySchedule, mode_base (0x00), KDF HKDF-SHA256 (two-stage): psk_id_hash,
    info_hash, key_schedule_context, secret = LabeledExtract(shared_secret, "secret", psk = ""),
    then key, base_nonce, exporter_secret."""
    suite_id = hpke_suite_id(kem_id, KDF_HKDF_SHA256, aead_id)
    psk_id_hash = labeled_extract(suite_id, b"", b"psk_id_hash", b"")
    info_hash = labeled_extract(suite_id, b"", b"info_hash", info)
    context = b"\x00" + psk_id_hash + info_hash
    secret = labeled_extract(suite_id, shared_secret, b"secret", b"")
    return HpkeContext(
        aead_id,
        labeled_expand(suite_id, secret, b"key", context, HPKE_AEAD_SIZES[aead_id]),
        labeled_expand(suite_id, secret, b"base_nonce", context, HPKE_NONCE_SIZE),
        labeled_expand(suite_id, secret, b"exp", context, 32),
    )


# ---------------------------------------------------------------------------------------------
# Keys: recipients (tag.go ParseRecipient, String, Bytes) and the test plugin's identities.
# ---------------------------------------------------------------------------------------------

HRP_TAG_RECIPIENT = "age1tag"  # plugin.EncodeRecipient("tag", ...): age1tag1...
HRP_TAGPQ_RECIPIENT = "age1tagpq"  # plugin.EncodeRecipient("tagpq", ...): age1tagpq1...
HRP_TAGTEST_IDENTITY = "age-plugin-tagtest-"  # AGE-PLUGIN-TAGTEST-1...
TAGTEST_CLASSIC, TAGTEST_HYBRID = 0x01, 0x02  # the test plugin's payload type byte
AGE_TAGTEST_SEED = b"age-plugin-tagtest"  # age's plugin: DeriveKeyPair(this) of each KEM

P256TAG_STANZA_TYPE = "p256tag"
P256TAG_LABEL = b"age-encryption.org/p256tag"
MLKEM768P256TAG_STANZA_TYPE = "mlkem768p256tag"
MLKEM768P256TAG_LABEL = b"age-encryption.org/mlkem768p256tag"
TAG_SIZE = 4


def compute_tag(label: bytes, enc: bytes, tag_key: bytes) -> bytes:
    """tag.go Recipient.Tag: HKDF-Extract(SHA-256, salt = label, ikm = enc ||
    SHA-256(tag_key)[:4])[:4] = HMAC-SHA-256(label, enc || SHA-256(tag_key)[:4])[:4]."""
    return hkdf_extract(label, enc + hashlib.sha256(tag_key).digest()[:4])[:TAG_SIZE]


@dataclass(frozen=True)
class P256TagRecipient:
    """`age1tag1...`: a P-256 point, kept compressed (33 bytes, tag.go NewClassicRecipient)."""

    point: bytes  # compressed

    stanza_type = P256TAG_STANZA_TYPE
    label = P256TAG_LABEL
    enc_size = P256_UNCOMPRESSED_SIZE
    postquantum = False

    @property
    def pk(self) -> bytes:
        """The HPKE public key pkRm: the uncompressed point."""
        return p256_encode(p256_decode(self.point, compressed=True))

    @property
    def tag_key(self) -> bytes:
        """R of the tag: the compressed point (tag.go Bytes())."""
        return self.point

    def encap(self, randomness: bytes | None = None) -> tuple[bytes, bytes]:
        return dhkem_p256_encap(self.pk, randomness)

    def __str__(self) -> str:
        return pq.bech32_encode(HRP_TAG_RECIPIENT, self.point)


@dataclass(frozen=True)
class HybridTagRecipient:
    """`age1tagpq1...`: the MLKEM768-P256 public key, ek_PQ (1184) || ek_T (65, uncompressed),
    tag.go NewHybridRecipient."""

    ek_pq: bytes
    point: bytes  # uncompressed

    stanza_type = MLKEM768P256TAG_STANZA_TYPE
    label = MLKEM768P256TAG_LABEL
    enc_size = HYBRID_ENC_SIZE
    postquantum = True

    @property
    def pk(self) -> bytes:
        return self.ek_pq + self.point

    @property
    def tag_key(self) -> bytes:
        """R of the tag: the P-256 part only, uncompressed (tag.go: Bytes()[1184:])."""
        return self.point

    def encap(self, randomness: bytes | None = None) -> tuple[bytes, bytes]:
        return hybrid_encaps(self.pk, randomness)

    def __str__(self) -> str:
        return pq.bech32_encode(HRP_TAGPQ_RECIPIENT, self.pk)


TagRecipient = Union[P256TagRecipient, HybridTagRecipient]


@dataclass(frozen=True)
class P256TagIdentity:
    """A P-256 scalar: what the hardware holds for an `age1tag1...` recipient."""

    scalar: bytes

    def recipient(self) -> P256TagRecipient:
        return P256TagRecipient(p256_public(self.scalar, compressed=True))

    def decap(self, enc: bytes) -> bytes:
        return dhkem_p256_decap(enc, self.scalar)

    def payload(self) -> bytes:
        return bytes([TAGTEST_CLASSIC]) + self.scalar


@dataclass(frozen=True)
class HybridTagIdentity:
    """An MLKEM768-P256 seed (hpke-pq.md Nsk = 32): what the hardware holds for an
    `age1tagpq1...` recipient."""

    seed: bytes

    def recipient(self) -> HybridTagRecipient:
        ek = hybrid_expand_key(self.seed)[2]
        return HybridTagRecipient(ek[:MLKEM768_EK_SIZE], ek[MLKEM768_EK_SIZE:])

    def decap(self, enc: bytes) -> bytes:
        return hybrid_decaps(self.seed, enc)

    def payload(self) -> bytes:
        return bytes([TAGTEST_HYBRID]) + self.seed


TagIdentity = Union[P256TagIdentity, HybridTagIdentity]


def generate_identity(postquantum: bool, secret: bytes | None = None) -> TagIdentity:
    """A new identity: a random scalar (RFC 9180 DeriveKeyPair of 32 random bytes, so always
    in range) or a random 32-byte seed; `secret` gives the scalar or seed itself."""
    if postquantum:
        return HybridTagIdentity(secret if secret is not None else os.urandom(32))
    if secret is None:
        secret = dhkem_p256_derive_key_pair(os.urandom(32))
    p256_private_key(secret)  # range check
    return P256TagIdentity(secret)


def age_tagtest_identities() -> list[TagIdentity]:
    """The two keys of age's age-plugin-tagtest (tagtest.NewClassicIdentity and
    NewHybridIdentity of "age-plugin-tagtest"): DeriveKeyPair of each KEM."""
    return [
        P256TagIdentity(dhkem_p256_derive_key_pair(AGE_TAGTEST_SEED)),
        HybridTagIdentity(hybrid_derive_key_pair(AGE_TAGTEST_SEED)),
    ]


def encode_plugin_identity(identity: TagIdentity | None) -> str:
    """`AGE-PLUGIN-TAGTEST-1...` of the identity; None gives the empty payload (age's keys)."""
    payload = b"" if identity is None else identity.payload()
    return pq.bech32_encode(HRP_TAGTEST_IDENTITY, payload).upper()


def parse_plugin_identity(text: str) -> list[TagIdentity]:
    """An `AGE-PLUGIN-TAGTEST-1...` string (either case): one identity, or age's two for the
    empty payload."""
    try:
        hrp, payload = pq.bech32_decode(text)
    except ValueError as error:
        raise KeyFormatError(f"malformed tagtest identity: {error}") from None
    if hrp != HRP_TAGTEST_IDENTITY:
        raise KeyFormatError("not an AGE-PLUGIN-TAGTEST-1 identity")
    if not payload:
        return age_tagtest_identities()
    if len(payload) != 33 or payload[0] not in (TAGTEST_CLASSIC, TAGTEST_HYBRID):
        raise KeyFormatError("tagtest identity: not a type byte and 32 bytes")
    if payload[0] == TAGTEST_CLASSIC:
        p256_private_key(payload[1:])  # range check
        return [P256TagIdentity(payload[1:])]
    return [HybridTagIdentity(payload[1:])]


def parse_tag_recipient(text: str) -> TagRecipient:
    """tag.go ParseRecipient: `age1tag1...` of a 33-byte compressed point on the curve, or
    `age1tagpq1...` of 1249 bytes: an ML-KEM-768 encapsulation key that passes FIPS 203's
    modulus check, then an uncompressed point on the curve."""
    try:
        hrp, payload = pq.bech32_decode(text)
    except ValueError as error:
        raise KeyFormatError(f"malformed recipient: {error}") from None
    try:
        if hrp == HRP_TAG_RECIPIENT:
            p256_decode(payload, compressed=True)
            return P256TagRecipient(payload)
        if hrp == HRP_TAGPQ_RECIPIENT:
            if len(payload) != HYBRID_PK_SIZE:
                raise ValueError("an age1tagpq1 key is 1249 bytes")
            ek_pq, point = payload[:MLKEM768_EK_SIZE], payload[MLKEM768_EK_SIZE:]
            mlkem.MLKEM768PublicKey.from_public_bytes(ek_pq)
            p256_decode(point, compressed=False)
            return HybridTagRecipient(ek_pq, point)
    except ValueError as error:
        raise KeyFormatError(f"invalid tag recipient: {error}") from None
    raise KeyFormatError("not an age1tag1 or age1tagpq1 recipient")


def parse_recipient(text: str):
    """A tag recipient, or one of pq_reference's (age1..., age1pq1...)."""
    if text.lower().startswith(("age1tag1", "age1tagpq1")):
        return parse_tag_recipient(text)
    return pq.parse_recipient(text)


def parse_identity_file(text: str) -> list:
    """Identity-file lines (pq_reference's rules): AGE-PLUGIN-TAGTEST-1... lines, and
    AGE-SECRET-KEY-... lines for pq_reference's kinds."""
    identities = []
    for number, line in pq.key_file_lines(text):
        try:
            if line.upper().startswith("AGE-PLUGIN-TAGTEST-1"):
                identities += parse_plugin_identity(line)
            else:
                identities.append(pq.parse_identity(line))
        except KeyFormatError:
            raise KeyFormatError(f"identity file: line {number} is not an identity") from None
    if not identities:
        raise KeyFormatError("identity file: no identity")
    return identities


# ---------------------------------------------------------------------------------------------
# Stanzas: tag.go WrapWithLabels, tagtest.go Unwrap.
# ---------------------------------------------------------------------------------------------


def wrap(
    file_key: bytes, recipient: TagRecipient, randomness: bytes | None = None
) -> pq.Stanza:
    """tag.go WrapWithLabels: enc, ctx = HPKE SetupBaseS(pkR, info = label); body =
    ctx.Seal(aad = "", file_key); the stanza `-> TYPE base64(tag) base64(enc)` and body.
    `randomness` (tests only) makes the encapsulation deterministic (RFC 9180 ikmE, or
    hpke-pq.md EncapsDerand's randomness)."""
    shared_secret, enc = recipient.encap(randomness)
    kem_id = KEM_MLKEM768_P256 if recipient.postquantum else KEM_P256
    body = hpke_key_schedule(kem_id, shared_secret, recipient.label).seal(file_key)
    tag = compute_tag(recipient.label, enc, recipient.tag_key)
    args = [pq.b64_encode(tag).decode(), pq.b64_encode(enc).decode()]
    return pq.Stanza(recipient.stanza_type, args, body)


def wrap_lines(file_key: bytes, recipient: TagRecipient) -> bytes:
    """The stanza as header lines (age.md "Recipient stanza")."""
    return pq.age_encode_stanza(wrap(file_key, recipient))


def stanza_tag_and_enc(stanza: pq.Stanza, enc_size: int) -> tuple[bytes, bytes]:
    """tagtest.go Unwrap's checks, in its order: exactly two arguments, each canonical
    unpadded base64 (age's format.DecodeString), a 4-byte tag, an enc of the type's size, a
    32-byte body. Raises AgeHeaderError."""
    name = stanza.type
    if len(stanza.args) != 2:
        raise AgeHeaderError(f"{name} stanza: not two arguments")
    try:
        tag = pq.b64_decode(stanza.args[0].encode())
    except ValueError as error:
        raise AgeHeaderError(f"{name} stanza: malformed tag: {error}") from None
    if len(tag) != TAG_SIZE:
        raise AgeHeaderError(f"{name} stanza: the tag is not 4 bytes")
    try:
        enc = pq.b64_decode(stanza.args[1].encode())
    except ValueError as error:
        raise AgeHeaderError(f"{name} stanza: malformed enc: {error}") from None
    if len(enc) != enc_size:
        raise AgeHeaderError(f"{name} stanza: enc is not {enc_size} bytes")
    if len(stanza.body) != pq.AGE_FILE_KEY_SIZE + pq.AGE_TAG_SIZE:
        raise AgeHeaderError(f"{name} stanza: the body is not 32 bytes")
    return tag, enc


def unwrap(stanza: pq.Stanza, identity: TagIdentity) -> bytes | None:
    """tagtest.go Unwrap, one stanza: None for another type or a tag that is not this
    identity's (checked before any key operation, as hardware needs); AgeHeaderError for a
    malformed stanza, an enc whose P-256 point is not on the curve, or a stanza whose tag
    matches but whose body does not open (age's tagtest returns that error too, rather than
    "incorrect identity": the tag says the stanza is this key's)."""
    recipient = identity.recipient()
    if stanza.type != recipient.stanza_type:
        return None
    tag, enc = stanza_tag_and_enc(stanza, recipient.enc_size)
    if not hmac.compare_digest(tag, compute_tag(recipient.label, enc, recipient.tag_key)):
        return None
    try:
        shared_secret = identity.decap(enc)
    except ValueError as error:
        raise AgeHeaderError(f"{stanza.type} stanza: invalid enc: {error}") from None
    kem_id = KEM_MLKEM768_P256 if recipient.postquantum else KEM_P256
    try:
        return hpke_key_schedule(kem_id, shared_secret, recipient.label).open(stanza.body)
    except InvalidTag:
        raise AgeHeaderError(f"{stanza.type} stanza: the tag matches, the body does not open")


# ---------------------------------------------------------------------------------------------
# Whole age files, with tag stanzas beside pq_reference's X25519 and mlkem768x25519 ones.
# ---------------------------------------------------------------------------------------------


def is_postquantum(recipient) -> bool:
    """age's labels: mlkem768x25519 and mlkem768p256tag carry "postquantum"; X25519 and
    p256tag carry none. age.Encrypt refuses recipients whose label sets differ."""
    return isinstance(recipient, (HybridTagRecipient, pq.HybridRecipient))


def wrap_any(file_key: bytes, recipient) -> pq.Stanza:
    if isinstance(recipient, (P256TagRecipient, HybridTagRecipient)):
        return wrap(file_key, recipient)
    if isinstance(recipient, pq.HybridRecipient):
        return pq.hybrid_wrap(file_key, recipient)
    return pq.x25519_wrap(file_key, recipient)


def age_encrypt(
    plaintext: bytes,
    recipients: list,
    armor: bool = False,
    file_key: bytes | None = None,
    nonce: bytes | None = None,
) -> bytes:
    """age.md: a fresh file key wrapped for every recipient (tag or pq_reference kinds), the
    header and MAC, the STREAM payload; post-quantum recipients are not mixed with others
    (age's label rule)."""
    if not recipients:
        raise KeyFormatError("no recipients")
    if len({is_postquantum(r) for r in recipients}) > 1:
        raise KeyFormatError("post-quantum recipients cannot be mixed with classic ones")
    file_key = file_key if file_key is not None else os.urandom(pq.AGE_FILE_KEY_SIZE)
    nonce = nonce if nonce is not None else os.urandom(pq.AGE_NONCE_SIZE)
    header = pq.age_encode_header([wrap_any(file_key, r) for r in recipients], file_key)
    encrypted = header + nonce + pq.stream_encrypt(pq.age_payload_key(file_key, nonce), plaintext)
    return pq.armor_encode(encrypted) if armor else encrypted


def unwrap_any(stanza: pq.Stanza, identity) -> bytes | None:
    if isinstance(identity, (P256TagIdentity, HybridTagIdentity)):
        return unwrap(stanza, identity)
    return pq.age_unwrap(identity, stanza)


def age_decrypt(data: bytes, identities: list) -> bytes:
    """age.md: (un-armor,) parse the header, the first file key any identity unwraps from any
    stanza, the header MAC, the payload. Errors are pq_reference's classes."""
    if pq.is_armored(data):
        data = pq.armor_decode(data)
    header = pq.age_parse_header(data)
    file_key = None
    for identity in identities:
        for stanza in header.stanzas:
            file_key = unwrap_any(stanza, identity)
            if file_key is not None:
                break
        if file_key is not None:
            break
    if file_key is None:
        raise pq.AgeNoMatchError("no identity matched any of the file's recipients")
    if not hmac.compare_digest(pq.age_header_mac(file_key, header.mac_input), header.mac):
        raise pq.AgeHmacError("bad header MAC")
    nonce = data[header.length : header.length + pq.AGE_NONCE_SIZE]
    if len(nonce) != pq.AGE_NONCE_SIZE:
        raise AgeHeaderError("the payload nonce is missing or short")
    payload = data[header.length + pq.AGE_NONCE_SIZE :]
    return b"".join(pq.stream_decrypt(pq.age_payload_key(file_key, nonce), payload))


# ---------------------------------------------------------------------------------------------
# Command line.
# ---------------------------------------------------------------------------------------------


def keygen_text(identity: TagIdentity) -> str:
    """What `age-plugin-tagtest --generate` prints: the recipient as a comment, then the
    identity."""
    return f"# recipient: {identity.recipient()}\n{encode_plugin_identity(identity)}\n"


def command_keygen(args: argparse.Namespace) -> None:
    secret = bytes.fromhex(args.seed) if args.seed else None
    if secret is not None and len(secret) != 32:
        raise KeyFormatError("--seed must be 32 bytes (64 hex digits)")
    sys.stdout.write(keygen_text(generate_identity(args.pq, secret)))


def command_recipient(args: argparse.Namespace) -> None:
    text = pq.read_input(args.identity_file).decode("utf-8", errors="replace")
    for identity in parse_identity_file(text):
        print(identity.recipient())


def command_age_encrypt(args: argparse.Namespace) -> None:
    recipients = [parse_recipient(r) for r in args.recipient]
    data = age_encrypt(pq.read_input(args.input), recipients, armor=args.armor)
    pq.write_output(args.output, data)


def command_age_decrypt(args: argparse.Namespace) -> None:
    identities = []
    for path in args.identity:
        identities += parse_identity_file(pq.read_input(path).decode("utf-8", errors="replace"))
    pq.write_output(args.output, age_decrypt(pq.read_input(args.input), identities))


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tag_reference.py", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)

    keygen = commands.add_parser("keygen", help="a new AGE-PLUGIN-TAGTEST-1 identity")
    keygen.add_argument("--pq", action="store_true", help="MLKEM768-P256 (age1tagpq1...)")
    keygen.add_argument("--seed", metavar="HEX", help="the 32-byte P-256 scalar or hybrid seed")
    keygen.set_defaults(run=command_keygen)

    recipient = commands.add_parser("recipient", help="each identity's recipient")
    recipient.add_argument("identity_file", metavar="IDENTITY_FILE", help="identities, or -")
    recipient.set_defaults(run=command_recipient)

    encrypt = commands.add_parser("age-encrypt", help="encrypt to tag (and other) recipients")
    encrypt.add_argument(
        "-r", dest="recipient", action="append", required=True, metavar="RECIPIENT",
        help="age1tag1..., age1tagpq1..., age1pq1... or age1... (repeatable)",
    )
    encrypt.add_argument("-a", "--armor", action="store_true", help="ASCII armor")
    encrypt.add_argument("-o", dest="output", required=True, metavar="OUT", help="output, or -")
    encrypt.add_argument("input", metavar="IN", help="input file, or -")
    encrypt.set_defaults(run=command_age_encrypt)

    decrypt = commands.add_parser("age-decrypt", help="decrypt an age file (armor detected)")
    decrypt.add_argument(
        "-i", dest="identity", action="append", required=True, metavar="IDENTITY_FILE",
        help="AGE-PLUGIN-TAGTEST-1... or AGE-SECRET-KEY-... lines (repeatable)",
    )
    decrypt.add_argument("-o", dest="output", required=True, metavar="OUT", help="output, or -")
    decrypt.add_argument("input", metavar="IN", help="input file, or -")
    decrypt.set_defaults(run=command_age_decrypt)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        args.run(args)
    except (TagReferenceError, OSError, ValueError) as error:
        print(f"tag_reference.py {args.command}: error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
