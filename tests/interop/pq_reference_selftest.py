#!/usr/bin/env python3
"""Self-test of pq_reference.py against known data, without warpcrypt.

    python3 tests/interop/pq_reference_selftest.py

Prints one line per check (PASS, FAIL or SKIP) and ends with `N passed, M failed`; exits 1 when
any check failed. What it checks:

  (a) every hybrid age vector of C2SP/CCTV (tests/vectors/age-cctv: names with `hybrid` or
      `mlkem`, or a `AGE-SECRET-KEY-PQ-` identity) gives its expected outcome; then the other
      vectors too, except those that need a passphrase (scrypt is not implemented);
  (b) age round trips at 0, 1, 65535, 65536, 65537 and 3 MiB + 17 bytes, binary and armored, to
      1 and 3 post-quantum recipients (and X25519 ones), with the expected STREAM size; the
      no-mixing rule; the command line (keygen, recipient, age-encrypt, age-decrypt);
  (c) keys: the X25519 recipient of the identity 00..1f (SPEC 9.1), age.md's example keys of
      both types, BIP-173 strings, strict base64;
  (d) the MLKEM768-X25519 KEM computed step by step (as warp's type-4 slots use it) against the
      known answer of FiloSottile/hpke testdata/hpke-pq.json (tests/vectors/hpke);
  (e) warp files made by warpcrypt: SPEC 9's and 9.1's worked examples (values included) and
      the unknown-slot-type files of formats/warp/testdata;
  (f) warp files with type-4 slots made here by a test-only writer (SPEC 4.8, writer side; its
      XXH3 fields are zero, which the reference does not read): both suites, several sizes,
      unknown slots skipped, wrong identities and tampering refused.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import subprocess
import sys
import tempfile
import traceback
import zlib
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))

import pq_reference as ref  # noqa: E402
from cryptography.hazmat.primitives.asymmetric import mlkem  # noqa: E402

CCTV = ROOT / "tests" / "vectors" / "age-cctv"
HPKE_KAT = ROOT / "tests" / "vectors" / "hpke" / "hpke-pq.json"
WARP_TESTDATA = ROOT / "formats" / "warp" / "testdata"

RESULTS = {"passed": 0, "failed": 0}


def check(name: str, function) -> None:
    """Run one check: it passes when `function` returns None or a string (a detail to show)
    and fails when it raises (AssertionError or anything else)."""
    try:
        detail = function()
    except Exception as error:  # a failed check, whatever the reason
        RESULTS["failed"] += 1
        reason = str(error) or type(error).__name__
        print(f"FAIL {name}: {reason}")
        if not isinstance(error, AssertionError):
            traceback.print_exc(limit=3, file=sys.stdout)
        return
    RESULTS["passed"] += 1
    print(f"PASS {name}" + (f" ({detail})" if detail else ""))


def expect(condition: bool, message: str) -> None:
    if not condition:
        raise AssertionError(message)


def expect_raises(kind, function, message: str):
    """`function()` must raise `kind`; returns the exception."""
    try:
        function()
    except kind as error:
        return error
    raise AssertionError(message)


# ---------------------------------------------------------------------------------------------
# (a) C2SP/CCTV age vectors. Format: tests/vectors/README.md, last section.
# ---------------------------------------------------------------------------------------------

CCTV_KEYS = {
    "expect",
    "payload",
    "identity",
    "passphrase",
    "armored",
    "file key",
    "comment",
    "compressed",
}


def parse_cctv_vector(path: Path) -> dict | None:
    """`key: value` lines, an empty line, the age file (zlib-compressed if `compressed: zlib`).
    Returns None for a file with an unknown key (to be ignored, says the README)."""
    raw = path.read_bytes()
    head, _, body = raw.partition(b"\n\n")
    vector = {"identity": [], "passphrase": [], "path": path}
    for line in head.decode().split("\n"):
        key, _, value = line.partition(": ")
        if key not in CCTV_KEYS:
            return None
        if key in ("identity", "passphrase"):
            vector[key].append(value)
        else:
            vector[key] = value
    vector["file"] = zlib.decompress(body) if vector.get("compressed") == "zlib" else body
    return vector


def is_hybrid_vector(vector: dict) -> bool:
    name = vector["path"].name
    return (
        "hybrid" in name
        or "mlkem" in name
        or any(i.upper().startswith("AGE-SECRET-KEY-PQ-") for i in vector["identity"])
    )


def cctv_outcome(vector: dict) -> tuple[str, bytes | None]:
    """Decrypt as the vector says; the outcome in the vectors' words, and the released bytes."""
    identities = [ref.parse_identity(i) for i in vector["identity"]]
    try:
        plaintext = ref.age_decrypt(
            vector["file"], identities, armored=vector.get("armored") == "yes"
        )
    except ref.AgePayloadError as error:
        return "payload failure", error.released
    except ref.AgeArmorError:
        return "armor failure", None
    except ref.AgeHmacError:
        return "HMAC failure", None
    except ref.AgeNoMatchError:
        return "no match", None
    except ref.AgeHeaderError:
        return "header failure", None
    return "success", plaintext


