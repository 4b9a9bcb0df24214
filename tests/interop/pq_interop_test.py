#!/usr/bin/env python3
"""Interop test of warpcrypt's post-quantum keys against pq_reference.py, through the binary.

    python3 tests/interop/pq_interop_test.py --warpcrypt build/default/cli/warpcrypt

pq_reference.py is a second implementation of age's ML-KEM-768 + X25519 recipient type and of
warp's type-4 slot, written from the specifications (age.md, hpke-pq.md, formats/warp/SPEC.md)
and not from warpcrypt's code. Files made by one and opened by the other show that both read
the specifications the same way; a bug that both sides share (a test written from warpcrypt's
own output) would not be seen. What is checked, one group per function below:

  1. keys: the recipient of an identity is the same whichever side computes it (`keygen -y`
     against `pq_reference.py recipient`), for identities made by either side, both kinds;
  2. warpcrypt -> reference: age files at the STREAM chunk boundaries (0, 1, 64 KiB - 1, 64 KiB,
     64 KiB + 1, 3 MiB + 17), binary and armored, to 1 and 3 post-quantum recipients (-r and -R),
     opened by the reference with a multi-identity file whose right identity is not first;
  3. reference -> warpcrypt: the same matrix the other way;
  4. warp files (slot type 4, SPEC 4.8), both suites, 1 and 3 recipients, opened by the reference;
  5. SPEC 9.2's worked example: the values the reference derives from the committed file equal
     the hex printed in SPEC.md (parsed from its text), and the file decrypts;
  6. a stranger's identity: exit 3 (wrong key), nothing written;
  7. crafted mlkem768x25519 stanzas (age.md's rules for the stanza, CCTV's expectations): a
     malformed stanza is a header failure (exit 4), a flipped ciphertext bit is "no match"
     (exit 3: ML-KEM's implicit rejection cannot tell it from a wrong key), an unknown type alone
     is unsupported (exit 6); nothing is written and stderr is one `warpcrypt: error:` line
     (with, at most, the `warpcrypt: hint:` line that docs/usage.md allows after it);
  8. no mixing: warpcrypt refuses classic X25519 recipients beside post-quantum ones (exit 2,
     SPEC 4.8 "No mixing", as age 1.4), yet opens a mixed file made elsewhere with either
     identity (CCTV hybrid_and_x25519).

Everything runs in a private temporary directory (mode 0700, identity files 0600), with no
network. Prints `ok - NAME` or `FAIL - NAME: REASON` per check, then `N passed, M failed`; exits
0 only when nothing failed.
"""

from __future__ import annotations

import argparse
import base64
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
REFERENCE = HERE / "pq_reference.py"
SPEC = ROOT / "formats" / "warp" / "SPEC.md"
HYBRID_EXAMPLE = ROOT / "formats" / "warp" / "testdata" / "hybrid_example.warp"
HYBRID_EXAMPLE_IDENTITY = ROOT / "formats" / "warp" / "testdata" / "hybrid_example.identity"

sys.path.insert(0, str(HERE))
import pq_reference as ref  # noqa: E402

AGE_SIZES = (0, 1, 65535, 65536, 65537, 3 * 1024 * 1024 + 17)
WARP_SIZES = (0, 1, 65537, 3 * 1024 * 1024 + 17)
WARP_SUITES = {"aes-256-gcm": 1, "chacha20-poly1305": 2}
SPEC_92_LABELS = ("ss_PQ", "ss_X", "ss", "s", "check", "wrap_key", "payload_key")


class CheckFailed(Exception):
    """A check's expectation was not met; the message is the reason printed."""


def expect(condition: bool, reason: str) -> None:
    if not condition:
        raise CheckFailed(reason)


