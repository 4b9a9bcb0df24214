#!/usr/bin/env python3
"""Interop test of warpcrypt's age "tag" recipients (age1tag1..., age1tagpq1...), through the
binary, against tag_reference.py, pyrage and a software stand-in for the hardware plugin.

    python3 tests/interop/tag_interop_test.py --warpcrypt build/default/cli/warpcrypt

A tag recipient is a hardware key's public half: warpcrypt encrypts to it natively (the
`p256tag` and `mlkem768p256tag` stanzas of C2SP age.md, filippo.io/age `tag`), and opens such a
file only through the plugin that holds the key (C2SP age-plugin.md, identity-v1). Here
tests/plugin/age-plugin-tagtest holds the key in software, in its identity string
`AGE-PLUGIN-TAGTEST-1...` (tag_reference.py's crypto); its directory goes first on PATH, then
this python's (for the plugin's `#!/usr/bin/env python3` to find `cryptography`). Three other
implementations take part: tag_reference.py (written from the specifications, not from
warpcrypt's code), pyrage 1.4.0 (rage 0.11: tag recipients, and a plugin client), and the
plugin. What is checked, one group per function below:

  1. pyrage -> warpcrypt: files pyrage encrypts to age1tag1 / age1tagpq1 recipients open with
     `warpcrypt decrypt -i IDENTITY_FILE` through the plugin, at the STREAM chunk edges (0, 1,
     64 KiB - 1, 64 KiB, 64 KiB + 1); the same for files tag_reference makes (binary and
     armored, and to 3 recipients of which the identity file's key made the last); and
     `-j tagtest` opens files made to age's own age-plugin-tagtest recipients;
  2. refusals on the way in: a stranger's identity is exit 3 (wrong key), a stanza whose tag
     matches but whose body was altered is exit 4 (the plugin reports it, as age's does), and
     nothing is written either way;
  3. warpcrypt -> the others: `warpcrypt encrypt --format age -r age1tag1...` (and
     age1tagpq1..., -R, -a, 3 recipients) writes one stanza of the right type per recipient,
     with the tag tag_reference computes, that tag_reference opens (header, MAC, payload),
     that `warpcrypt decrypt` opens through the plugin, and that rage's plugin client
     (pyrage.plugin) opens through the same plugin;
  4. mixing, as age's labels rule it (tag.go WrapWithLabels: mlkem768p256tag is
     "postquantum", p256tag has no label): age1tagpq1 with age1pq1 is written and opens with
     either identity; age1tagpq1 with X25519, or with age1tag1, is exit 2 with nothing
     written; age1tag1 with X25519 is written and opens with either; and a warp file has no
     slot for a tag recipient: exit 2, nothing written, and the error names the tag type.

Groups 3 and 4 need warpcrypt's native tag recipients; where warpcrypt still takes
`age1tag1...` for a plugin named `tag`, they fail with that error. Everything runs in a private
temporary directory (mode 0700, identity files 0600). Prints `ok - NAME` or `FAIL - NAME:
REASON` per check, then `N passed, M failed`; exits 0 only when nothing failed.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
PLUGIN_DIR = ROOT / "tests" / "plugin"
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, str(HERE))

import pq_reference as pq  # noqa: E402
import tag_reference as ref  # noqa: E402
from pq_interop_test import (  # noqa: E402  (the same harness and expectations)
    CheckFailed,
    Harness,
    expect,
    expect_refused,
    expect_same_bytes,
    expect_success,
)

SIZES = (0, 1, 65535, 65536, 65537)
KINDS = (("age1tag1", False), ("age1tagpq1", True))


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


class Keys:
    """The test's keys. Tag identities (made by tag_reference, held by the plugin): C, C2, C3
    classic, Q, Q2, Q3 hybrid, S and T strangers of each kind. P is warpcrypt's age1pq1
    identity, X its X25519 one (for the mixing rules)."""

    def __init__(self, h: Harness):
        self.tag = {
            "C": ref.generate_identity(False),
            "C2": ref.generate_identity(False),
            "C3": ref.generate_identity(False),
            "Q": ref.generate_identity(True),
            "Q2": ref.generate_identity(True),
            "Q3": ref.generate_identity(True),
            "S": ref.generate_identity(False),
            "T": ref.generate_identity(True),
        }
        self.recipient = {name: str(i.recipient()) for name, i in self.tag.items()}
        self.file = {
            name: h.identity_file(f"{name}.identity", [ref.encode_plugin_identity(i)])
            for name, i in self.tag.items()
        }
        # One file holding the strangers first, then both kinds: the plugin skips by tag.
        self.file["all"] = h.identity_file(
            "S-T-C-Q.identity",
            [ref.encode_plugin_identity(self.tag[n]) for n in ("S", "T", "C", "Q")],
        )
        for name, flags in (("P", []), ("X", ["--x25519"])):
            path = h.fresh(f"{name}.identity")
            expect_success(h.wc("keygen", "--identity", *flags, "-o", path))
            self.file[name] = path
            identity = ref.parse_identity_file(path.read_text())[0]
            self.recipient[name] = str(identity.recipient())
            self.tag[name] = identity

    def identity(self, postquantum: bool) -> str:
        return "Q" if postquantum else "C"


class Plaintexts:
    """One random plaintext per size, each written once."""

    def __init__(self, h: Harness):
        self.data = {size: os.urandom(size) for size in SIZES}
        self.path = {size: h.write(f"plain-{size}", data) for size, data in self.data.items()}


def plugin_environment() -> None:
    """age-plugin-tagtest first on PATH, then this python's directory (for the plugin's
    `#!/usr/bin/env python3`), then the rest; warpcrypt and pyrage look plugins up there."""
    parts = [str(PLUGIN_DIR), str(Path(sys.executable).parent), os.environ.get("PATH", "")]
    os.environ["PATH"] = os.pathsep.join(parts)


# ---------------------------------------------------------------------------------------------
# 1. pyrage and tag_reference -> warpcrypt, through the plugin.
# ---------------------------------------------------------------------------------------------


def warpcrypt_opens(h: Harness, encrypted: Path, identity: Path, plaintext: bytes) -> None:
    decrypted = h.fresh("warpcrypt.out")
    expect_success(h.wc("decrypt", encrypted, "-o", decrypted, "-i", identity))
    expect_same_bytes(decrypted, plaintext)


def check_into_warpcrypt(h: Harness, keys: Keys, plain: Plaintexts, pyrage) -> None:
    def from_pyrage(postquantum: bool, size: int):
        module = pyrage.tagpq if postquantum else pyrage.tag
        name = keys.identity(postquantum)
        recipient = module.Recipient.from_str(keys.recipient[name])
        encrypted = h.write("pyrage.age", pyrage.encrypt(plain.data[size], [recipient]))
        warpcrypt_opens(h, encrypted, keys.file[name], plain.data[size])

    def from_reference(postquantum: bool, size: int, armor: bool, count: int):
        names = (["Q2", "Q3", "Q"] if postquantum else ["C2", "C"])[-count:]
        recipients = [keys.tag[n].recipient() for n in names]
        data = ref.age_encrypt(plain.data[size], recipients, armor=armor)
        encrypted = h.write("reference.age", data)
        warpcrypt_opens(h, encrypted, keys.file["all"], plain.data[size])

    def default_identity(postquantum: bool):
        # age's age-plugin-tagtest keys (the selftest pins them to age's strings); -j tagtest
        # sends the identity with no data, which this plugin reads as those keys.
        recipient = ref.age_tagtest_identities()[1 if postquantum else 0].recipient()
        module = pyrage.tagpq if postquantum else pyrage.tag
        data = pyrage.encrypt(b"age's test key\n", [module.Recipient.from_str(str(recipient))])
        encrypted = h.write("pyrage-default.age", data)
        decrypted = h.fresh("warpcrypt.out")
        expect_success(h.wc("decrypt", encrypted, "-o", decrypted, "-j", "tagtest"))
        expect_same_bytes(decrypted, b"age's test key\n")

    for kind, postquantum in KINDS:
        if pyrage is not None:
            for size in SIZES:
                h.check(f"pyrage -> warpcrypt (plugin): {kind}, {size} B",
                        lambda p=postquantum, s=size: from_pyrage(p, s))
        for size in SIZES:
            for armor in (False, True):
                form = "armored" if armor else "binary"
                h.check(f"reference -> warpcrypt (plugin): {kind}, {size} B, {form}",
                        lambda p=postquantum, s=size, a=armor: from_reference(p, s, a, 1))
        h.check(f"reference -> warpcrypt (plugin): {kind}, 3 recipients, the last one's key",
                lambda p=postquantum: from_reference(p, 65537, False, 3 if p else 2))
        if pyrage is not None:
            h.check(f"pyrage -> warpcrypt -j tagtest: age's test {kind} recipient",
                    lambda p=postquantum: default_identity(p))


# ---------------------------------------------------------------------------------------------
# 2. Refusals on the way in.
# ---------------------------------------------------------------------------------------------


def altered_body(data: bytes) -> bytes:
    """The file with its one tag stanza's body changed in one bit (its tag still matches):
    rebuilt from the parsed header, the MAC line and payload kept."""
    header = pq.age_parse_header(data)
    stanza = header.stanzas[0]
    body = stanza.body[:-1] + bytes([stanza.body[-1] ^ 1])
    edited = pq.Stanza(stanza.type, stanza.args, body)
    rest = data[len(header.mac_input) - 3 :]  # "--- MAC" LF, nonce, payload
    return pq.AGE_INTRO + b"\n" + pq.age_encode_stanza(edited) + rest


def check_refusals(h: Harness, keys: Keys, plain: Plaintexts) -> None:
    def stranger(postquantum: bool):
        name = keys.identity(postquantum)
        data = ref.age_encrypt(plain.data[1], [keys.tag[name].recipient()])
        encrypted = h.write("reference.age", data)
        output = h.fresh_dir("out") / "plain"
        stranger_file = keys.file["T" if postquantum else "S"]
        result = h.wc("decrypt", encrypted, "-o", output, "-i", stranger_file)
        expect_refused(result, 3, output, strict_stderr=True)

    def tampered(postquantum: bool):
        name = keys.identity(postquantum)
        data = ref.age_encrypt(plain.data[65537], [keys.tag[name].recipient()])
        edited = altered_body(data)
        try:
            ref.age_decrypt(edited, [keys.tag[name]])
        except pq.AgeHeaderError:
            pass
        else:
            raise CheckFailed("the reference opens the altered stanza")
        encrypted = h.write("altered.age", edited)
        output = h.fresh_dir("out") / "plain"
        result = h.wc("decrypt", encrypted, "-o", output, "-i", keys.file[name])
        expect_refused(result, 4, output, strict_stderr=True)

    for kind, postquantum in KINDS:
        h.check(f"refused: {kind} file, a stranger's tagtest identity -> exit 3, nothing written",
                lambda p=postquantum: stranger(p))
        h.check(f"refused: {kind} stanza, tag matches, body altered -> exit 4, nothing written",
                lambda p=postquantum: tampered(p))


# ---------------------------------------------------------------------------------------------
# 3. warpcrypt -> tag_reference, warpcrypt (plugin), pyrage (plugin).
# ---------------------------------------------------------------------------------------------


def expect_tag_stanzas(data: bytes, recipients: list) -> None:
    """One stanza per recipient, in order, of its type, whose tag is the one tag_reference
    computes for that recipient and enc; no other stanza of a type age knows."""
    header = pq.age_parse_header(data)
    known = [s for s in header.stanzas if s.type in (
        "p256tag", "mlkem768p256tag", "X25519", "mlkem768x25519", "scrypt")]
    types = [s.type for s in known]
    expect(types == [r.stanza_type for r in recipients], f"stanza types {types}")
    for stanza, recipient in zip(known, recipients):
        try:
            tag, enc = ref.stanza_tag_and_enc(stanza, recipient.enc_size)
        except ref.AgeHeaderError as error:
            raise CheckFailed(f"malformed stanza: {error}") from None
        expected = ref.compute_tag(recipient.label, enc, recipient.tag_key)
        expect(tag == expected, f"{stanza.type} tag {tag.hex()}, expected {expected.hex()}")


def rage_plugin_opens(pyrage, data: bytes, identity_strings: list[str], plaintext: bytes):
    identities = [pyrage.plugin.Identity.from_str(i) for i in identity_strings]
    plugin = pyrage.plugin.IdentityPluginV1("tagtest", identities, PluginCallbacks())
    try:
        opened = pyrage.decrypt(data, [plugin])
    except pyrage.DecryptError as error:
        raise CheckFailed(f"pyrage.plugin: {error}") from None
    expect(opened == plaintext, "pyrage.plugin: plaintext differs")


def check_from_warpcrypt(h: Harness, keys: Keys, plain: Plaintexts, pyrage) -> None:
    def one(postquantum: bool, size: int, armor: bool, count: int):
        names = (["Q", "Q2", "Q3"] if postquantum else ["C", "C2", "C3"])[:count]
        args = ["-r", keys.recipient[names[0]]]
        if count > 1:
            listed = "".join(f"{keys.recipient[n]}\n" for n in names[1:])
            args += ["-R", h.write("tag.recipients", f"# tag keys\n{listed}".encode())]
        encrypted = h.fresh("warpcrypt.age")
        result = h.wc(
            "encrypt", plain.path[size], "-o", encrypted, "--format", "age",
            *(["-a"] if armor else []), *args,
        )
        expect_success(result)
        data = encrypted.read_bytes()
        expect(data.startswith(pq.ARMOR_BEGIN) == armor, f"armor {armor}: {data[:30]!r}")
        binary = pq.armor_decode(data) if armor else data
        expect_tag_stanzas(binary, [keys.tag[n].recipient() for n in names])
        for name in names:  # every recipient's key opens it, in tag_reference
            try:
                opened = ref.age_decrypt(data, [keys.tag[name]])
            except pq.PQReferenceError as error:
                raise CheckFailed(f"tag_reference ({name}): {type(error).__name__}: {error}")
            expect(opened == plain.data[size], f"tag_reference ({name}): plaintext differs")
        warpcrypt_opens(h, encrypted, keys.file[names[-1]], plain.data[size])
        if pyrage is not None:
            identity = ref.encode_plugin_identity(keys.tag[names[-1]])
            rage_plugin_opens(pyrage, data, [identity], plain.data[size])

    for kind, postquantum in KINDS:
        for size in SIZES:
            for armor in (False, True):
                form = "armored" if armor else "binary"
                h.check(
                    f"warpcrypt -> reference, warpcrypt, pyrage (plugin): {kind}, {size} B, {form}",
                    lambda p=postquantum, s=size, a=armor: one(p, s, a, 1),
                )
        h.check(f"warpcrypt -> reference, warpcrypt, pyrage (plugin): {kind}, -r and -R, "
                "3 recipients", lambda p=postquantum: one(p, 65537, False, 3))


# ---------------------------------------------------------------------------------------------
# 4. Mixing rules, and the warp format.
# ---------------------------------------------------------------------------------------------


def check_mixing(h: Harness, keys: Keys, plain: Plaintexts) -> None:
    def allowed(names: list[str]):
        encrypted = h.fresh("mixed.age")
        args = [a for n in names for a in ("-r", keys.recipient[n])]
        result = h.wc("encrypt", plain.path[65537], "-o", encrypted, "--format", "age",
                      "--no-pq-warning", *args)
        expect_success(result)
        data = encrypted.read_bytes()
        for name in names:
            try:
                opened = ref.age_decrypt(data, [keys.tag[name]])
            except pq.PQReferenceError as error:
                raise CheckFailed(f"tag_reference ({name}): {type(error).__name__}: {error}")
            expect(opened == plain.data[65537], f"tag_reference ({name}): plaintext differs")
            warpcrypt_opens(h, encrypted, keys.file[name], plain.data[65537])

    def refused(names: list[str], *extra: str):
        output = h.fresh_dir("out") / "mixed.age"
        args = [a for n in names for a in ("-r", keys.recipient[n])]
        result = h.wc("encrypt", plain.path[1], "-o", output, *extra, *args)
        expect_refused(result, 2, output)
        # Refused for the rule, not because warpcrypt looked for a plugin named tag or tagpq.
        expect(b"no age-plugin-tag" not in result.stderr,
               "refused only because no age-plugin-tag(pq) is on PATH: not native yet")
        return result

    def warp_refused(name: str, *format_args: str):
        result = refused([name], *format_args)
        errors = [line for line in result.stderr.decode(errors="replace").splitlines()
                  if line.startswith("warpcrypt: error:")]
        # The recipient or a path quoted back (the directory's name has "tag" in it) does not
        # count as naming the type.
        text = errors[0].replace(keys.recipient[name], "RECIPIENT")
        text = text.replace(str(h.workdir), "DIRECTORY")
        expect(re.search(r"tag", text, re.I) is not None,
               f"the error does not name the tag type: {text!r}")

    h.check("mixing: --format age -r age1tagpq1 -r age1pq1 -> written, opens with each",
            lambda: allowed(["Q", "P"]))
    h.check("mixing: --format age -r age1tag1 -r age1 (X25519) -> written, opens with each",
            lambda: allowed(["C", "X"]))
    h.check("mixing: --format age -r age1tagpq1 -r age1 (X25519) -> exit 2, nothing written",
            lambda: refused(["Q", "X"], "--format", "age"))
    h.check("mixing: --format age -r age1 (X25519) -r age1tagpq1 -> exit 2, nothing written",
            lambda: refused(["X", "Q"], "--format", "age"))
    h.check("mixing: --format age -r age1tagpq1 -r age1tag1 -> exit 2, nothing written",
            lambda: refused(["Q", "C"], "--format", "age"))
    for kind, postquantum in KINDS:
        name = keys.identity(postquantum)
        h.check(f"warp: --format warp -r {kind} -> exit 2, nothing written, names the tag type",
                lambda n=name: warp_refused(n, "--format", "warp"))
        h.check(f"warp: (default format) -r {kind} -> exit 2, nothing written, names the "
                "tag type", lambda n=name: warp_refused(n))


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
    plugin_environment()
    try:
        import pyrage
    except ImportError:
        pyrage = None

    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="warpcrypt-tag-interop-") as tmp:
        workdir = Path(tmp)
        workdir.chmod(0o700)
        h = Harness(warpcrypt, workdir)
        if pyrage is None:
            h.check("pyrage is importable (pip install pyrage==1.4.0; scripts/deps.sh does)",
                    lambda: expect(False, f"no pyrage for {sys.executable}"))
        try:
            keys = Keys(h)
            plain = Plaintexts(h)
        except Exception as error:
            print(f"FAIL - setup: {error}")
            print(f"{h.passed} passed, {h.failed + 1} failed")
            return 1
        check_into_warpcrypt(h, keys, plain, pyrage)
        check_refusals(h, keys, plain)
        check_from_warpcrypt(h, keys, plain, pyrage)
        check_mixing(h, keys, plain)
    print(f"# {time.monotonic() - started:.1f} s", flush=True)
    print(f"{h.passed} passed, {h.failed} failed")
    return 0 if h.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