def check_cctv_vector(vector: dict) -> str:
    """The expected outcome; for a header failure any failure will do, but not success. Where
    the vector gives `payload`, the SHA-256 of what was released must match it."""
    expected = vector["expect"]
    outcome, released = cctv_outcome(vector)
    if expected == "header failure":
        expect(outcome != "success", "expected a header failure, got success")
    else:
        expect(outcome == expected, f"expected {expected}, got {outcome}")
    if "payload" in vector and released is not None:
        expect(hashlib.sha256(released).hexdigest() == vector["payload"], "payload SHA-256 differs")
    return f"{expected}" + ("" if outcome == expected else f", got {outcome}")


def cctv_checks() -> None:
    vectors = []
    for path in sorted(CCTV.iterdir()):
        if path.name in ("README.md", "LICENSE"):
            continue
        vector = parse_cctv_vector(path)
        if vector is None:
            print(f"SKIP cctv {path.name}: unknown header key")
            continue
        vectors.append(vector)
    hybrid = [v for v in vectors if is_hybrid_vector(v)]
    check(
        "cctv: at least 19 hybrid vectors found",
        lambda: expect(len(hybrid) >= 19, f"{len(hybrid)} found"),
    )
    for vector in hybrid:
        check(f"cctv hybrid {vector['path'].name}", lambda v=vector: check_cctv_vector(v))
    for vector in vectors:
        if vector in hybrid:
            continue
        if vector["passphrase"]:
            print(f"SKIP cctv {vector['path'].name}: needs scrypt, not implemented")
            continue
        check(f"cctv {vector['path'].name}", lambda v=vector: check_cctv_vector(v))


# ---------------------------------------------------------------------------------------------
# (b) age round trips, through the module and through the command line.
# ---------------------------------------------------------------------------------------------

SIZES = [0, 1, 65535, 65536, 65537, 3 * 1024 * 1024 + 17]