class Harness:
    """The binary, the private directory, fresh file names and the tally of checks."""

    def __init__(self, warpcrypt: Path, workdir: Path):
        self.warpcrypt = warpcrypt
        self.workdir = workdir
        self.passed = 0
        self.failed = 0
        self.serial = 0

    # --- reporting ---------------------------------------------------------------------------

    def check(self, name: str, function) -> None:
        """Run one check: it passes when `function` returns; CheckFailed (or anything else it
        raises) fails it, with the reason on the same line."""
        try:
            function()
        except CheckFailed as error:
            self.failed += 1
            print(f"FAIL - {name}: {error}", flush=True)
        except Exception as error:  # a bug in the test or an unexpected crash: still one line
            self.failed += 1
            print(f"FAIL - {name}: {type(error).__name__}: {error}", flush=True)
        else:
            self.passed += 1
            print(f"ok - {name}", flush=True)

    # --- files -------------------------------------------------------------------------------

    def fresh(self, name: str) -> Path:
        """A path that does not exist yet (warpcrypt refuses to overwrite)."""
        self.serial += 1
        return self.workdir / f"{self.serial:04d}-{name}"

    def fresh_dir(self, name: str) -> Path:
        """An empty directory, so that a failed command can be seen to leave nothing at all."""
        path = self.fresh(name)
        path.mkdir(mode=0o700)
        return path

    def write(self, name: str, data: bytes, mode: int = 0o600) -> Path:
        path = self.fresh(name)
        path.write_bytes(data)
        path.chmod(mode)
        return path

    def identity_file(self, name: str, identities: list[str]) -> Path:
        """An identity file (mode 0600, as warpcrypt wants) holding these identity strings."""
        return self.write(name, "".join(f"{i}\n" for i in identities).encode())

    # --- commands ----------------------------------------------------------------------------

    def run(self, argv: list) -> subprocess.CompletedProcess:
        """Run a command (no stdin; WARPCRYPT_NO_PQ_WARNING unset), capturing its output."""
        return subprocess.run(
            [str(a) for a in argv],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=120,
            env={k: v for k, v in os.environ.items() if k != "WARPCRYPT_NO_PQ_WARNING"},
        )

    def wc(self, *args) -> subprocess.CompletedProcess:
        return self.run([self.warpcrypt, *args])

    def reference(self, *args) -> subprocess.CompletedProcess:
        return self.run([sys.executable, REFERENCE, *args])


def describe(result: subprocess.CompletedProcess) -> str:
    """A failed command, for a FAIL line: its argv (shortened), exit status and stderr."""
    argv = " ".join(a if len(a) < 60 else a[:20] + "..." for a in result.args)
    stderr = result.stderr.decode(errors="replace").strip().replace("\n", " | ")
    return f"`{argv}` exited {result.returncode}: {stderr or '(no stderr)'}"


def expect_success(result: subprocess.CompletedProcess) -> None:
    expect(result.returncode == 0, describe(result))


def expect_same_bytes(path: Path, plaintext: bytes) -> None:
    expect(path.exists(), f"{path.name} was not written")
    data = path.read_bytes()
    if data != plaintext:
        first = next((i for i, (a, b) in enumerate(zip(data, plaintext)) if a != b), None)
        raise CheckFailed(
            f"plaintext differs: {len(data)} bytes instead of {len(plaintext)}"
            + (f", first difference at byte {first}" if first is not None else "")
        )


def expect_refused(
    result: subprocess.CompletedProcess, code: int, output: Path, strict_stderr: bool = False
) -> None:
    """warpcrypt refused with exit `code`, left nothing in the output's directory (no output,
    no temporary file), and printed exactly one `warpcrypt: error:` line. With strict_stderr,
    that line comes first and at most one `warpcrypt: hint:` line follows (docs/usage.md
    "Messages": an error is one line, then a hint line when there is something to do);
    without it, other lines (a warning) may come with it."""
    expect(result.returncode == code, f"exit {result.returncode}, not {code}: {describe(result)}")
    leftovers = sorted(p.name for p in output.parent.iterdir())
    expect(not output.exists(), f"{output.name} exists after a refusal")
    expect(not leftovers, f"left behind in the output directory: {leftovers}")
    lines = result.stderr.decode(errors="replace").splitlines()
    errors = [line for line in lines if line.startswith("warpcrypt: error:")]
    expect(len(errors) == 1, f"not one `warpcrypt: error:` line on stderr: {lines!r}")
    if strict_stderr:
        expect(
            len(lines) <= 2
            and lines[0] == errors[0]
            and all(line.startswith("warpcrypt: hint:") for line in lines[1:]),
            f"stderr is not one `warpcrypt: error:` line (and a hint): {lines!r}",
        )


