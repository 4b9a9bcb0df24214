#!/usr/bin/env python3
"""Self-test of tag_reference.py against known answers and a third implementation, without
warpcrypt.

    python3 tests/interop/tag_reference_selftest.py

Prints one line per check (PASS, FAIL or SKIP) and ends with `N passed, M failed`; exits 1 when
any check failed. What it checks, and why:

  (a) the KEMs against FiloSottile/hpke testdata/hpke-pq.json (tests/vectors/hpke): KEM 0x0010,
      DHKEM(P-256) (DeriveKeyPair from ikmR and ikmE, enc, shared_secret) and KEM 0x0050,
      MLKEM768-P256 (DeriveKeyPair, expandKey, EncapsDerand from ikmE with this file's own
      FIPS 203 encapsulation, Decaps), and for the entry with KDF 1 the key schedule and its
      AES-128-GCM messages. Only the KEM part of the entries with other KDFs is used: those
      KDFs (SHAKE) are no part of the tag stanzas. Then what no vector covers: the own
      ML-KEM encapsulation against `cryptography`'s decapsulation on random keys, and this
      file's HPKE (KEM 0x0010, HKDF-SHA256, ChaCha20-Poly1305, the p256tag suite) against
      `cryptography`'s, both ways;
  (b) age's own test keys: DeriveKeyPair("age-plugin-tagtest") of each KEM gives the two
      recipients hard-coded in filippo.io/age tag/internal/age-plugin-tagtest (its init
      checks them), which pins the P-256 and hybrid key derivations and their Bech32;
  (c) keys: recipients and AGE-PLUGIN-TAGTEST-1 identities round-trip; malformed ones (off the
      curve, the wrong point form, an ML-KEM key over the modulus, a scalar out of range, an
      unknown type byte) are refused;
  (d) stanzas: the tag is HMAC-SHA-256(label, enc || SHA-256(R)[:4])[:4], computed here apart
      from the reference, and NOT the earlier draft's; a stanza for another key is skipped
      (None), a malformed one or one whose tag matches but body does not open is an error;
  (e) pyrage 1.4.0 (rage, a third implementation): files it encrypts to age1tag1 / age1tagpq1
      recipients of keys made here open with tag_reference at the STREAM chunk edges, its
      stanzas carry the tag computed here, it refuses to mix a tagpq recipient with X25519;
      through tests/plugin/age-plugin-tagtest, rage's plugin client opens files made here
      (and, with `-j tagtest`'s empty identity, files made to age's test recipients);
  (f) whole files here: tag and age1pq1 recipients mixed, tagpq with X25519 refused; the
      command line; the plugin's --generate.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
PLUGIN_DIR = ROOT / "tests" / "plugin"
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, str(HERE))

import pq_reference as pq  # noqa: E402
import tag_reference as ref  # noqa: E402
from cryptography.hazmat.primitives import hpke  # noqa: E402
from cryptography.hazmat.primitives.asymmetric import mlkem  # noqa: E402
from cryptography.hazmat.primitives.ciphers.aead import AESGCM  # noqa: E402

HPKE_KAT = ROOT / "tests" / "vectors" / "hpke" / "hpke-pq.json"
SIZES = [0, 1, 65535, 65536, 65537]

# filippo.io/age tag/internal/age-plugin-tagtest/plugin-tagtest.go (commit ba67de8): the
# recipients of tagtest.NewClassicIdentity("age-plugin-tagtest") and NewHybridIdentity(...).
AGE_TAGTEST_CLASSIC = "age1tag1qwe0kafsjrar4txm6heqnhpfuggzr0gvznz7fvygxrlq90u5mq2pysxtw6h"
AGE_TAGTEST_HYBRID = (
    "age1tagpq14h4z7cks9sxftfc8tq4xektt4854ur9rv76tvujdvtzk2fmyywkvh9z2emz3x4epvhz7qdt2v7uksyyq2c"
    "dzf3k04ny0g5sc3u4heqh3r9v4cnwhfjw0a2azpgmnk9xk02wvywt5szcq6q3jvwsjxvkn3tsk52vqjczdcvc398ym4j"
    "6cvqas4w99gkgt7ur3fmt4g873phr23tgxw3f7wgsz9zxz7m8cp27vpq3h5vc8nssjemtr2etmtmqkg4fzn2u9x9zvty"
    "suya5yrytgx482ftx9864h8a6pprarxd3d0qe8nw2at5ekg3tsahtef7kawasxjamyckw2ans6v933vuypcfrra32f89"
    "r2v72mka9hhc55s49xe2khfsq7w9r2zynuzfx4fg6v7jjncsc87rw2yy8qp8hr27edus6zw5xd6m3hax2nxhl2dys979"
    "2z3wp5c034sfkrxe86guj7pfdh7sytzrufl9euhuhyf9w6c7z2nwf7v5v8f2s4gplgvfx4jj4le22k2qn242qkqkcwx7"
    "llfyrct7jm2wcv0ytypeh6h93ezgtd7q6zr428qze3dec5jxlc5xxjetyephp42fljft3s02p0570kjwyfeyjcnks2vg"
    "lkvyus5g9l4z6m0gf8wu22ygfm40028txwjlxvvgnn7c36z783c6tmc9k5nef8nucj6u3ustff5vhtnzhnscsvsz79wz"
    "rkv3sujtntx4wezucy6lp49flmnyydn3khk2xsesw0ekn4u44nzqw2g2rjyrrl7crshlzttgpe0jvqycjzp9kmtz23t3"
    "yu0w9j4n344nnrf88k2jqqfpjxte38pcn0epr879pqsuvajxrkmsas89pvfrzwcewneujn08guj5pvvrtn5hzzg2y6u4"
    "wwjqqxx4x8w65yc4dchf750dft8kgcttt2f6j0j5v8s7tkaua78tte7artdfar544vl0rau79h95mc4ghp887z82s6rq"
    "93txpkvan86n963kagqkldngnkjcn28zdrh38vdxj002zqs9mx7zjvg3ynzdfhfakkynt9fyqpaxpsdrsqrycuhw5ykw"
    "gjz6wldef7xtu6p689234hstxe7v8e5422f2dy8ystn57z3fvy9yfrm4t3lye6ejk5n6x8zqexmql7lx965xcxuuy38x"
    "zyt8j9qprnwgfqgx54l4tnjdpzdde6xgmwtnpkfwvyr7rkgnavvjn6a3e56wtvjx3evmhjjxvukpq5zqrj0s4sntkz3y"
    "eszs5dty8q0q6m7dgp6mjpvaer0c4343g72eycfqzkjupeaemh0n8e935hqs8fh3jgk7fzyxctzuqlx6d2q9jaf8r9wu"
    "4sjxj5w6ppw7m9c3hxrzpcv2uek3kxnndgf2hd99q9v2ux8pjkv29ntslvnvhy09dvcy9578rt89gf4cj4cu79zjxtlj"
    "3dpct6rjme02zj3qspsade96njkkufu9zuq2lk3qwvddpxjkqm2hnpqwck54zug7ctvkgvk325lwkg4q5rf73zkgys5e"
    "9y8jqc96ntdyl4r78lgtw4k5uljk5ttf46s3gc0rq0jwmddnxt875twwq92505zh3zkse5ag2dhjjxyfzkn7xv3j0kv9"
    "r3jzpvgep8fq6z8mar509u4fvnhvthp2ah0r45lsyq0mm6fwkcs30v8k9wzvgt6uvcty6qsjvarjs3htym69zu43m4jd"
    "3k4tllrr8c05v6p6spuhup4hkk2p9fp9lxafe3pntcn4nk83gzhjjpcjwyg7jcyz5uancu0fakgz27up7ymzp2xv3sqy"
    "qewkkqynskw9qkvysrncxj0cy7dt6q8dsseuwmc2urfmcvkykf82wfa54t85hqx8gywhmhzunm2x0d66a4pwl0xl78fh"
    "kces5dpq8pfnp35m5a3u8vdam64zx5s5x9cmnrx3zr066f4f8hlecqnq2fd5quw79ljg3q5nvs6ggmm4gkc"
)

# The same harness as the post-quantum self-test's: one way to count and print checks.
from pq_reference_selftest import RESULTS, check, expect, expect_raises  # noqa: E402


def expect_hex(value: bytes, expected_hex: str, what: str) -> None:
    expect(value.hex() == expected_hex, f"{what}: {value.hex()[:32]}... != {expected_hex[:32]}...")


# ---------------------------------------------------------------------------------------------
# (a) hpke-pq.json known answers, and cross-checks with `cryptography`.
# ---------------------------------------------------------------------------------------------


def kat_entries(kem_id: int) -> list[dict]:
    return [e for e in json.loads(HPKE_KAT.read_text()) if e["kem_id"] == kem_id and e["mode"] == 0]


def suite_name(entry: dict) -> str:
    return f"kem 0x{entry['kem_id']:04x} kdf 0x{entry['kdf_id']:04x} aead 0x{entry['aead_id']:04x}"


def kat_p256(entry: dict) -> None:
    """RFC 9180 7.1.3 DeriveKeyPair(ikmR) = skRm, pkRm; Encap with DeriveKeyPair(ikmE) as the
    ephemeral key gives enc and shared_secret; Decap(enc, skRm) gives it back."""
    sk = ref.dhkem_p256_derive_key_pair(bytes.fromhex(entry["ikmR"]))
    expect_hex(sk, entry["skRm"], "DeriveKeyPair(ikmR)")
    expect_hex(ref.p256_public(sk), entry["pkRm"], "pkRm")
    shared, enc = ref.dhkem_p256_encap(bytes.fromhex(entry["pkRm"]), bytes.fromhex(entry["ikmE"]))
    expect_hex(enc, entry["enc"], "Encap: enc")
    expect_hex(shared, entry["shared_secret"], "Encap: shared_secret")
    decap = ref.dhkem_p256_decap(bytes.fromhex(entry["enc"]), bytes.fromhex(entry["skRm"]))
    expect_hex(decap, entry["shared_secret"], "Decap: shared_secret")


def kat_hybrid(entry: dict) -> None:
    """hpke-pq.md DeriveKeyPair(ikmR) = skRm (the seed); expandKey gives pkRm (1249 bytes);
    EncapsDerand(pkRm, ikmE) gives enc (1153 bytes) and shared_secret, with ML-KEM's
    Encaps_internal computed by this reference; Decaps(skRm, enc) gives it back."""
    seed = ref.hybrid_derive_key_pair(bytes.fromhex(entry["ikmR"]))
    expect_hex(seed, entry["skRm"], "DeriveKeyPair(ikmR)")
    ek = ref.hybrid_expand_key(seed)[2]
    expect_hex(ek, entry["pkRm"], "expandKey: pkRm")
    shared, enc = ref.hybrid_encaps(bytes.fromhex(entry["pkRm"]), bytes.fromhex(entry["ikmE"]))
    expect_hex(enc, entry["enc"], "EncapsDerand: enc")
    expect_hex(shared, entry["shared_secret"], "EncapsDerand: shared_secret")
    decaps = ref.hybrid_decaps(bytes.fromhex(entry["skRm"]), bytes.fromhex(entry["enc"]))
    expect_hex(decaps, entry["shared_secret"], "Decaps: shared_secret")


def kat_key_schedule(entry: dict) -> str:
    """RFC 9180 5.1 KeySchedule (HKDF-SHA256) gives key, base_nonce and exporter_secret; each
    of `encryptions` is the AEAD (AES-128-GCM here) at its sequence number."""
    context = ref.hpke_key_schedule(
        entry["kem_id"],
        bytes.fromhex(entry["shared_secret"]),
        bytes.fromhex(entry["info"]),
        entry["aead_id"],
    )
    expect_hex(context.key, entry["key"], "key")
    expect_hex(context.base_nonce, entry["base_nonce"], "base_nonce")
    expect_hex(context.exporter_secret, entry["exporter_secret"], "exporter_secret")
    for sequence, message in enumerate(entry["encryptions"]):
        expect_hex(context.nonce(sequence), message["nonce"], f"nonce {sequence}")
        sealed = context.seal(
            bytes.fromhex(message["pt"]), bytes.fromhex(message["aad"]), sequence
        )
        expect_hex(sealed, message["ct"], f"ciphertext {sequence}")
    return f"{len(entry['encryptions'])} messages"


def own_mlkem_against_cryptography() -> str:
    """FIPS 203 Encaps_internal written here, decapsulated by `cryptography` (OpenSSL), on
    random keys and messages: both sides must get the same key."""
    rounds = 8
    for _ in range(rounds):
        private = mlkem.MLKEM768PrivateKey.generate()
        ek = private.public_key().public_bytes_raw()
        shared, ciphertext = ref.mlkem768_encaps_internal(ek, os.urandom(32))
        expect(len(ciphertext) == ref.MLKEM768_CT_SIZE, "ciphertext size")
        expect(private.decapsulate(ciphertext) == shared, "decapsulation gives another key")
    return f"{rounds} keys"


def hpke_p256_against_cryptography() -> None:
    """The p256tag suite (0x0010, 0x0001, 0x0003): sealed here, opened by `cryptography`'s
    HPKE; sealed there, opened here."""
    suite = hpke.Suite(hpke.KEM.P256, hpke.KDF.HKDF_SHA256, hpke.AEAD.CHACHA20_POLY1305)
    identity = ref.generate_identity(postquantum=False)
    private = ref.p256_private_key(identity.scalar)
    info, message = ref.P256TAG_LABEL, os.urandom(16)
    shared, enc = ref.dhkem_p256_encap(identity.recipient().pk)
    body = ref.hpke_key_schedule(ref.KEM_P256, shared, info).seal(message)
    expect(suite.decrypt(enc + body, private, info) == message, "cryptography cannot open ours")
    sealed = suite.encrypt(message, private.public_key(), info)
    enc, body = sealed[: ref.P256_UNCOMPRESSED_SIZE], sealed[ref.P256_UNCOMPRESSED_SIZE :]
    context = ref.hpke_key_schedule(ref.KEM_P256, identity.decap(enc), info)
    expect(context.open(body) == message, "we cannot open cryptography's")


def kat_checks() -> None:
    p256, hybrid = kat_entries(ref.KEM_P256), kat_entries(ref.KEM_MLKEM768_P256)
    check("hpke-pq.json: KEM 0x0010 and 0x0050 entries found",
          lambda: expect(p256 and len(hybrid) >= 1, f"{len(p256)} and {len(hybrid)} entries"))
    for entry in p256:
        check(f"hpke-pq.json {suite_name(entry)}: DHKEM(P-256) DeriveKeyPair, Encap, Decap",
              lambda e=entry: kat_p256(e))
    for entry in hybrid:
        check(f"hpke-pq.json {suite_name(entry)}: MLKEM768-P256 DeriveKeyPair, expandKey, "
              "EncapsDerand, Decaps", lambda e=entry: kat_hybrid(e))
    for entry in p256 + hybrid:
        if entry["kdf_id"] == ref.KDF_HKDF_SHA256 and entry["aead_id"] in ref.HPKE_AEAD_SIZES:
            check(f"hpke-pq.json {suite_name(entry)}: key schedule and messages",
                  lambda e=entry: kat_key_schedule(e))
    check("ML-KEM-768 Encaps_internal (FIPS 203, written here) against cryptography's Decaps",
          own_mlkem_against_cryptography)
    check("HPKE DHKEM(P-256)/HKDF-SHA256/ChaCha20-Poly1305 against cryptography's, both ways",
          hpke_p256_against_cryptography)


# ---------------------------------------------------------------------------------------------
# (b) age's test keys, and (c) key encodings.
# ---------------------------------------------------------------------------------------------


def age_tagtest_recipients() -> None:
    classic, hybrid = ref.age_tagtest_identities()
    expect(str(classic.recipient()) == AGE_TAGTEST_CLASSIC, f"classic: {classic.recipient()}")
    expect(str(hybrid.recipient()) == AGE_TAGTEST_HYBRID, "hybrid recipient differs")
    default = ref.parse_plugin_identity(ref.encode_plugin_identity(None))
    expect(default == [classic, hybrid], "the empty identity is not age's two keys")


def recipients_round_trip() -> None:
    for postquantum, prefix in ((False, "age1tag1"), (True, "age1tagpq1")):
        identity = ref.generate_identity(postquantum)
        text = str(identity.recipient())
        expect(text.startswith(prefix), f"{text[:12]} does not start with {prefix}")
        expect(ref.parse_tag_recipient(text) == identity.recipient(), "parse(str(r)) != r")
        expect(ref.parse_tag_recipient(text.upper()) == identity.recipient(), "upper case")
        encoded = ref.encode_plugin_identity(identity)
        expect(encoded.startswith("AGE-PLUGIN-TAGTEST-1") and encoded == encoded.upper(),
               f"identity {encoded[:24]}")
        expect(ref.parse_plugin_identity(encoded) == [identity], "identity round trip")
    expect(len(ref.HybridTagIdentity(bytes(32)).recipient().pk) == 1249, "hybrid key size")


def off_curve_x() -> bytes:
    """An x whose x^3 - 3x + b is not a square mod p: no point has it (Euler's criterion)."""
    p = 2**256 - 2**224 + 2**192 + 2**96 - 1
    b = 0x5AC635D8AA3A93E7B3EBBD55769886BC651D06B0CC53B0F63BCE3C3E27D2604B
    x = 1
    while pow((x**3 - 3 * x + b) % p, (p - 1) // 2, p) != p - 1:
        x += 1
    return x.to_bytes(32, "big")


def malformed_keys_refused() -> None:
    good_classic = ref.generate_identity(False).recipient()
    good_hybrid = ref.generate_identity(True).recipient()
    too_big_ek = bytearray(good_hybrid.ek_pq)
    too_big_ek[0], too_big_ek[1] = 0xFF, too_big_ek[1] | 0x0F  # coefficient 4095 >= q
    compressed_in_hybrid = ref.p256_encode(ref.p256_decode(good_classic.point, True), True)
    cases = {
        "point off the curve": pq.bech32_encode("age1tag", b"\x02" + off_curve_x()),
        "uncompressed point in age1tag1": pq.bech32_encode("age1tag", good_classic.pk),
        "32 bytes in age1tag1": pq.bech32_encode("age1tag", good_classic.point[1:]),
        "1248 bytes in age1tagpq1": pq.bech32_encode("age1tagpq", good_hybrid.pk[:-1]),
        "ML-KEM key over the modulus": pq.bech32_encode(
            "age1tagpq", bytes(too_big_ek) + good_hybrid.point
        ),
        "compressed point in age1tagpq1, padded": pq.bech32_encode(
            "age1tagpq", good_hybrid.ek_pq + compressed_in_hybrid + bytes(32)
        ),
        "another hrp": pq.bech32_encode("age1tagx", good_classic.point),
        "bad checksum": str(good_classic)[:-1] + ("q" if str(good_classic)[-1] != "q" else "p"),
    }
    for name, text in cases.items():
        expect_raises(ref.KeyFormatError, lambda t=text: ref.parse_tag_recipient(t), name)
    identities = {
        "scalar 0": b"\x01" + bytes(32),
        "scalar n": b"\x01" + ref.P256_ORDER.to_bytes(32, "big"),
        "type byte 3": b"\x03" + bytes(32),
        "31-byte seed": b"\x02" + bytes(31),
    }
    for name, payload in identities.items():
        text = pq.bech32_encode(ref.HRP_TAGTEST_IDENTITY, payload).upper()
        expect_raises(ref.KeyFormatError, lambda t=text: ref.parse_plugin_identity(t), name)


def key_checks() -> None:
    check("age's age-plugin-tagtest recipients = DeriveKeyPair(\"age-plugin-tagtest\") here",
          age_tagtest_recipients)
    check("keys: age1tag1, age1tagpq1 and AGE-PLUGIN-TAGTEST-1 round trips",
          recipients_round_trip)
    check("keys: malformed recipients and identities refused", malformed_keys_refused)


# ---------------------------------------------------------------------------------------------
# (d) Stanzas.
# ---------------------------------------------------------------------------------------------


def independent_tag(recipient, enc: bytes) -> bytes:
    """The tag, from its definition, apart from the reference's function."""
    r = recipient.point  # compressed for p256tag, uncompressed for mlkem768p256tag
    return hmac.new(recipient.label, enc + hashlib.sha256(r).digest()[:4], "sha256").digest()[:4]


def draft_tag(recipient, enc: bytes) -> bytes:
    """The earlier draft (tag.go 6ece9e4): HKDF-Extract(label, P-256 part of enc || the
    uncompressed point)."""
    return hmac.new(recipient.label, enc[-65:] + recipient.pk[-65:], "sha256").digest()[:4]


def stanza_shape(postquantum: bool) -> None:
    identity = ref.generate_identity(postquantum)
    recipient = identity.recipient()
    file_key = os.urandom(16)
    stanza = ref.wrap(file_key, recipient)
    expect(stanza.type == ("mlkem768p256tag" if postquantum else "p256tag"), stanza.type)
    expect(len(stanza.args) == 2, "not two arguments")
    tag, enc = pq.b64_decode(stanza.args[0].encode()), pq.b64_decode(stanza.args[1].encode())
    expect(len(tag) == 4 and len(enc) == recipient.enc_size and len(stanza.body) == 32, "sizes")
    expect(enc[-65] == 4, "the P-256 part of enc is not an uncompressed point")
    expect(tag == independent_tag(recipient, enc), "tag differs from its definition")
    expect(tag != draft_tag(recipient, enc), "tag equals the earlier draft's")
    expect(ref.unwrap(stanza, identity) == file_key, "unwrap")
    stranger = ref.generate_identity(postquantum)
    expect(ref.unwrap(stanza, stranger) is None, "a stranger's identity unwrapped")
    other_kind = ref.generate_identity(not postquantum)
    expect(ref.unwrap(stanza, other_kind) is None, "the other kind's identity unwrapped")
    lines = ref.wrap_lines(file_key, recipient)
    expect(lines.startswith(f"-> {stanza.type} ".encode()) and lines.endswith(b"\n"), "lines")


def stanza_refusals(postquantum: bool) -> None:
    """tagtest.go Unwrap's errors; and a stanza of a tag that is not ours is None before its
    enc is even decoded as a point."""
    identity = ref.generate_identity(postquantum)
    recipient = identity.recipient()
    stanza = ref.wrap(os.urandom(16), recipient)
    tag_b64, enc_b64 = stanza.args
    enc = pq.b64_decode(enc_b64.encode())
    b64 = lambda data: pq.b64_encode(data).decode()  # noqa: E731

    def edited(args=None, body=None):
        return pq.Stanza(stanza.type, args if args is not None else stanza.args,
                         body if body is not None else stanza.body)

    bad_point = enc[:-65] + b"\x04" + bytes(64)  # (0, 0) is not on the curve
    malformed = {
        "one argument": edited([enc_b64]),
        "three arguments": edited([tag_b64, enc_b64, "x"]),
        "3-byte tag": edited([b64(b"abc"), enc_b64]),
        "5-byte tag": edited([b64(b"abcde"), enc_b64]),
        "padded tag": edited([tag_b64 + "==", enc_b64]),
        "short enc": edited([tag_b64, b64(enc[:-1])]),
        "long enc": edited([tag_b64, b64(enc + b"\x00")]),
        "31-byte body": edited(body=stanza.body[:31]),
        "33-byte body": edited(body=stanza.body + b"\x00"),
        "tag matches, body flipped": edited(body=stanza.body[:-1] + bytes([stanza.body[-1] ^ 1])),
        "tag matches, enc off the curve": edited(
            [b64(independent_tag(recipient, bad_point)), b64(bad_point)]
        ),
    }
    for name, bad in malformed.items():
        expect_raises(ref.AgeHeaderError, lambda s=bad: ref.unwrap(s, identity), name)
    not_ours = bad_point if independent_tag(recipient, bad_point) != stanza.args[0] else enc
    wrong_tag = edited([b64(bytes(a ^ 0xFF for a in pq.b64_decode(tag_b64.encode()))),
                        b64(not_ours)])
    expect(ref.unwrap(wrong_tag, identity) is None, "a stanza with another tag was not skipped")


def stanza_checks() -> None:
    for postquantum, kind in ((False, "p256tag"), (True, "mlkem768p256tag")):
        check(f"stanza {kind}: shape, tag from its definition (not the draft's), unwrap",
              lambda p=postquantum: stanza_shape(p))
        check(f"stanza {kind}: malformed stanzas refused, another tag skipped",
              lambda p=postquantum: stanza_refusals(p))


# ---------------------------------------------------------------------------------------------
# (e) pyrage, and rage's plugin client through tests/plugin/age-plugin-tagtest.
# ---------------------------------------------------------------------------------------------


class PluginCallbacks:
    """pyrage.plugin's callbacks: no question has an answer (the test plugin asks none)."""

    def display_message(self, message):
        pass

    def confirm(self, message, yes_string, no_string):
        return False

    def request_public_string(self, description):
        return None

    def request_passphrase(self, description):
        return None


def tag_stanzas(data: bytes) -> list:
    """The header's p256tag and mlkem768p256tag stanzas (rage adds grease stanzas)."""
    header = pq.age_parse_header(data)
    return [s for s in header.stanzas if s.type in ("p256tag", "mlkem768p256tag")]


def pyrage_to_reference(pyrage, postquantum: bool, size: int) -> None:
    identity = ref.generate_identity(postquantum)
    recipient = identity.recipient()
    module = pyrage.tagpq if postquantum else pyrage.tag
    plaintext = os.urandom(size)
    encrypted = pyrage.encrypt(plaintext, [module.Recipient.from_str(str(recipient))])
    stanzas = tag_stanzas(encrypted)
    expect(len(stanzas) == 1 and stanzas[0].type == recipient.stanza_type, "stanza types")
    tag, enc = ref.stanza_tag_and_enc(stanzas[0], recipient.enc_size)
    expect(tag == independent_tag(recipient, enc), "rage's tag is not the one computed here")
    expect(ref.age_decrypt(encrypted, [identity]) == plaintext, "plaintext differs")
    stranger = ref.generate_identity(postquantum)
    expect_raises(pq.AgeNoMatchError, lambda: ref.age_decrypt(encrypted, [stranger]),
                  "a stranger opened rage's file")


def pyrage_refuses_mixing(pyrage) -> None:
    tagpq = pyrage.tagpq.Recipient.from_str(str(ref.generate_identity(True).recipient()))
    tag = pyrage.tag.Recipient.from_str(str(ref.generate_identity(False).recipient()))
    x25519 = pyrage.x25519.Identity.generate().to_public()
    expect_raises(pyrage.EncryptError, lambda: pyrage.encrypt(b"x", [tagpq, x25519]),
                  "rage mixed tagpq with X25519")
    pyrage.encrypt(b"x", [tag, x25519])  # both classic: allowed


def plugin_environment() -> None:
    """age-plugin-tagtest on PATH, with this python's directory before the rest, for its
    `#!/usr/bin/env python3` to find `cryptography`."""
    parts = [str(PLUGIN_DIR), str(Path(sys.executable).parent), os.environ.get("PATH", "")]
    os.environ["PATH"] = os.pathsep.join(parts)


def rage_plugin_client(pyrage, postquantum: bool) -> None:
    """A file whose first stanza is another key's of the same kind (the plugin must skip it by
    its tag), opened with an identity of the other kind, then the right one."""
    identity, other = ref.generate_identity(postquantum), ref.generate_identity(postquantum)
    other_kind = ref.generate_identity(not postquantum)
    plaintext = os.urandom(65537)
    encrypted = ref.age_encrypt(plaintext, [other.recipient(), identity.recipient()])
    plugin_identities = [pyrage.plugin.Identity.from_str(ref.encode_plugin_identity(i))
                         for i in (other_kind, identity)]
    plugin = pyrage.plugin.IdentityPluginV1("tagtest", plugin_identities, PluginCallbacks())
    expect(pyrage.decrypt(encrypted, [plugin]) == plaintext, "plaintext differs")


def rage_plugin_default_identity(pyrage) -> None:
    """`-j tagtest`: the empty identity, age's two keys, opens files made to age's test
    recipients (parsed from age's strings, not derived here)."""
    for text in (AGE_TAGTEST_CLASSIC, AGE_TAGTEST_HYBRID):
        encrypted = ref.age_encrypt(b"age's test key\n", [ref.parse_tag_recipient(text)])
        default = pyrage.plugin.Identity.default_for_plugin("tagtest")
        plugin = pyrage.plugin.IdentityPluginV1("tagtest", [default], PluginCallbacks())
        expect(pyrage.decrypt(encrypted, [plugin]) == b"age's test key\n", text[:12])


def pyrage_checks() -> None:
    try:
        import pyrage
    except ImportError:
        RESULTS["failed"] += 1
        print("FAIL pyrage: not importable; pip install pyrage==1.4.0 into this python "
              "(scripts/deps.sh does, into build/interop-venv)")
        return
    for postquantum, kind in ((False, "age1tag1"), (True, "age1tagpq1")):
        for size in SIZES:
            check(f"pyrage -> reference: {kind}, {size} B",
                  lambda p=postquantum, s=size: pyrage_to_reference(pyrage, p, s))
    check("pyrage refuses age1tagpq1 beside X25519, takes age1tag1 beside it",
          lambda: pyrage_refuses_mixing(pyrage))
    plugin_environment()
    for postquantum, kind in ((False, "age1tag1"), (True, "age1tagpq1")):
        check(f"reference -> rage's plugin client + age-plugin-tagtest: {kind}",
              lambda p=postquantum: rage_plugin_client(pyrage, p))
    check("rage's plugin client + age-plugin-tagtest, default identity: age's test recipients",
          lambda: rage_plugin_default_identity(pyrage))


# ---------------------------------------------------------------------------------------------
# (f) Whole files, mixing, the command line, the plugin's --generate.
# ---------------------------------------------------------------------------------------------


def file_round_trips() -> None:
    tag, tagpq = ref.generate_identity(False), ref.generate_identity(True)
    hybrid, x25519 = pq.HybridIdentity(os.urandom(32)), pq.X25519Identity(os.urandom(32))
    plaintext = os.urandom(65537)
    mixed_pq = ref.age_encrypt(plaintext, [tagpq.recipient(), hybrid.recipient()], armor=True)
    for identity in (tagpq, hybrid):
        expect(ref.age_decrypt(mixed_pq, [identity]) == plaintext, "tagpq + age1pq1")
    mixed_classic = ref.age_encrypt(plaintext, [tag.recipient(), x25519.recipient()])
    for identity in (tag, x25519):
        expect(ref.age_decrypt(mixed_classic, [identity]) == plaintext, "tag + X25519")
    expect_raises(ref.KeyFormatError,
                  lambda: ref.age_encrypt(b"x", [tagpq.recipient(), x25519.recipient()]),
                  "tagpq + X25519 accepted")
    expect_raises(ref.KeyFormatError,
                  lambda: ref.age_encrypt(b"x", [tag.recipient(), tagpq.recipient()]),
                  "tag + tagpq accepted")
    tampered = mixed_classic[:-1] + bytes([mixed_classic[-1] ^ 1])
    expect_raises(pq.AgePayloadError, lambda: ref.age_decrypt(tampered, [tag]), "tampered")


def cli_round_trip() -> None:
    with tempfile.TemporaryDirectory() as scratch:
        d = Path(scratch)

        def cli(*args: str) -> subprocess.CompletedProcess:
            command = [sys.executable, str(HERE / "tag_reference.py"), *args]
            result = subprocess.run(command, capture_output=True, timeout=120, cwd=d)
            expect(result.returncode == 0, f"{args[0]}: {result.stderr.decode().strip()}")
            return result

        identity_text = cli("keygen", "--pq").stdout.decode()
        (d / "id").write_text(identity_text + cli("keygen").stdout.decode())
        recipients = cli("recipient", "id").stdout.decode().split()
        expect(len(recipients) == 2 and recipients[0] in identity_text, "recipient")
        expect(recipients[0].startswith("age1tagpq1") and recipients[1].startswith("age1tag1"),
               f"recipients {[r[:12] for r in recipients]}")
        (d / "in").write_bytes(os.urandom(1000))
        cli("age-encrypt", "-r", recipients[0], "-a", "-o", "out.age", "in")
        cli("age-decrypt", "-i", "id", "-o", "back", "out.age")
        expect((d / "back").read_bytes() == (d / "in").read_bytes(), "plaintext differs")
        seeded = cli("keygen", "--seed", "01" * 32).stdout.decode()
        expect(seeded == cli("keygen", "--seed", "01" * 32).stdout.decode(), "--seed")


def plugin_generate() -> None:
    plugin = PLUGIN_DIR / "age-plugin-tagtest"
    expect(os.access(plugin, os.X_OK), f"{plugin} is not executable")
    for flags, prefix in (([], "age1tag1"), (["--pq"], "age1tagpq1")):
        result = subprocess.run([sys.executable, str(plugin), "--generate", *flags],
                                capture_output=True, timeout=60)
        expect(result.returncode == 0, result.stderr.decode().strip())
        lines = result.stdout.decode().splitlines()
        expect(len(lines) == 2 and lines[0].startswith(f"# recipient: {prefix}"), f"{lines}")
        identities = ref.parse_plugin_identity(lines[1])
        expect(str(identities[0].recipient()) == lines[0].split(": ")[1], "recipient differs")


def file_checks() -> None:
    check("files: tagpq + age1pq1 and tag + X25519 open with each; tagpq + X25519 refused",
          file_round_trips)
    check("command line: keygen, recipient, age-encrypt -a, age-decrypt", cli_round_trip)
    check("age-plugin-tagtest --generate [--pq]: a recipient comment and its identity",
          plugin_generate)


def main() -> int:
    kat_checks()
    key_checks()
    stanza_checks()
    pyrage_checks()
    file_checks()
    print(f"{RESULTS['passed']} passed, {RESULTS['failed']} failed")
    return 1 if RESULTS["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