def expected_payload_size(length: int) -> int:
    """age.md "Payload": nonce, then one 16-byte tag per 64 KiB chunk, at least one chunk."""
    chunks = max(1, -(-length // ref.STREAM_CHUNK_SIZE))
    return ref.AGE_NONCE_SIZE + length + ref.AGE_TAG_SIZE * chunks


def age_round_trip(size: int, armor: bool, count: int, hybrid: bool) -> str:
    make = ref.HybridIdentity if hybrid else ref.X25519Identity
    identities = [make(os.urandom(32)) for _ in range(count)]
    plaintext = os.urandom(size)
    encrypted = ref.age_encrypt(plaintext, [i.recipient() for i in identities], armor=armor)
    binary = ref.armor_decode(encrypted) if armor else encrypted
    expect(
        encrypted.startswith(ref.ARMOR_BEGIN) == armor,
        "armor expected" if armor else "no armor expected",
    )
    header = ref.age_parse_header(binary)
    stanza_type = ref.HYBRID_STANZA_TYPE if hybrid else ref.X25519_STANZA_TYPE
    expect([s.type for s in header.stanzas] == [stanza_type] * count, "unexpected stanzas")
    expect(len(binary) - header.length == expected_payload_size(size), "unexpected STREAM size")
    stranger = make(os.urandom(32))
    for identity in identities:  # each recipient, after an identity that matches nothing
        expect(ref.age_decrypt(encrypted, [stranger, identity]) == plaintext, "plaintext differs")
    expect_raises(
        ref.AgeNoMatchError, lambda: ref.age_decrypt(encrypted, [stranger]), "a stranger decrypted"
    )
    return f"{len(encrypted)} bytes"


def age_mixing_refused() -> None:
    hybrid = ref.HybridIdentity(os.urandom(32)).recipient()
    classic = ref.X25519Identity(os.urandom(32)).recipient()
    expect_raises(
        ref.KeyFormatError, lambda: ref.age_encrypt(b"x", [hybrid, classic]), "mixing accepted"
    )
    mixed = ref.age_encrypt(b"x", [classic, hybrid], allow_mixed=True)
    expect(len(ref.age_parse_header(mixed).stanzas) == 2, "allow_mixed gave no mixed file")


def age_tampering_refused() -> None:
    identity = ref.HybridIdentity(os.urandom(32))
    encrypted = ref.age_encrypt(b"hello", [identity.recipient()])
    header = ref.age_parse_header(encrypted)
    tampered_payload = encrypted[:-1] + bytes([encrypted[-1] ^ 1])
    expect_raises(
        ref.AgePayloadError, lambda: ref.age_decrypt(tampered_payload, [identity]), "payload tamper"
    )
    mac_at = header.length - 3  # a MAC character (the last is followed by LF)
    other = b"A" if encrypted[mac_at : mac_at + 1] != b"A" else b"B"
    tampered_mac = encrypted[:mac_at] + other + encrypted[mac_at + 1 :]
    expect_raises(
        ref.PQReferenceError, lambda: ref.age_decrypt(tampered_mac, [identity]), "MAC tamper"
    )


def run_cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    command = [sys.executable, str(HERE / "pq_reference.py"), *args]
    return subprocess.run(command, capture_output=True, timeout=120, cwd=cwd)


def cli_round_trip() -> None:
    with tempfile.TemporaryDirectory() as scratch:
        d = Path(scratch)

        def cli(*args: str) -> subprocess.CompletedProcess:
            return run_cli(*args, cwd=d)

        keygen = cli("keygen", "--seed", "00" * 32)
        lines = keygen.stdout.decode().splitlines()
        expect(keygen.returncode == 0 and len(lines) == 3, "keygen: three lines")
        expect(lines[0].startswith("# created: "), "keygen: # created")
        expect(lines[1].startswith("# public key: age1pq1"), "keygen: # public key")
        expect(lines[2].startswith("AGE-SECRET-KEY-PQ-1"), "keygen: identity line")
        pq_recipient = lines[1][len("# public key: ") :]
        classic = cli("keygen", "--x25519").stdout.decode().splitlines()
        classic_recipient = classic[1][len("# public key: ") :]
        (d / "pq.key").write_text("\n".join(lines) + "\n")
        (d / "both.key").write_text("\n".join(classic) + "\n\n" + "\n".join(lines) + "\r\n")
        expect(cli("recipient", "pq.key").stdout.decode() == pq_recipient + "\n", "recipient")
        both = cli("recipient", "both.key").stdout.decode().splitlines()
        expect(both == [classic_recipient, pq_recipient], "recipient of a two-identity file")
        (d / "recipients.txt").write_text(f"# a comment\n{pq_recipient}\n")
        plaintext = os.urandom(70000)
        (d / "in").write_bytes(plaintext)
        for flags in ([], ["-a"]):
            encrypt = cli("age-encrypt", "-R", "recipients.txt", *flags, "-o", "out.age", "in")
            expect(encrypt.returncode == 0, f"age-encrypt {flags} failed: {encrypt.stderr!r}")
            decrypt = cli("age-decrypt", "-i", "both.key", "-o", "out", "out.age")
            expect(decrypt.returncode == 0, f"age-decrypt {flags} failed")
            expect((d / "out").read_bytes() == plaintext, f"age-decrypt {flags}: plaintext differs")
            (d / "out").unlink()
        (d / "wrong.key").write_bytes(cli("keygen").stdout)
        failed = cli("age-decrypt", "-i", "wrong.key", "-o", "out", "out.age")
        expect(failed.returncode == 1 and b"error" in failed.stderr, "a wrong identity: not exit 1")
        expect(not (d / "out").exists(), "output written on failure")
        mixed = cli("age-encrypt", "-r", classic_recipient, "-r", pq_recipient, "-o", "m.age", "in")
        expect(mixed.returncode == 1, "mixed recipients accepted")


def round_trip_checks() -> None:
    for size in SIZES:
        for armor in (False, True):
            for count in (1, 3):
                form = "armored" if armor else "binary"
                label = f"age round trip: {size} bytes, {form}, {count} pq recipient(s)"
                check(label, lambda s=size, a=armor, c=count: age_round_trip(s, a, c, hybrid=True))
    for size in (0, 65536, 65537):
        check(
            f"age round trip: {size} bytes, binary, 2 X25519 recipients",
            lambda s=size: age_round_trip(s, False, 2, hybrid=False),
        )
    check("age: post-quantum and X25519 recipients are not mixed", age_mixing_refused)
    check("age: a flipped payload bit and a changed MAC are refused", age_tampering_refused)
    check("cli: keygen, recipient, age-encrypt (-R, -a), age-decrypt, failure exit", cli_round_trip)


# ---------------------------------------------------------------------------------------------
# (c) Keys, Bech32, base64.
# ---------------------------------------------------------------------------------------------

AGE_MD_PQ_IDENTITY = "AGE-SECRET-KEY-PQ-1XX76JRALNLXDMEW0CRK45QMCCH4X06SE84UN3VPM33W6HWDX0H3SK3ZQFR"
AGE_MD_PQ_RECIPIENT = (  # C2SP age.md, the hybrid type's example (1959 characters)
    "age1pq1x34nzsvr0rxjsgdn8zgyhfe8j7ceq5r9rdelkjuh3y235jzxshfg87pzf5zrqtzdxz95paef6caq5aapd"
    "mwjjqpjfdyxnzr2zampc3uxy0dg4z2n2gm9su72p0pc3u0jvev55l694v78snxg3yzvcl7yda0eyytqj6a0ec477"
    "lnhcy5hzpz4zq3pxanve4cn62gqj3pjy5lqj9c6kyj4v2z8alktn8zh99970x79gjkv7522hv9kfz35zsnxhsx8w"
    "wtmu9cy3ftzjgwcp4sshn3llnylnpdsyz5jm72vefv4x5vfwytrefxg4wq3mv42wcrvkj742479zrxzpvp2p3e9f"
    "ed9f0739vcu80r7ma28qfhnvlv4gfzel9q654dj3zmuvvz893azhxdvs9fxd0r7jzchzcfcs5mkyyjxhw0n2z6dv"
    "p9yn9qfdp29h0azxqyjw6v7fhyuzj7zel0uq6j9rd7wgrpz7mf5dnj43jwsgvrc8qcnhy7tu6dkdujuxzkp9xj43"
    "xe8h92ktre2a3u3s8mm5mrp9nr9pwkgtz4mdlq9hgn4fps4k57ff6wddn2fy23t47sm20r8km8sd2pcyyafnet8f"
    "0dajsrlyjeah4n3mssr6aseevuuskdvq5lzguyvpgwpta742c6698vgutzqgny8usfg0w2he7kq5vyxjd0f9hqg8"
    "xk26y9e4th0gezq92q4cpp5p2y9hf5f2cje5l0c3sa3a2qxmm38pxxvhxh99yzmfz0zk7r2s64nnwjhkfgfr3gf8"
    "xnmppcgmaykvh5sh6g7vk9790rf8ws0axmr2t7z8aae5fq2029uvcn2ghgt4fu4wgwdc0k0cz52qkvwmuzj8p8k5"
    "jgf3xzk5zmrkavjekjrpeq408xz3zxazwkc6tyfmhayrkfpjhwtz5mp8j8guqe43k2q6m2kte03vrw27y3wmqyu5"
    "etmt9dnkwcnnpmu9gz9dekfhdevf42ucshphnrk38ra6hx8w5f8q5ru0xdhrjxmwqf6cused7zc5xvq43r0zscjg"
    "lpwlptpwydhqw64xz7ptjdyeyzpq2zkxtmzg29gzjpvzva4d3l0cenn9xs297wf4y4ukwrunf57xj6pm7nvrkwvt"
    "rt8hwcmgv8x7ajw7258ugf9wvkmk4052ekg87tw5vnx8nq2swyzv77v8yqlwsenvamr0zssknwts8rrhfuwj7yky"
    "snq9jxy0uv3kuyt22djszjdtvpz6d0s0kwh8ryynddzud92emeyvvyqktd0jtj7rvvg5gch25v8smlvny3kvn5ga"
    "gyz475ze2y6q466xqmz2n3hs77lddeqyta2nch5k2u5yacuk9ywnwfdzvyejnucz724hj77hrrmakm7pr3kxsrxq"
    "22ejexlud9fy2kdqmkg5yncz7jm5wv2qjk5w5kvcpqsry2yqffh2la52dxfjkjq5rzhjzeyn6dupn0qwtyv7s4lw"
    "g3xdarsdlwe2y3tujy480y7z39q259fzx6jhd2j0f5hagqpcpees7hzc2yrk5cy788uk3s7qvp5cpepx24gvws3m"
    "2g433exgwppnkjscec8qu4y9z9r7vccexjcjaen42245lmgmxmuavg9alej92322gvvyy2t6267v09ch64y0m53j"
    "ff0vjj96s0ypk60hr3jw4myd6m5hpn3xjstx7tl2szhpr5qe8jj08ydjc4wy2rch2fhuy3pdfjax5awe9j99ly5h"
    "kntzz9fe5zatgjvzdd0kgtxs25njnajyf6ssekp7gelxquusn4pt25czh3scj68kq79wdn5tgm6yvm9nzavrg043"
    "x3msnygf8dweknw5jmqd0uvny6ttsn09508k0c55zfnegrm9efhxpfqdkmhh6gjtqmwze9pyyzk3tlhl53k2ykx3"
    "qheyty7saeq0d3fzv49zc0k"
)


def identity_to_recipient(identity: str, recipient: str) -> None:
    parsed = ref.parse_identity(identity)
    expect(str(parsed.recipient()) == recipient, "recipient differs")
    expect(str(parsed) == identity.upper(), "identity does not re-encode")
    expect(str(ref.parse_recipient(recipient)) == recipient, "recipient does not re-encode")


def bech32_bip173() -> None:
    valid = [
        "A12UEL5L",
        "a12uel5l",
        "abcdef1qpzry9x8gf2tvdw0s3jn54khce6mua7lmqqqxw",
        "split1checkupstagehandshakeupstreamerranterredcaperred2y9e3w",
        "?1ezyfcl",
    ]
    invalid = [
        "pzry9x0s0muk",
        "1pzry9x0s0muk",
        "x1b4n0q5v",
        "li1dgmt3",
        "A1G7SGD8",
        "10a06t8",
        "1qzzfhee",
        "a12UEL5L",
        "de1lg7wt\xff",
    ]
    for text in valid:
        hrp, _ = ref.bech32_decode(text)
        expect(hrp == text.lower()[: text.rfind("1")], f"{text}: wrong hrp")
    for text in invalid:
        expect_raises(ValueError, lambda t=text: ref.bech32_decode(t), f"{text!r} accepted")
    long_string = ref.bech32_encode("age1pq", bytes(1216))
    expect(
        len(long_string) > 90 and ref.bech32_decode(long_string) == ("age1pq", bytes(1216)),
        "no length limit",
    )
    # non-zero padding bits: 1 byte = 8 bits, padded to two 5-bit words with 2 zero bits
    words = [0, 1]
    forged = "age1" + "".join(
        ref.BECH32_CHARSET[w] for w in words + ref.bech32_create_checksum("age", words)
    )
    expect_raises(ValueError, lambda: ref.bech32_decode(forged), "non-zero padding accepted")


def strict_base64() -> None:
    expect(
        ref.b64_decode(b"AAEC") == b"\x00\x01\x02" and ref.b64_decode(b"") == b"", "valid base64"
    )
    for text in (b"AAE=", b"AAF", b"AA\nEC", b"AAE C", b"A", b"AAE-"):
        expect_raises(ValueError, lambda t=text: ref.b64_decode(t), f"{text!r} accepted")
    expect(ref.b64_decode_padded(b"AAE=") == b"\x00\x01", "valid padded base64")
    for text in (b"AAF=", b"AAE", b"AA==AA==", b"A==="):
        expect_raises(
            ValueError, lambda t=text: ref.b64_decode_padded(t), f"{text!r} accepted (padded)"
        )


def armor_rules() -> None:
    for size in (0, 1, 47, 48, 49, 96, 1000):
        data = os.urandom(size)
        armored = ref.armor_encode(data)
        expect(ref.armor_decode(armored) == data, f"{size} bytes do not round-trip")
        expect(
            ref.armor_decode(b" \r\n\t\n" + armored.replace(b"\n", b"\r\n") + b" \n\n") == data,
            "CRLF, outer space",
        )
    armored = ref.armor_encode(os.urandom(100))
    for bad in (
        b" " + armored,
        armored.replace(ref.ARMOR_BEGIN, ref.ARMOR_BEGIN + b" "),
        armored.replace(ref.ARMOR_END, b" " + ref.ARMOR_END),
        armored[:-1] + b"x",
        armored.replace(b"\n", b"\n\n", 2),
    ):
        expect_raises(
            ref.AgeArmorError, lambda b=bad: ref.armor_decode(b), f"{bad[:40]!r}... accepted"
        )


def recipient_checks() -> None:
    low_order = ref.bech32_encode("age", bytes(32))  # u = 0
    non_canonical = ref.bech32_encode("age", (2**255 - 19 + 9).to_bytes(32, "little"))  # 9 + p
    for text in (low_order, non_canonical):
        expect_raises(ref.KeyFormatError, lambda t=text: ref.parse_recipient(t), f"{text} accepted")
    pk = bytearray(ref.HybridIdentity(bytes(32)).recipient().pk)
    pk[0], pk[1] = 0xFF, pk[1] | 0x0F  # first coefficient 4095 >= q: FIPS 203 modulus check fails
    expect_raises(
        ref.KeyFormatError,
        lambda: ref.parse_recipient(ref.bech32_encode("age1pq", bytes(pk))),
        "bad ML-KEM encapsulation key accepted",
    )


def identity_file_rules() -> None:
    pq = str(ref.HybridIdentity(bytes(32)))
    classic = str(ref.X25519Identity(bytes(range(32))))
    text = f"# created: x\n\n  {classic}\t\r\n#{pq}\n{pq.lower()}"
    identities = ref.parse_identity_file(text)
    expect(
        [type(i) for i in identities] == [ref.X25519Identity, ref.HybridIdentity],
        "identity file parsed wrong",
    )
    error = expect_raises(
        ref.KeyFormatError, lambda: ref.parse_identity_file(f"{pq}\nsecret-junk\n"), "junk line"
    )
    expect(
        "line 2" in str(error) and "secret-junk" not in str(error),
        "error must name, not quote, the line",
    )


SPEC_9_1_IDENTITY = "AGE-SECRET-KEY-1QQQSYQCYQ5RQWZQFPG9SCRGWPUGPZYSNZS23V9CCRYDPK8QARC0SWRYDWG"
SPEC_9_1_RECIPIENT = "age13aqvttdk3ujkyjh9kg2w5an6dmy5mq5a84a4uxk3hfhnugfc9p0sy5p2wh"
AGE_MD_X25519_IDENTITY = (
    "AGE-SECRET-KEY-1GFPYYSJZGFPYYSJZGFPYYSJZGFPYYSJZGFPYYSJZGFPYYSJZGFPQ4EGAEX"
)
AGE_MD_X25519_RECIPIENT = "age1zvkyg2lqzraa2lnjvqej32nkuu0ues2s82hzrye869xeexvn73equnujwj"


def spec_9_1_keys() -> None:
    identity = ref.X25519Identity(bytes(range(32)))
    expect(str(identity) == SPEC_9_1_IDENTITY, "the identity string differs")
    identity_to_recipient(str(identity), SPEC_9_1_RECIPIENT)


def lower_case_identity() -> None:
    lower, upper = AGE_MD_PQ_IDENTITY.lower(), AGE_MD_PQ_IDENTITY
    expect(ref.parse_identity(lower) == ref.parse_identity(upper), "case matters")


def key_checks() -> None:
    check("keys: X25519 identity 00..1f and its recipient (SPEC 9.1)", spec_9_1_keys)
    check(
        "keys: age.md X25519 example",
        lambda: identity_to_recipient(AGE_MD_X25519_IDENTITY, AGE_MD_X25519_RECIPIENT),
    )
    check(
        "keys: age.md MLKEM768-X25519 example",
        lambda: identity_to_recipient(AGE_MD_PQ_IDENTITY, AGE_MD_PQ_RECIPIENT),
    )
    check("keys: a lower-case identity reads as the upper-case one (SPEC 8.1)", lower_case_identity)
    check(
        "keys: recipients of low order, non-canonical, failing the modulus check are refused",
        recipient_checks,
    )
    check("keys: identity file rules (SPEC 8.1)", identity_file_rules)
    check("bech32: BIP-173 valid and invalid strings, no length limit, padding", bech32_bip173)
    check("base64: canonical, unpadded (age) and padded (armor)", strict_base64)
    check(
        "armor: round trips, CRLF and outer whitespace taken, space on a label line refused",
        armor_rules,
    )


# ---------------------------------------------------------------------------------------------
# (d) The MLKEM768-X25519 KEM, step by step, against hpke-pq.json.
# ---------------------------------------------------------------------------------------------


def hpke_kat() -> str:
    entries = [
        e for e in json.loads(HPKE_KAT.read_text()) if e["kem_id"] == 0x647A and e["mode"] == 0
    ]
    expect(entries, "no MLKEM768-X25519 entry")
    for entry in entries:
        identity = ref.HybridIdentity(bytes.fromhex(entry["skRm"]))
        expect(identity.recipient().pk.hex() == entry["pkRm"], "expandKey: pk differs from pkRm")
        slot = ref.WarpSlot(
            1, ref.SLOT_HYBRID, b"\x04\x04\xb0" + bytes.fromhex(entry["enc"]) + bytes(80)
        )
        values = ref.warp_hybrid_slot_secret(identity, slot)
        expect(
            values["ss"].hex() == entry["shared_secret"], "Decaps: ss differs from shared_secret"
        )
    return f"{len(entries)} entries"


# ---------------------------------------------------------------------------------------------
# (e) warp files made by warpcrypt (formats/warp/testdata, SPEC 9 and 9.1).
# ---------------------------------------------------------------------------------------------

HELLO = b"Hello, world\n"
SPEC_9_1 = {  # SPEC 9.1's values
    "R": "8f40c5adb68f25624ae5b214ea767a6ec94d829d3d7b5e1ad1ba6f3e2138285f",
    "E": "675dd574ed7789310b3d2e7681f3790b466c773b1521fecf36577958371ea52f",
    "shared": "2cca6df951833fd6298ab3777ea473000678977f16e74d866503bdde532f7a7e",
    "s": "d8472ef57635c7b3189d4f52ee95b6c4efe05d73e915ac98089618703664f425",
    "check": "a99204d6a57b42a83f767e665bd125363ca34dd453b51128a4653f093f18a425",
    "wrap_key": "b678ccf7cd9dc714da12e4765b3b6aa595806552ce02ac85049906bbe713fcdc",
    "file_key": "404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f",
    "header_key": "44b3f9d0e6ebbfcdee473798ffc23faf93edb9be411f0db952db1f5f6fe892fc",
    "payload_key": "8bbaaa56508dd748bcd95a19385a775887f587a32bcd567c390a8aabf437d935",
}
SPEC_9 = {
    "s": "14e751c2855afe3994c8a126013fa9abe29ffc344c84d757316d0a3740a97a24",
    "check": "fdfe5a3ff33878e14a7edf6f3da8ff7fe0f6aa4cc965d554e43c1167878db80d",
    "wrap_key": "8e37f7c2e569b8db6ed32953b3d6c13237ccaac4b5e84e0961852261e1096e52",
    "payload_key": "49cce925b3564bdbd0a0bad531fae1713bdb4d02665e4fa339ce0fc7a095c233",
}


def testdata(name: str) -> bytes:
    return (WARP_TESTDATA / name).read_bytes()


def x25519_example_identities() -> list:
    return ref.parse_identity_file((WARP_TESTDATA / "x25519_example.identity").read_text())


def worked_example_key() -> bytes:
    return ref.parse_warp_key_file((WARP_TESTDATA / "worked_example.key").read_text())


def explained_values_match(data: bytes, identities, keys, expected: dict) -> None:
    explanations = ref.warp_explain(data, identities, keys)
    expect(len(explanations) == 1 and explanations[0].values["opened"], "one attempt that opens")
    values = explanations[0].values
    for name, value in expected.items():
        expect(values[name].hex() == value, f"{name} differs from the SPEC")


def warp_error_kind(function) -> str:
    """The SPEC 7.1 cause of the WarpError that `function` must raise."""
    return expect_raises(ref.WarpError, function, "the file opened").kind


def spec_9_decrypts() -> None:
    data = testdata("worked_example.warp")
    expect(ref.warp_decrypt(data, [], [worked_example_key()]) == HELLO, "plaintext")


def spec_9_1_decrypts() -> None:
    data = testdata("x25519_example.warp")
    expect(ref.warp_decrypt(data, x25519_example_identities()) == HELLO, "plaintext")


def spec_9_1_refusals() -> None:
    data, identities = testdata("x25519_example.warp"), x25519_example_identities()
    stranger = [ref.X25519Identity(os.urandom(32))]
    expect(warp_error_kind(lambda: ref.warp_decrypt(data, stranger)) == "wrong_key", "stranger")
    changed_mac = flip(data, 170)
    expect(warp_error_kind(lambda: ref.warp_decrypt(changed_mac, identities)) == "wrong_key", "MAC")
    changed_chunk = flip(data, 200)
    expect(
        warp_error_kind(lambda: ref.warp_decrypt(changed_chunk, identities)) == "corrupted", "chunk"
    )


def unknown_slots_skipped() -> None:
    data = testdata("unknown-slot-types.warp")
    expect(ref.warp_decrypt(data, [], [worked_example_key()]) == HELLO, "plaintext")
    data = testdata("only-unknown-slot-types.warp")
    kind = warp_error_kind(lambda: ref.warp_decrypt(data, x25519_example_identities()))
    expect(kind == "unsupported", f"only unknown slot types: {kind}, not unsupported")


def warpcrypt_file_checks() -> None:
    check("warp SPEC 9: worked example (key-file slot) decrypts", spec_9_decrypts)
    check(
        "warp SPEC 9: explained values are the SPEC's",
        lambda: explained_values_match(
            testdata("worked_example.warp"), [], [worked_example_key()], SPEC_9
        ),
    )
    check("warp SPEC 9.1: X25519 example decrypts", spec_9_1_decrypts)
    check(
        "warp SPEC 9.1: explained values are the SPEC's",
        lambda: explained_values_match(
            testdata("x25519_example.warp"), x25519_example_identities(), [], SPEC_9_1
        ),
    )
    check(
        "warp SPEC 9.1: another identity, a changed MAC (wrong key), a changed chunk (corrupted)",
        spec_9_1_refusals,
    )
    check(
        "warp SPEC 4.4: unknown slot types skipped; only unknown types is unsupported",
        unknown_slots_skipped,
    )
    check("warp: the command line decrypts and explains", warp_cli)


def flip(data: bytes, offset: int) -> bytes:
    return data[:offset] + bytes([data[offset] ^ 1]) + data[offset + 1 :]


def warp_cli() -> None:
    """Run in formats/warp/testdata, writing to a scratch directory."""
    with tempfile.TemporaryDirectory() as scratch:
        out = str(Path(scratch) / "out")
        identity, warp = "x25519_example.identity", "x25519_example.warp"
        result = run_cli("warp-decrypt", "-i", identity, "-o", out, warp, cwd=WARP_TESTDATA)
        expect(result.returncode == 0 and Path(out).read_bytes() == HELLO, "warp-decrypt")
        explain = run_cli("warp-slot-explain", "-i", identity, warp, cwd=WARP_TESTDATA)
        expect(explain.returncode == 0 and SPEC_9_1["s"] in explain.stdout.decode(), "explain")
        Path(out).unlink()
        failed = run_cli(
            "warp-decrypt", "-k", "worked_example.key", "-o", out, warp, cwd=WARP_TESTDATA
        )
        expect(failed.returncode == 1, "a wrong key must exit 1")
        expect(not Path(out).exists(), "a wrong key must write nothing")


# ---------------------------------------------------------------------------------------------
# (f) warp files with type-4 slots, from a test-only writer (SPEC 4.8 writer side, 4.2, 5, 6).
# ---------------------------------------------------------------------------------------------


def write_hybrid_slot(
    recipient: ref.HybridRecipient, file_key: bytes, suite: int, values: dict
) -> bytes:
    """SPEC 4.8, writer: (ss_PQ, ct_PQ) = Encaps(ek); ct_X = X25519(e, basepoint);
    ss_X = X25519(e, pk_X); ss, enc, s; then check, wrap_key and wrapped_key (SPEC 4.2)."""
    ss_pq, ct_pq = mlkem.MLKEM768PublicKey.from_public_bytes(recipient.ek_pq).encapsulate()
    e = os.urandom(32)
    ct_x, ss_x = ref.x25519_base(e), ref.x25519_shared(e, recipient.pk_x)
    ss = hashlib.sha3_256(ss_pq + ss_x + ct_x + recipient.pk_x + ref.HYBRID_LABEL).digest()
    enc = ct_pq + ct_x
    s = ref.hkdf_sha256(ss, enc + recipient.pk, b"warpcrypt v2 mlkem768x25519 slot")
    check_value = ref.hkdf_sha256(s, enc, b"warpcrypt v2 slot check")
    wrap_key = ref.hkdf_sha256(s, enc, b"warpcrypt v2 slot wrap")
    prefix = bytes([ref.SLOT_HYBRID]) + (1200).to_bytes(2, "big") + enc + check_value
    values.update(ss_PQ=ss_pq, ss_X=ss_x, ss=ss, s=s, check=check_value, wrap_key=wrap_key)
    return prefix + ref.warp_aead(suite, wrap_key).encrypt(bytes(12), file_key, prefix)


def write_warp_file(
    plaintext: bytes,
    slots: list[bytes],
    file_key: bytes,
    suite: int,
    chunk_log2: int,
    stated_length: int | None = None,
) -> bytes:
    """SPEC 3, 5, 6, writer side, but with the XXH3 fields left zero (the reference reads
    neither: a real reader would refuse this file's checksum). `stated_length`: a trailer
    that lies about L, for a refusal test."""
    payload_nonce = os.urandom(32)
    head = (
        ref.WARP_MAGIC + bytes([2, suite, chunk_log2, len(slots)]) + b"".join(slots) + payload_nonce
    )
    head += bytes(8)  # checksum: XXH3_64 not computed
    head += ref.hmac_sha256(ref.warp_header_key(file_key), head)
    aead = ref.warp_aead(suite, ref.warp_payload_key(file_key, payload_nonce, suite))
    size = 1 << chunk_log2
    chunks = [plaintext[i : i + size] for i in range(0, len(plaintext), size)]
    body = b"".join(aead.encrypt(ref.warp_nonce(i, False), c, b"") for i, c in enumerate(chunks))
    length = len(plaintext) if stated_length is None else stated_length
    trailer = length.to_bytes(8, "big") + bytes(16)  # XXH3_128(P) not computed
    return head + body + aead.encrypt(ref.warp_nonce(len(chunks), True), trailer, b"")


def unknown_slot(slot_type: int, length: int) -> bytes:
    return bytes([slot_type]) + length.to_bytes(2, "big") + os.urandom(length)


def hybrid_warp_round_trip(suite: int, size: int) -> None:
    identities = [ref.HybridIdentity(os.urandom(32)) for _ in range(2)]
    file_key, plaintext, values = os.urandom(32), os.urandom(size), {}
    slots = [
        unknown_slot(0x33, 64),
        write_hybrid_slot(identities[0].recipient(), file_key, suite, {}),
        unknown_slot(0x7F, 2048),
        write_hybrid_slot(identities[1].recipient(), file_key, suite, values),
    ]
    data = write_warp_file(plaintext, slots, file_key, suite, 12)
    classic = ref.X25519Identity(os.urandom(32))
    expect(ref.warp_decrypt(data, [classic, identities[1]]) == plaintext, "second identity")
    expect(ref.warp_decrypt(data, [identities[0]]) == plaintext, "first identity")
    explanations = ref.warp_explain(data, [identities[1]])
    expect(
        [e.values["opened"] for e in explanations] == [False, True],
        "explain: slot 2 fails, slot 4 opens",
    )
    for name in ("ss_PQ", "ss_X", "ss", "s", "check", "wrap_key"):
        expect(
            explanations[1].values[name] == values[name],
            f"explain: {name} differs from the writer's",
        )
    expect(explanations[1].values["file_key"] == file_key, "explain: file_key")
    stranger = [ref.HybridIdentity(os.urandom(32))]
    expect(warp_error_kind(lambda: ref.warp_decrypt(data, stranger)) == "wrong_key", "stranger")


def hybrid_warp_refusals() -> None:
    identity = ref.HybridIdentity(os.urandom(32))
    file_key = os.urandom(32)
    slot = write_hybrid_slot(identity.recipient(), file_key, 2, {})
    data = write_warp_file(b"abc", [slot], file_key, 2, 16)
    for name, offset in (
        ("ct_PQ", 12 + 3 + 5),
        ("ct_X", 12 + 3 + 1100),
        ("check", 12 + 3 + 1130),
        ("wrapped_key", 12 + 3 + 1180),
        ("payload_nonce", 12 + 1203 + 3),
    ):
        changed = flip(data, offset)
        kind = warp_error_kind(lambda: ref.warp_decrypt(changed, [identity]))
        expect(kind == "wrong_key", f"a changed {name} byte: {kind}, not wrong_key")
    low_order = bytearray(data)
    low_order[12 + 3 + 1088 : 12 + 3 + 1120] = bytes(32)  # ct_X = 0: ss_X all zero
    values = ref.warp_explain(bytes(low_order), [identity])[0].values
    expect(values["ss_X"] is None and not values["opened"], "a low-order ct_X opened")
    lying = write_warp_file(b"abc", [slot], file_key, 2, 16, stated_length=4)
    kind = warp_error_kind(lambda: ref.warp_decrypt(lying, [identity]))
    expect(kind == "corrupted", f"a trailer with another L: {kind}, not corrupted")
    bad_length = data[:13] + (1199).to_bytes(2, "big") + data[15:]
    kind = warp_error_kind(lambda: ref.warp_parse_header(bad_length))
    expect(kind == "corrupted", f"a type-4 slot of another length: {kind}, not corrupted")


def synthetic_warp_checks() -> None:
    for suite in (1, 2):
        for size in (0, 1, 4096, 4097, 3 * 4096 + 5):
            label = (
                f"warp type 4: suite {suite}, {size} bytes, unknown slots skipped, strangers out"
            )
            check(label, lambda s=suite, n=size: hybrid_warp_round_trip(s, n))
    check(
        "warp type 4: changed slot bytes, low-order ct_X, lying trailer, bad slot length refused",
        hybrid_warp_refusals,
    )


def main() -> int:
    cctv_checks()
    round_trip_checks()
    key_checks()
    check("hpke-pq.json: MLKEM768-X25519 expandKey and Decaps, computed step by step", hpke_kat)
    warpcrypt_file_checks()
    synthetic_warp_checks()
    print(f"{RESULTS['passed']} passed, {RESULTS['failed']} failed")
    return 1 if RESULTS["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