# ---------------------------------------------------------------------------------------------
# Keys and inputs shared by the checks.
# ---------------------------------------------------------------------------------------------


class Keys:
    """The identities of the test. A, B, C are the post-quantum recipients (A and C made by
    warpcrypt, B by the reference, so both generators feed every check); S is a post-quantum
    stranger, T an X25519 stranger, K an X25519 identity used only for the mixed file. The
    recipients are the reference's (check 1 shows warpcrypt's are the same)."""

    def __init__(self, h: Harness):
        self.identity = {
            "A": warpcrypt_keygen(h, "A.identity"),
            "B": reference_keygen(h),
            "C": warpcrypt_keygen(h, "C.identity"),
            "S": reference_keygen(h),
            "T": warpcrypt_keygen(h, "T.identity", x25519=True),
            "K": reference_keygen(h, x25519=True),
        }
        self.recipient = {
            name: str(ref.parse_identity(identity).recipient())
            for name, identity in self.identity.items()
        }
        # -R for the 3-recipient files: B and C, after A given with -r.
        self.recipients_file = h.write(
            "B-C.recipients", f"# B and C\n{self.recipient['B']}\n{self.recipient['C']}\n".encode()
        )
        # Several identities of both kinds; the one that opens is last (and, for 3 recipients,
        # opens the last stanza or slot).
        self.for_one = h.identity_file("S-T-A.identity", self.ids("S", "T", "A"))
        self.for_three = h.identity_file("T-S-C.identity", self.ids("T", "S", "C"))
        self.stranger = h.identity_file("S.identity", self.ids("S"))

    def ids(self, *names: str) -> list[str]:
        return [self.identity[n] for n in names]

    def recipient_args(self, count: int) -> list:
        """-r A alone, or -r A -R (B, C)."""
        args = ["-r", self.recipient["A"]]
        return args + ["-R", self.recipients_file] if count == 3 else args

    def identities_for(self, count: int) -> Path:
        return self.for_one if count == 1 else self.for_three


def identity_line(text: str) -> str:
    """The one identity line of a keygen output or identity file."""
    lines = [line for _, line in ref.key_file_lines(text)]
    if len(lines) != 1:
        raise CheckFailed(f"expected one identity line, got {len(lines)}")
    return lines[0]


def warpcrypt_keygen(h: Harness, name: str, x25519: bool = False) -> str:
    path = h.fresh(name)
    result = h.wc("keygen", "--identity", *(["--x25519"] if x25519 else []), "-o", path)
    expect_success(result)
    mode = path.stat().st_mode & 0o777
    expect(mode == 0o600, f"warpcrypt keygen wrote {name} with mode {mode:o}, not 600")
    return identity_line(path.read_text())


def reference_keygen(h: Harness, x25519: bool = False) -> str:
    result = h.reference("keygen", *(["--x25519"] if x25519 else []))
    expect_success(result)
    return identity_line(result.stdout.decode())


class Plaintexts:
    """One random plaintext per size, each written once."""

    def __init__(self, h: Harness, sizes):
        self.data = {size: os.urandom(size) for size in sizes}
        self.path = {size: h.write(f"plain-{size}", data) for size, data in self.data.items()}


def size_name(size: int) -> str:
    return "3 MiB + 17" if size == 3 * 1024 * 1024 + 17 else f"{size} B"


# ---------------------------------------------------------------------------------------------
# 1. keygen -y agrees both ways.
# ---------------------------------------------------------------------------------------------


def recipients_agree(h: Harness, identity_path: Path, expected: list[str] | None = None) -> None:
    """`warpcrypt keygen -y` and `pq_reference.py recipient` print the same recipients (and the
    ones expected, when given)."""
    ours, theirs = h.wc("keygen", "-y", identity_path), h.reference("recipient", identity_path)
    expect_success(ours)
    expect_success(theirs)
    ours_lines, theirs_lines = ours.stdout.decode().split(), theirs.stdout.decode().split()
    expect(ours_lines == theirs_lines, f"warpcrypt -y {ours_lines!r} != reference {theirs_lines!r}")
    if expected is not None:
        expect(ours_lines == expected, f"recipients {ours_lines!r}, expected {expected!r}")


def check_keygen(h: Harness, keys: Keys) -> None:
    def made_by_warpcrypt(x25519: bool):
        name = "T" if x25519 else "A"
        path = h.identity_file(f"{name}-alone.identity", keys.ids(name))
        recipients_agree(h, path)

    def made_by_reference(x25519: bool, seed: bytes):
        result = h.reference("keygen", *(["--x25519"] if x25519 else []), "--seed", seed.hex())
        expect_success(result)
        path = h.write("reference-keygen.identity", result.stdout)
        public = re.search(r"^# public key: (\S+)$", result.stdout.decode(), re.M)
        expect(public is not None, "no `# public key:` line in the reference's keygen output")
        recipients_agree(h, path, [public.group(1)])

    def spec_example_identity():
        # The identity of seed 00..1f, whose recipient the committed file names (SPEC 9.2).
        text = HYBRID_EXAMPLE_IDENTITY.read_text()
        path = h.write("hybrid_example.identity", text.encode())
        public = re.search(r"^# public key: (\S+)$", text, re.M).group(1)
        recipients_agree(h, path, [public])

    def many_identities():
        recipients_agree(h, keys.for_three)
        mixed = h.identity_file("all.identity", keys.ids("A", "T", "B", "K", "C"))
        recipients_agree(h, mixed, [keys.recipient[n] for n in ("A", "T", "B", "K", "C")])

    h.check("keygen -y: warpcrypt's post-quantum identity", lambda: made_by_warpcrypt(False))
    h.check("keygen -y: warpcrypt's X25519 identity", lambda: made_by_warpcrypt(True))
    for x25519, kind in ((False, "post-quantum"), (True, "X25519")):
        h.check(
            f"keygen -y: reference's {kind} identity, random seed",
            lambda x25519=x25519: made_by_reference(x25519, os.urandom(32)),
        )
        h.check(
            f"keygen -y: reference's {kind} identity, seed ff..ff",
            lambda x25519=x25519: made_by_reference(x25519, b"\xff" * 32),
        )
    h.check("keygen -y: SPEC 9.2's identity (seed 00..1f)", spec_example_identity)
    h.check("keygen -y: identity files of several identities, both kinds", many_identities)


# ---------------------------------------------------------------------------------------------
# 2 and 3. age files, both directions.
# ---------------------------------------------------------------------------------------------


def expect_age_file(path: Path, recipients: int, armored: bool) -> None:
    """The file is armored (or not) as asked, and holds one mlkem768x25519 stanza per
    recipient and no other."""
    data = path.read_bytes()
    expect(
        data.startswith(ref.ARMOR_BEGIN if armored else ref.AGE_INTRO + b"\n"),
        f"the file does not start as {'armored' if armored else 'binary'} age: {data[:40]!r}",
    )
    header = ref.age_parse_header(ref.armor_decode(data) if armored else data)
    types = [s.type for s in header.stanzas]
    expect(types == [ref.HYBRID_STANZA_TYPE] * recipients, f"stanza types {types}")


def check_age_warpcrypt_to_reference(h: Harness, keys: Keys, plain: Plaintexts) -> None:
    def one(size: int, armor: bool, count: int):
        encrypted = h.fresh("warpcrypt.age")
        armor_args = ["-a"] if armor else []
        result = h.wc(
            "encrypt", plain.path[size], "-o", encrypted, "--format", "age", *armor_args,
            *keys.recipient_args(count),
        )
        expect_success(result)
        expect(result.stderr == b"", f"stderr of a post-quantum encrypt: {result.stderr!r}")
        expect_age_file(encrypted, count, armor)
        decrypted = h.fresh("reference.out")
        expect_success(
            h.reference("age-decrypt", "-i", keys.identities_for(count), "-o", decrypted, encrypted)
        )
        expect_same_bytes(decrypted, plain.data[size])

    for size in AGE_SIZES:
        for armor in (False, True):
            for count in (1, 3):
                form = "armored" if armor else "binary"
                h.check(
                    f"warpcrypt -> reference: age, {size_name(size)}, {form}, {count} recipient(s)",
                    lambda s=size, a=armor, c=count: one(s, a, c),
                )


def check_age_reference_to_warpcrypt(h: Harness, keys: Keys, plain: Plaintexts) -> None:
    def one(size: int, armor: bool, count: int):
        encrypted = h.fresh("reference.age")
        armor_args = ["-a"] if armor else []
        expect_success(
            h.reference(
                "age-encrypt", *keys.recipient_args(count), *armor_args, "-o", encrypted,
                plain.path[size],
            )
        )
        decrypted = h.fresh("warpcrypt.out")
        expect_success(
            h.wc("decrypt", encrypted, "-o", decrypted, "-i", keys.identities_for(count))
        )
        expect_same_bytes(decrypted, plain.data[size])

    for size in AGE_SIZES:
        for armor in (False, True):
            for count in (1, 3):
                form = "armored" if armor else "binary"
                h.check(
                    f"reference -> warpcrypt: age, {size_name(size)}, {form}, {count} recipient(s)",
                    lambda s=size, a=armor, c=count: one(s, a, c),
                )


# ---------------------------------------------------------------------------------------------
# 4. warp files with post-quantum slots.
# ---------------------------------------------------------------------------------------------


def check_warp_warpcrypt_to_reference(h: Harness, keys: Keys, plain: Plaintexts) -> None:
    def one(size: int, cipher: str, count: int):
        encrypted = h.fresh("warpcrypt.warp")
        result = h.wc(
            "encrypt", plain.path[size], "-o", encrypted, "--cipher", cipher,
            *keys.recipient_args(count),
        )
        expect_success(result)
        header = ref.warp_parse_header(encrypted.read_bytes())
        expect(header.suite == WARP_SUITES[cipher], f"suite {header.suite} for {cipher}")
        types = [slot.type for slot in header.slots]
        expect(types == [ref.SLOT_HYBRID] * count, f"slot types {types}")
        decrypted = h.fresh("reference.out")
        identities = keys.identities_for(count)
        expect_success(h.reference("warp-decrypt", "-i", identities, "-o", decrypted, encrypted))
        expect_same_bytes(decrypted, plain.data[size])

    for size in WARP_SIZES:
        for cipher in WARP_SUITES:
            for count in (1, 3):
                h.check(
                    f"warpcrypt -> reference: warp, {size_name(size)}, {cipher}, "
                    f"{count} recipient(s)",
                    lambda s=size, c=cipher, n=count: one(s, c, n),
                )


# ---------------------------------------------------------------------------------------------
# 5. SPEC 9.2 rebuilt from its text.
# ---------------------------------------------------------------------------------------------

HEX_BYTE = re.compile(r"[0-9a-f]{2}")


def leading_hex(text: str) -> bytes:
    """The bytes of the leading run of two-digit hex tokens (what follows is a comment)."""
    run = []
    for token in text.split():
        if not HEX_BYTE.fullmatch(token):
            break
        run.append(token)
    return bytes.fromhex("".join(run))


def spec_92_values() -> dict[str, bytes]:
    """The hex of SPEC.md's section 9.2 first code block, by label. A value is either on the
    label's line (`ss_PQ = 6c c2 ...`) or, when that line holds a formula, on the next line
    that starts with `=`; continuation lines (indented, hex) extend it."""
    text = SPEC.read_text()
    start = text.index("\n### 9.2")
    block = text[start:].split("```\n", 2)[1]
    values: dict[str, bytes] = {}
    label = None
    for line in block.splitlines():
        if not line.strip():
            label = None
            continue
        labelled = re.match(r"^(\S+)\s+=\s*(.*)$", line)
        if labelled:
            label, rest = labelled.groups()
            values[label] = leading_hex(rest)
        elif label is not None and line.lstrip().startswith("="):
            values[label] += leading_hex(line.lstrip()[1:])
        elif label is not None and line.startswith(" "):
            # A continuation of the value, or (after a formula-only line) nothing; a line of
            # another label's formula, like `SHAKE256(seed, 96)`, starts in column 0.
            if values[label]:
                values[label] += leading_hex(line)
        else:
            label = None
    return values


def explained_values(output: str) -> dict[str, str]:
    """`  name = hex` lines of `pq_reference.py warp-slot-explain`."""
    return dict(re.findall(r"^\s+(\S+)\s+=\s+([0-9a-f]+)$", output, re.M))


def check_spec_92(h: Harness) -> None:
    spec = spec_92_values()

    def values_match():
        missing = [label for label in SPEC_92_LABELS if len(spec.get(label, b"")) != 32]
        expect(not missing, f"SPEC 9.2 parsed without 32 bytes for {missing}")
        result = h.reference(
            "warp-slot-explain", "-i", HYBRID_EXAMPLE_IDENTITY, HYBRID_EXAMPLE
        )
        expect_success(result)
        explained = explained_values(result.stdout.decode())
        for label in SPEC_92_LABELS:
            expect(
                explained.get(label) == spec[label].hex(),
                f"{label}: reference {explained.get(label)} != SPEC {spec[label].hex()}",
            )
        expect(re.search(r"opened\s+= yes", result.stdout.decode()), "the slot does not open")

    def decrypts():
        decrypted = h.fresh("hybrid_example.out")
        expect_success(
            h.reference(
                "warp-decrypt", "-i", HYBRID_EXAMPLE_IDENTITY, "-o", decrypted, HYBRID_EXAMPLE
            )
        )
        expect_same_bytes(decrypted, b"Hello, world\n")

    def warpcrypt_decrypts():
        identity = h.write("hybrid_example.identity", HYBRID_EXAMPLE_IDENTITY.read_bytes())
        decrypted = h.fresh("hybrid_example.out")
        expect_success(h.wc("decrypt", HYBRID_EXAMPLE, "-o", decrypted, "-i", identity))
        expect_same_bytes(decrypted, b"Hello, world\n")

    h.check(f"SPEC 9.2: {', '.join(SPEC_92_LABELS)} equal the SPEC's hex", values_match)
    h.check("SPEC 9.2: pq_reference warp-decrypt gives `Hello, world\\n`", decrypts)
    h.check("SPEC 9.2: warpcrypt decrypt gives `Hello, world\\n`", warpcrypt_decrypts)


# ---------------------------------------------------------------------------------------------
# 6. A wrong identity.
# ---------------------------------------------------------------------------------------------


def check_wrong_identity(h: Harness, keys: Keys, plain: Plaintexts) -> None:
    def age_file():
        encrypted = h.fresh("reference.age")
        expect_success(
            h.reference("age-encrypt", *keys.recipient_args(3), "-o", encrypted, plain.path[1])
        )
        return encrypted

    def warp_file():
        encrypted = h.fresh("warpcrypt.warp")
        expect_success(h.wc("encrypt", plain.path[65537], "-o", encrypted, *keys.recipient_args(3)))
        return encrypted

    def refused(make):
        encrypted = make()
        output = h.fresh_dir("out") / "plain"
        result = h.wc("decrypt", encrypted, "-o", output, "-i", keys.stranger)
        expect_refused(result, 3, output, strict_stderr=True)

    h.check("wrong identity: reference-made age file -> exit 3, nothing written",
            lambda: refused(age_file))
    h.check("wrong identity: warpcrypt-made warp file -> exit 3, nothing written",
            lambda: refused(warp_file))


# ---------------------------------------------------------------------------------------------
# 7. Crafted stanzas.
# ---------------------------------------------------------------------------------------------


def b64(data: bytes) -> str:
    return ref.b64_encode(data).decode()


class AgeFile:
    """A binary age file with one mlkem768x25519 stanza, split so that the stanza's argument
    line and body can be replaced: `head` (version line), the stanza, `tail` (MAC line and
    payload)."""

    def __init__(self, data: bytes):
        lines = data.split(b"\n", 3)
        expect(lines[0] == ref.AGE_INTRO, "not a binary age file")
        expect(lines[1].startswith(b"-> mlkem768x25519 "), f"stanza line {lines[1][:30]!r}")
        expect(lines[3].startswith(b"--- "), "the stanza is not one line of argument, one of body")
        self.enc_b64 = lines[1].split(b" ")[2].decode()
        self.body_b64 = lines[2].decode()
        self.enc = ref.b64_decode(self.enc_b64.encode())
        self.body = ref.b64_decode(self.body_b64.encode())
        self.tail = lines[3]

    def with_stanza(self, arguments: str, body_b64: str) -> bytes:
        return b"\n".join(
            [ref.AGE_INTRO, f"-> {arguments}".encode(), body_b64.encode(), self.tail]
        )


def non_canonical(encoded: str) -> str:
    """The same bytes' base64 with nonzero unused trailing bits (the last character of a
    1120-byte encoding carries 2 bits; its low 4 bits must be zero)."""
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    last = alphabet.index(encoded[-1])
    return encoded[:-1] + alphabet[last | 0b0001]


def flip(data: bytes, index: int) -> bytes:
    return data[:index] + bytes([data[index] ^ 0x01]) + data[index + 1 :]


def crafted_cases(age: AgeFile) -> list[tuple[str, str, str, int]]:
    """(name, stanza arguments, body base64, expected exit status)."""
    t, enc, body = ref.HYBRID_STANZA_TYPE, age.enc, age.body
    ct_x = ref.MLKEM768_CT_SIZE
    assert len(enc) == 1120 and len(body) == 32
    return [
        ("extra argument", f"{t} {age.enc_b64} extra", age.body_b64, 4),
        ("enc of 1119 bytes", f"{t} {b64(enc[:1119])}", age.body_b64, 4),
        ("enc of 1121 bytes", f"{t} {b64(enc + bytes(1))}", age.body_b64, 4),
        ("enc with `=` padding", f"{t} {age.enc_b64}==", age.body_b64, 4),
        ("enc with non-canonical trailing bits", f"{t} {non_canonical(age.enc_b64)}",
         age.body_b64, 4),
        ("body of 31 bytes", f"{t} {age.enc_b64}", b64(body[:31]), 4),
        ("body of 33 bytes", f"{t} {age.enc_b64}", b64(body + bytes(1)), 4),
        ("zero X25519 share", f"{t} {b64(enc[:ct_x] + bytes(32))}", age.body_b64, 4),
        ("a flipped bit in ct_PQ", f"{t} {b64(flip(enc, 100))}", age.body_b64, 3),
        ("a flipped bit in ct_X", f"{t} {b64(flip(enc, ct_x + 5))}", age.body_b64, 3),
        ("type in upper case (unknown, alone)", f"{t.upper()} {age.enc_b64}", age.body_b64, 6),
    ]


# The reference's verdict for each exit status: a header failure, or "no match" (for an unknown
# type alone too: the reference has no "unsupported" class).
REFERENCE_VERDICT = {4: ref.AgeHeaderError, 3: ref.AgeNoMatchError, 6: ref.AgeNoMatchError}


def reference_agrees(data: bytes, identities: list, code: int) -> None:
    """The reference refuses the crafted file in the class the exit status stands for, so the
    edit is what the check's name says (and not, say, a header broken some other way)."""
    try:
        ref.age_decrypt(data, identities)
    except ref.PQReferenceError as error:
        expected = REFERENCE_VERDICT[code]
        expect(
            isinstance(error, expected),
            f"the reference says {type(error).__name__} ({error}), not {expected.__name__}",
        )
    else:
        raise CheckFailed("the reference opens the crafted file")


def check_crafted_stanzas(h: Harness, keys: Keys, plain: Plaintexts) -> None:
    original = h.fresh("reference.age")
    result = h.reference("age-encrypt", "-r", keys.recipient["A"], "-o", original, plain.path[1])
    age = None
    if result.returncode == 0:
        age = AgeFile(original.read_bytes())

    def untouched():
        # The unedited file opens: the refusals below come from the edits.
        expect(age is not None, f"no age file to edit: {describe(result)}")
        decrypted = h.fresh("warpcrypt.out")
        expect_success(h.wc("decrypt", original, "-o", decrypted, "-i", keys.for_one))
        expect_same_bytes(decrypted, plain.data[1])

    identities = ref.parse_identity_file(keys.for_one.read_text())

    def one(arguments: str, body_b64: str, code: int):
        data = age.with_stanza(arguments, body_b64)
        reference_agrees(data, identities, code)
        crafted = h.write("crafted.age", data)
        output = h.fresh_dir("out") / "plain"
        result = h.wc("decrypt", crafted, "-o", output, "-i", keys.for_one)
        expect_refused(result, code, output, strict_stderr=True)

    h.check("crafted stanza: the unedited file opens", untouched)
    if age is None:
        return
    for name, arguments, body_b64, code in crafted_cases(age):
        h.check(
            f"crafted stanza: {name} -> exit {code}, nothing written, one error line",
            lambda a=arguments, b=body_b64, c=code: one(a, b, c),
        )


# ---------------------------------------------------------------------------------------------
# 8. Mixing classic and post-quantum recipients.
# ---------------------------------------------------------------------------------------------


def check_mixing(h: Harness, keys: Keys, plain: Plaintexts) -> None:
    classic_file = h.write("K.recipients", f"{keys.recipient['K']}\n".encode())

    def refused(*args):
        # Only the outcome is checked here: where the mix is found after the recipients were
        # read (-R, or a warp file), the X25519 warning is printed before the error.
        output = h.fresh_dir("out") / "mixed"
        result = h.wc("encrypt", plain.path[1], "-o", output, *args)
        expect_refused(result, 2, output)

    pq, classic = keys.recipient["A"], keys.recipient["K"]
    h.check("mixing: encrypt --format age -r PQ -r X25519 -> exit 2, nothing written",
            lambda: refused("--format", "age", "-r", pq, "-r", classic))
    h.check("mixing: encrypt --format age -r X25519 -r PQ -> exit 2, nothing written",
            lambda: refused("--format", "age", "-r", classic, "-r", pq))
    h.check("mixing: encrypt --format age -r PQ -R (X25519) -> exit 2, nothing written",
            lambda: refused("--format", "age", "-r", pq, "-R", classic_file))
    h.check("mixing: encrypt (warp) -r PQ -r X25519 -> exit 2, nothing written",
            lambda: refused("-r", pq, "-r", classic))

    mixed = h.fresh("mixed.age")
    made = h.reference(
        "age-encrypt", "--allow-mixed", "-r", pq, "-r", classic, "-o", mixed, plain.path[65537]
    )

    def opens_with(name: str):
        expect_success(made)
        identity = h.identity_file(f"{name}.identity", keys.ids(name))
        decrypted = h.fresh("warpcrypt.out")
        expect_success(h.wc("decrypt", mixed, "-o", decrypted, "-i", identity))
        expect_same_bytes(decrypted, plain.data[65537])

    h.check("mixing: a reference-made mixed age file opens with the post-quantum identity",
            lambda: opens_with("A"))
    h.check("mixing: a reference-made mixed age file opens with the X25519 identity",
            lambda: opens_with("K"))


# ---------------------------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--warpcrypt", required=True, type=Path, help="the warpcrypt binary")
    args = parser.parse_args()
    warpcrypt = args.warpcrypt.resolve()
    if not os.access(warpcrypt, os.X_OK):
        print(f"FAIL - setup: {warpcrypt} is not an executable")
        print("0 passed, 1 failed")
        return 1

    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="warpcrypt-pq-interop-") as tmp:
        workdir = Path(tmp)
        workdir.chmod(0o700)
        h = Harness(warpcrypt, workdir)
        try:
            keys = Keys(h)
            plain = Plaintexts(h, set(AGE_SIZES) | set(WARP_SIZES))
        except Exception as error:
            print(f"FAIL - setup: {error}")
            print("0 passed, 1 failed")
            return 1
        check_keygen(h, keys)
        check_age_warpcrypt_to_reference(h, keys, plain)
        check_age_reference_to_warpcrypt(h, keys, plain)
        check_warp_warpcrypt_to_reference(h, keys, plain)
        check_spec_92(h)
        check_wrong_identity(h, keys, plain)
        check_crafted_stanzas(h, keys, plain)
        check_mixing(h, keys, plain)
    print(f"# {time.monotonic() - started:.1f} s", flush=True)
    print(f"{h.passed} passed, {h.failed} failed")
    return 0 if h.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
