#!/usr/bin/env python3
"""Interop test of warpcrypt's age files against rage (pyrage 1.4.0), through the binary.

    build/interop-venv/bin/python3 tests/interop/rage_interop_test.py \
        --warpcrypt build/default/cli/warpcrypt [-k SUBSTRING]

pyrage is the Python binding of rage's Rust `age` crate, an implementation of age written apart
from both age (Go) and warpcrypt. Each case makes an age file on one side and opens it on the
other, with the real binary driven as a subprocess; the plaintexts are random, at the STREAM
chunk edges (0, 1, 64 KiB - 1, 64 KiB, 64 KiB + 1, 128 KiB, 128 KiB + 1). The groups:

  1. keys: an X25519 identity made by either side (`warpcrypt keygen --identity --x25519`,
     `pyrage.x25519.Identity.generate()`) has the same recipient on both sides; for SSH keys,
     whose recipient pyrage cannot print, `warpcrypt keygen -y` against ssh-keygen's .pub (for
     an Ed25519 key in PKCS#8, which ssh-keygen does not read, python `cryptography`'s);
  2. X25519, with the identity made by warpcrypt and with one made by pyrage, both directions,
     binary and armored (warpcrypt `--armor`, pyrage `armored=True`);
  3. scrypt passphrases, both directions (warpcrypt with --passphrase-file and
     `--kdf-memory 8`, work factor 13; pyrage picks its own, about one second's work);
  4. ssh-ed25519 and ssh-rsa keys from ssh-keygen (OpenSSH format), both directions; the same
     kinds with a passphrase-protected key, pyrage -> warpcrypt only (pyrage's
     ssh.Identity.from_buffer refuses encrypted keys: "ssh key must be decrypted first"), where
     warpcrypt reads the passphrase from --identity-passphrase-file;
  5. RSA keys in PEM, pyrage -> warpcrypt (warpcrypt opens with the PEM key): PKCS#1
     (`ssh-keygen -m PEM`), PKCS#8 (`ssh-keygen -m PKCS8`), and legacy encrypted PKCS#1
     (`openssl rsa -traditional -aes256 / -aes128 / -des3`, "Proc-Type: 4,ENCRYPTED"), and an
     Ed25519 key in PKCS#8 (`openssl genpkey`);
  6. one file to three recipients of different kinds (X25519, ssh-ed25519, ssh-rsa), both
     directions, opened on the other side by each identity alone;
  7. refusals both sides must agree on: a stranger's X25519 identity, a wrong passphrase
     (warpcrypt: exit 3; pyrage: DecryptError); an encrypted PKCS#8 key (BEGIN ENCRYPTED
     PRIVATE KEY), which age does not read (warpcrypt: exit 2; pyrage: IdentityError).

Keys are made once (RSA generation is the slow part: four 2048-bit keys). Everything runs in
a private temporary directory (mode 0700, key files 0600), with no network. Prints one line per
case, `agree - NAME` or `DISAGREE - NAME: warpcrypt: WHAT IT DID; pyrage: WHAT IT DID`, then
`N of M cases agree`; exits 0 only when every case agrees.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

try:
    import pyrage
    from pyrage import passphrase as rage_passphrase
    from pyrage import ssh as rage_ssh
    from pyrage import x25519 as rage_x25519
except ImportError as error:  # the venv predates pyrage: say how to get it, as one FAIL line
    print(f"DISAGREE - setup: cannot import pyrage ({error}); run scripts/deps.sh, which "
          "installs pyrage==1.4.0 into build/interop-venv")
    print("0 of 1 cases agree")
    sys.exit(1)

SIZES = (0, 1, 65535, 65536, 65537, 131072, 131073)
PASSPHRASE = "correct horse battery staple"
KEY_PASSPHRASE = "ssh key passphrase"
ARMOR_BEGIN = b"-----BEGIN AGE ENCRYPTED FILE-----"
AGE_INTRO = b"age-encryption.org/v1\n"


class SetupFailed(Exception):
    """A key or input could not be made; every case that needs it disagrees with this reason."""


class Disagree(Exception):
    """The two sides did not do the same thing; the message says what each did."""


# The private directory, cut from the paths in messages (set by main).
WORKDIR_PREFIX = ""


def shorten(text: str, limit: int = 300) -> str:
    text = text.strip().replace("\n", " | ")
    if WORKDIR_PREFIX:
        text = text.replace(WORKDIR_PREFIX, "")
    return text if len(text) <= limit else text[:limit] + "..."


def describe_run(result: subprocess.CompletedProcess) -> str:
    """A warpcrypt command: its arguments (long ones cut), exit status and stderr."""
    args = [str(a).replace(WORKDIR_PREFIX, "") if WORKDIR_PREFIX else str(a)
            for a in result.args[1:]]
    argv = " ".join(a if len(a) < 60 else a[:24] + "..." for a in args)
    stderr = shorten(result.stderr.decode(errors="replace"))
    return f"`warpcrypt {argv}` exited {result.returncode}" + (f" ({stderr})" if stderr else "")


def describe_file(data: bytes) -> str:
    if data.startswith(ARMOR_BEGIN):
        form = "armored age"
    elif data.startswith(AGE_INTRO):
        form = "binary age"
    else:
        form = f"not age, starts {data[:24]!r}"
    return f"{len(data)} bytes, {form}"


def describe_plaintext(got: bytes, want: bytes) -> str:
    if got == want:
        return f"the plaintext ({len(got)} bytes)"
    first = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
    return f"a WRONG plaintext: {len(got)} bytes instead of {len(want)}, first difference at byte {first}"


def describe_exception(what: str, error: BaseException) -> str:
    return f"{what} raised {type(error).__name__}: {shorten(str(error))}"


class Harness:
    """The binary, the private directory, fresh names, the tally of cases."""

    def __init__(self, warpcrypt: Path, workdir: Path, only: str | None):
        self.warpcrypt = warpcrypt
        self.workdir = workdir
        self.only = only
        self.total = 0
        self.agreed = 0
        self.serial = 0
        # No WARPCRYPT_PASSPHRASE or WARPCRYPT_NO_PQ_WARNING from the caller's environment.
        self.env = {k: v for k, v in os.environ.items()
                    if k not in ("WARPCRYPT_PASSPHRASE", "WARPCRYPT_NO_PQ_WARNING")}

    def case(self, name: str, function) -> None:
        """One case: it agrees when `function` returns; Disagree (or a setup failure, or a bug
        in the test) makes it disagree, with the reason on the same line."""
        if self.only and self.only not in name:
            return
        self.total += 1
        try:
            function()
        except Disagree as error:
            reason = str(error)
        except SetupFailed as error:
            reason = f"setup failed: {error}"
        except Exception as error:  # a bug in the test: still one line
            reason = f"test error: {type(error).__name__}: {error}"
        else:
            self.agreed += 1
            print(f"agree - {name}", flush=True)
            return
        print(f"DISAGREE - {name}: {reason}", flush=True)

    def fresh(self, name: str) -> Path:
        """A path that does not exist yet (warpcrypt refuses to overwrite)."""
        self.serial += 1
        return self.workdir / f"{self.serial:04d}-{name}"

    def write(self, name: str, data: bytes) -> Path:
        path = self.fresh(name)
        path.write_bytes(data)
        path.chmod(0o600)
        return path

    def run(self, argv: list, **kwargs) -> subprocess.CompletedProcess:
        return subprocess.run([str(a) for a in argv], stdin=subprocess.DEVNULL,
                              capture_output=True, timeout=120, env=self.env, **kwargs)

    def wc(self, *args) -> subprocess.CompletedProcess:
        return self.run([self.warpcrypt, *args])


# ---------------------------------------------------------------------------------------------
# Keys, made once, each on first use (a key that cannot be made fails only its own cases).
# ---------------------------------------------------------------------------------------------


class Key:
    """One identity: what warpcrypt is given (`wc_args` for decrypt, `wc_recipient` for -r)
    and what pyrage is given (`rage_identity`, `rage_recipient`; None where pyrage cannot)."""

    def __init__(self, wc_args, wc_recipient, rage_identity, rage_recipient, pub_line=None,
                 path=None):
        self.wc_args = wc_args
        self.wc_recipient = wc_recipient
        self.rage_identity = rage_identity
        self.rage_recipient = rage_recipient
        self.pub_line = pub_line  # ssh-keygen's public key line, for SSH keys
        self.path = path


class Keys:
    def __init__(self, h: Harness):
        self.h = h
        self.made: dict[str, Key | SetupFailed] = {}
        self.passphrase_file = h.write("passphrase", (PASSPHRASE + "\n").encode())
        self.wrong_passphrase_file = h.write("wrong-passphrase", b"not the passphrase\n")
        self.key_passphrase_file = h.write("key-passphrase", (KEY_PASSPHRASE + "\n").encode())
        self.makers = {
            "x25519-warpcrypt": self.x25519_by_warpcrypt,
            "x25519-pyrage": self.x25519_by_pyrage,
            "x25519-stranger": self.x25519_by_pyrage,
            "ed25519": lambda: self.ssh_keygen("ed25519", ["-t", "ed25519"]),
            "ed25519-protected": lambda: self.ssh_keygen(
                "ed25519-protected", ["-t", "ed25519"], protected=True),
            "rsa": lambda: self.ssh_keygen("rsa", ["-t", "rsa", "-b", "2048"]),
            "rsa-protected": lambda: self.ssh_keygen(
                "rsa-protected", ["-t", "rsa", "-b", "2048"], protected=True),
            "pem-pkcs1": lambda: self.ssh_keygen(
                "pem-pkcs1", ["-t", "rsa", "-b", "2048", "-m", "PEM"],
                header="-----BEGIN RSA PRIVATE KEY-----\n"),
            "pem-pkcs8": lambda: self.ssh_keygen(
                "pem-pkcs8", ["-t", "rsa", "-b", "2048", "-m", "PKCS8"],
                header="-----BEGIN PRIVATE KEY-----\n"),
            "pem-aes256": lambda: self.openssl_encrypted("aes256"),
            "pem-aes128": lambda: self.openssl_encrypted("aes128"),
            "pem-des3": lambda: self.openssl_encrypted("des3"),
            "pem-ed25519-pkcs8": self.openssl_ed25519,
            "pem-pkcs8-encrypted": self.openssl_encrypted_pkcs8,
        }

    def __getitem__(self, name: str) -> Key:
        if name not in self.made:
            try:
                self.made[name] = self.makers[name]()
            except SetupFailed as error:
                self.made[name] = error
        key = self.made[name]
        if isinstance(key, SetupFailed):
            raise SetupFailed(f"key {name}: {key}")
        return key

    def x25519_by_warpcrypt(self) -> Key:
        path = self.h.fresh("warpcrypt-x25519.identity")
        result = self.h.wc("keygen", "--identity", "--x25519", "-o", path)
        if result.returncode != 0:
            raise SetupFailed(describe_run(result))
        lines = [l for l in path.read_text().splitlines() if l and not l.startswith("#")]
        if len(lines) != 1 or not lines[0].startswith("AGE-SECRET-KEY-1"):
            raise SetupFailed(f"keygen --identity --x25519 wrote {lines!r}")
        recipient = self.h.wc("keygen", "-y", path)
        if recipient.returncode != 0:
            raise SetupFailed(describe_run(recipient))
        identity = rage_x25519.Identity.from_str(lines[0])
        return Key(["-i", path], recipient.stdout.decode().strip(), identity,
                   identity.to_public(), path=path)

    def x25519_by_pyrage(self) -> Key:
        identity = rage_x25519.Identity.generate()
        path = self.h.write("pyrage-x25519.identity", f"{identity}\n".encode())
        # warpcrypt's recipient is pyrage's here; the keys group checks that keygen -y agrees.
        return Key(["-i", path], str(identity.to_public()), identity, identity.to_public(),
                   path=path)

    def ssh_keygen(self, name: str, args: list, protected: bool = False,
                   header: str = "-----BEGIN OPENSSH PRIVATE KEY-----\n") -> Key:
        if shutil.which("ssh-keygen") is None:
            raise SetupFailed("ssh-keygen not found (apt install openssh-client)")
        path = self.h.fresh(name)
        secret = KEY_PASSPHRASE if protected else ""
        result = self.h.run(["ssh-keygen", "-q", *args, "-N", secret, "-C", "", "-f", path])
        if result.returncode != 0:
            raise SetupFailed(f"ssh-keygen {' '.join(args)}: {shorten(result.stderr.decode())}")
        text = path.read_text()
        if not text.startswith(header):
            raise SetupFailed(f"ssh-keygen {' '.join(args)} wrote {text[:40]!r}, not {header!r}")
        pub_line = Path(str(path) + ".pub").read_text().strip()
        wc_args = ["-i", path]
        if protected:
            wc_args += ["--identity-passphrase-file", self.key_passphrase_file]
        return Key(wc_args, pub_line, self.rage_ssh_identity(path.read_bytes()),
                   rage_ssh.Recipient.from_str(pub_line), pub_line=pub_line, path=path)

    @staticmethod
    def rage_ssh_identity(data: bytes):
        """pyrage's identity of the key, or None where pyrage does not take it."""
        try:
            return rage_ssh.Identity.from_buffer(data)
        except pyrage.IdentityError:
            return None

    def openssl_encrypted(self, cipher: str) -> Key:
        """The PKCS#1 key, re-encrypted by `openssl rsa` in the legacy PEM form (Proc-Type and
        DEK-Info headers; OpenSSL 3 needs -traditional, else it writes PKCS#8)."""
        base = self["pem-pkcs1"]
        if shutil.which("openssl") is None:
            raise SetupFailed("openssl not found (apt install openssl)")
        path = self.h.fresh(f"pem-{cipher}")
        for extra in (["-traditional"], []):
            result = self.h.run(["openssl", "rsa", "-in", base.path, f"-{cipher}", *extra,
                                 "-passout", f"file:{self.key_passphrase_file}", "-out", path])
            if result.returncode == 0:
                break
        if result.returncode != 0:
            raise SetupFailed(f"openssl rsa -{cipher}: {shorten(result.stderr.decode())}")
        path.chmod(0o600)
        text = path.read_text()
        if not (text.startswith("-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\n")
                and "DEK-Info: " in text):
            raise SetupFailed(f"openssl rsa -{cipher} wrote {text[:80]!r}, not a legacy "
                              "encrypted PEM key")
        return Key(["-i", path, "--identity-passphrase-file", self.key_passphrase_file],
                   base.pub_line, self.rage_ssh_identity(path.read_bytes()),
                   base.rage_recipient, pub_line=base.pub_line, path=path)


    def openssl_ed25519(self) -> Key:
        """An Ed25519 key in PKCS#8 (`openssl genpkey`), which neither ssh-keygen nor pyrage
        reads: its ssh-ed25519 recipient comes from python `cryptography` (in the same venv)."""
        if shutil.which("openssl") is None:
            raise SetupFailed("openssl not found (apt install openssl)")
        path = self.h.fresh("pem-ed25519-pkcs8")
        result = self.h.run(["openssl", "genpkey", "-algorithm", "ed25519", "-out", path])
        if result.returncode != 0:
            raise SetupFailed(f"openssl genpkey: {shorten(result.stderr.decode())}")
        path.chmod(0o600)
        try:
            from cryptography.hazmat.primitives import serialization
            private = serialization.load_pem_private_key(path.read_bytes(), None)
            pub_line = private.public_key().public_bytes(
                serialization.Encoding.OpenSSH, serialization.PublicFormat.OpenSSH).decode()
        except Exception as error:
            raise SetupFailed(f"the recipient of {path.name}: {error}")
        return Key(["-i", path], pub_line, self.rage_ssh_identity(path.read_bytes()),
                   rage_ssh.Recipient.from_str(pub_line), pub_line=pub_line, path=path)

    def openssl_encrypted_pkcs8(self) -> Key:
        """The PKCS#1 key as an encrypted PKCS#8 key (`openssl rsa -aes256` without
        -traditional: BEGIN ENCRYPTED PRIVATE KEY), which age does not read."""
        base = self["pem-pkcs1"]
        path = self.h.fresh("pem-pkcs8-encrypted")
        result = self.h.run(["openssl", "rsa", "-in", base.path, "-aes256", "-passout",
                             f"file:{self.key_passphrase_file}", "-out", path])
        if result.returncode != 0:
            raise SetupFailed(f"openssl rsa -aes256: {shorten(result.stderr.decode())}")
        path.chmod(0o600)
        if not path.read_text().startswith("-----BEGIN ENCRYPTED PRIVATE KEY-----\n"):
            raise SetupFailed(f"openssl rsa -aes256 wrote {path.read_text()[:40]!r}")
        return Key(["-i", path, "--identity-passphrase-file", self.key_passphrase_file],
                   base.pub_line, self.rage_ssh_identity(path.read_bytes()),
                   base.rage_recipient, pub_line=base.pub_line, path=path)


class Plaintexts:
    def __init__(self, h: Harness):
        self.data = {size: os.urandom(size) for size in SIZES}
        self.path = {size: h.write(f"plain-{size}", data) for size, data in self.data.items()}


# ---------------------------------------------------------------------------------------------
# The two directions, and refusals.
# ---------------------------------------------------------------------------------------------


def warpcrypt_to_pyrage(h: Harness, plain: Plaintexts, size: int, encrypt_args: list,
                        rage_decrypt, armor: bool = False) -> None:
    """warpcrypt encrypts (`encrypt --format age ENCRYPT_ARGS`), pyrage decrypts with
    rage_decrypt(ciphertext); they agree when warpcrypt succeeds and pyrage returns the
    plaintext."""
    encrypted = h.fresh("warpcrypt.age")
    result = h.wc("encrypt", "--format", "age", *(["--armor"] if armor else []), *encrypt_args,
                  plain.path[size], "-o", encrypted)
    wc_did = describe_run(result)
    if result.returncode != 0:
        raise Disagree(f"warpcrypt: {wc_did}, so nothing for pyrage to open; pyrage: not run")
    ciphertext = encrypted.read_bytes()
    wc_did += f", wrote {describe_file(ciphertext)}"
    if armor != ciphertext.startswith(ARMOR_BEGIN):
        raise Disagree(f"warpcrypt: {wc_did}, {'not ' if armor else ''}armored as asked; "
                       "pyrage: not run")
    try:
        got = rage_decrypt(ciphertext)
    except Exception as error:
        raise Disagree(f"warpcrypt: {wc_did}; pyrage: {describe_exception('decrypt', error)}")
    if got != plain.data[size]:
        raise Disagree(f"warpcrypt: {wc_did}; pyrage: decrypt returned "
                       f"{describe_plaintext(got, plain.data[size])}")


def pyrage_to_warpcrypt(h: Harness, plain: Plaintexts, size: int, rage_encrypt,
                        decrypt_args: list, armor: bool = False) -> None:
    """pyrage encrypts with rage_encrypt(plaintext, armored), warpcrypt decrypts
    (`decrypt DECRYPT_ARGS`); they agree when warpcrypt writes the plaintext."""
    try:
        ciphertext = rage_encrypt(plain.data[size], armor)
    except Exception as error:
        raise Disagree(f"pyrage: {describe_exception('encrypt', error)}; warpcrypt: not run")
    rage_did = f"encrypt returned {describe_file(ciphertext)}"
    encrypted = h.write("pyrage.age", ciphertext)
    decrypted = h.fresh("warpcrypt.out")
    result = h.wc("decrypt", *decrypt_args, encrypted, "-o", decrypted)
    wc_did = describe_run(result)
    if result.returncode != 0:
        raise Disagree(f"pyrage: {rage_did}; warpcrypt: {wc_did}")
    if not decrypted.exists():
        raise Disagree(f"pyrage: {rage_did}; warpcrypt: {wc_did} but wrote no output")
    got = decrypted.read_bytes()
    if got != plain.data[size]:
        raise Disagree(f"pyrage: {rage_did}; warpcrypt: {wc_did}, wrote "
                       f"{describe_plaintext(got, plain.data[size])}")


def rage_decrypt_with(identities):
    def decrypt(ciphertext: bytes) -> bytes:
        if any(i is None for i in identities):
            raise SetupFailed("pyrage cannot load one of the identities")
        return pyrage.decrypt(ciphertext, identities)
    return decrypt


def rage_encrypt_to(recipients):
    return lambda plaintext, armored: pyrage.encrypt(plaintext, recipients, armored=armored)


def size_name(size: int) -> str:
    return f"{size} B"


def form_name(armor: bool) -> str:
    return "armored" if armor else "binary"


# ---------------------------------------------------------------------------------------------
# The groups.
# ---------------------------------------------------------------------------------------------


def check_keys(h: Harness, keys: Keys) -> None:
    def x25519_by_warpcrypt():
        key = keys["x25519-warpcrypt"]
        lines = key.path.read_text().splitlines()
        printed = [l.split(": ", 1)[1] for l in lines if l.startswith("# public key: ")]
        theirs = str(key.rage_identity.to_public())
        if [key.wc_recipient] != [theirs] or printed != [theirs]:
            raise Disagree(f"warpcrypt: keygen -y printed {key.wc_recipient!r}, keygen's "
                           f"comment says {printed!r}; pyrage: to_public() is {theirs!r}")

    def x25519_by_pyrage():
        key = keys["x25519-pyrage"]
        result = h.wc("keygen", "-y", key.path)
        ours = result.stdout.decode().strip()
        if result.returncode != 0 or ours != key.wc_recipient:
            raise Disagree(f"warpcrypt: {describe_run(result)}, printed {ours!r}; pyrage: "
                           f"to_public() is {key.wc_recipient!r}")

    def ssh_recipient(name: str):
        key = keys[name]
        result = h.wc("keygen", "-y", key.path)
        ours = result.stdout.decode().split()[:2]
        if result.returncode != 0 or ours != key.pub_line.split()[:2]:
            raise Disagree(f"warpcrypt: {describe_run(result)}, printed {ours!r}; the key's "
                           f"maker: {key.pub_line.split()[:2]!r}")

    h.case("keys: X25519 made by warpcrypt: keygen -y = pyrage's to_public()", x25519_by_warpcrypt)
    h.case("keys: X25519 made by pyrage: keygen -y = pyrage's to_public()", x25519_by_pyrage)
    # pyrage cannot print an SSH key's recipient: warpcrypt against the key's maker.
    for name in ("ed25519", "rsa", "pem-pkcs1", "pem-pkcs8"):
        h.case(f"keys: {name}: warpcrypt keygen -y = ssh-keygen's .pub",
               lambda n=name: ssh_recipient(n))
    h.case("keys: pem-ed25519-pkcs8: warpcrypt keygen -y = python cryptography's OpenSSH form",
           lambda: ssh_recipient("pem-ed25519-pkcs8"))


def check_both_directions(h: Harness, keys: Keys, plain: Plaintexts, family: str,
                          key_name: str, armors=(False,), sizes=SIZES,
                          to_pyrage: bool = True) -> None:
    """One identity's family: warpcrypt -> pyrage (when pyrage can load the identity) and
    pyrage -> warpcrypt, at each size and form."""
    def wc_to_rage(size, armor):
        key = keys[key_name]
        warpcrypt_to_pyrage(h, plain, size, ["--no-pq-warning", "-r", key.wc_recipient],
                            rage_decrypt_with([key.rage_identity]), armor)

    def rage_to_wc(size, armor):
        key = keys[key_name]
        pyrage_to_warpcrypt(h, plain, size, rage_encrypt_to([key.rage_recipient]),
                            key.wc_args, armor)

    for armor in armors:
        if to_pyrage:
            for size in sizes:
                h.case(f"{family}: warpcrypt -> pyrage, {size_name(size)}, {form_name(armor)}",
                       lambda s=size, a=armor: wc_to_rage(s, a))
        for size in sizes:
            h.case(f"{family}: pyrage -> warpcrypt, {size_name(size)}, {form_name(armor)}",
                   lambda s=size, a=armor: rage_to_wc(s, a))


def check_scrypt(h: Harness, keys: Keys, plain: Plaintexts) -> None:
    def wc_to_rage(size, armor):
        warpcrypt_to_pyrage(
            h, plain, size, ["--passphrase-file", keys.passphrase_file, "--kdf-memory", "8"],
            lambda ciphertext: rage_passphrase.decrypt(ciphertext, PASSPHRASE), armor)

    def rage_to_wc(size, armor):
        # pyrage's work factor is what one second of scrypt is on this machine (19 on a 2-core
        # 2026 one: 512 MiB); a faster machine's could pass warpcrypt's default cap of 1 GiB.
        pyrage_to_warpcrypt(
            h, plain, size,
            lambda plaintext, armored: rage_passphrase.encrypt(plaintext, PASSPHRASE,
                                                               armored=armored),
            ["--passphrase-file", keys.passphrase_file, "--kdf-max-memory", "4096",
             "--kdf-max-work", "65536"], armor)

    for direction, function in (("warpcrypt -> pyrage", wc_to_rage),
                                ("pyrage -> warpcrypt", rage_to_wc)):
        for size in SIZES:
            h.case(f"scrypt: {direction}, {size_name(size)}, binary",
                   lambda s=size, f=function: f(s, False))
        h.case(f"scrypt: {direction}, {size_name(65537)}, armored",
               lambda f=function: f(65537, True))


def check_multiple_recipients(h: Harness, keys: Keys, plain: Plaintexts) -> None:
    names = ("x25519-warpcrypt", "ed25519", "rsa")
    size = 65537

    def wc_to_rage(opener: str):
        args = ["--no-pq-warning"]
        for name in names:
            args += ["-r", keys[name].wc_recipient]
        warpcrypt_to_pyrage(h, plain, size, args,
                            rage_decrypt_with([keys[opener].rage_identity]))

    def rage_to_wc(opener: str):
        recipients = [keys[name].rage_recipient for name in names]
        pyrage_to_warpcrypt(h, plain, size, rage_encrypt_to(recipients), keys[opener].wc_args)

    for opener in names:
        h.case(f"3 recipients (X25519, ssh-ed25519, ssh-rsa): warpcrypt -> pyrage, "
               f"{size_name(size)}, opened by {opener} alone", lambda o=opener: wc_to_rage(o))
    for opener in names:
        h.case(f"3 recipients (X25519, ssh-ed25519, ssh-rsa): pyrage -> warpcrypt, "
               f"{size_name(size)}, opened by {opener} alone", lambda o=opener: rage_to_wc(o))


def check_refusals(h: Harness, keys: Keys, plain: Plaintexts) -> None:
    """Both sides refuse: warpcrypt exit 3 and no output, pyrage a DecryptError."""
    size = 65537

    def rage_refuses(ciphertext: bytes, decrypt, wc_did: str):
        try:
            got = decrypt(ciphertext)
        except pyrage.DecryptError:
            return
        except Exception as error:
            raise Disagree(f"warpcrypt: {wc_did}; pyrage: "
                           f"{describe_exception('decrypt', error)}, not DecryptError")
        raise Disagree(f"warpcrypt: {wc_did}; pyrage: decrypt did not refuse, returned "
                       f"{len(got)} bytes")

    def wc_refuses(ciphertext: bytes, decrypt_args: list, rage_did: str):
        encrypted = h.write("pyrage.age", ciphertext)
        decrypted = h.fresh("warpcrypt.out")
        result = h.wc("decrypt", *decrypt_args, encrypted, "-o", decrypted)
        if result.returncode != 3 or decrypted.exists():
            raise Disagree(f"pyrage: {rage_did}; warpcrypt: {describe_run(result)}, "
                           f"{'wrote' if decrypted.exists() else 'did not write'} output "
                           "(expected exit 3 and no output)")

    def stranger_wc_to_rage():
        encrypted = h.fresh("warpcrypt.age")
        result = h.wc("encrypt", "--format", "age", "--no-pq-warning", "-r",
                      keys["x25519-warpcrypt"].wc_recipient, plain.path[size], "-o", encrypted)
        if result.returncode != 0:
            raise Disagree(f"warpcrypt: {describe_run(result)}; pyrage: not run")
        rage_refuses(encrypted.read_bytes(),
                     rage_decrypt_with([keys["x25519-stranger"].rage_identity]),
                     "encrypted to X25519 recipient A")

    def stranger_rage_to_wc():
        ciphertext = pyrage.encrypt(plain.data[size], [keys["x25519-pyrage"].rage_recipient])
        wc_refuses(ciphertext, keys["x25519-stranger"].wc_args,
                   "encrypted to X25519 recipient B")

    def wrong_passphrase_wc_to_rage():
        encrypted = h.fresh("warpcrypt.age")
        result = h.wc("encrypt", "--format", "age", "--passphrase-file", keys.passphrase_file,
                      "--kdf-memory", "8", plain.path[size], "-o", encrypted)
        if result.returncode != 0:
            raise Disagree(f"warpcrypt: {describe_run(result)}; pyrage: not run")
        rage_refuses(encrypted.read_bytes(),
                     lambda c: rage_passphrase.decrypt(c, "not the passphrase"),
                     "encrypted with the passphrase")

    def wrong_passphrase_rage_to_wc():
        ciphertext = rage_passphrase.encrypt(plain.data[size], PASSPHRASE)
        wc_refuses(ciphertext, ["--passphrase-file", keys.wrong_passphrase_file,
                                "--kdf-max-memory", "4096", "--kdf-max-work", "65536"],
                   "encrypted with the passphrase")

    def encrypted_pkcs8():
        key = keys["pem-pkcs8-encrypted"]
        try:
            rage_ssh.Identity.from_buffer(key.path.read_bytes())
            rage_did = "ssh.Identity.from_buffer loaded the key"
        except pyrage.IdentityError:
            rage_did = None
        except Exception as error:
            rage_did = describe_exception("ssh.Identity.from_buffer", error)
        ciphertext = pyrage.encrypt(plain.data[size], [key.rage_recipient])
        encrypted = h.write("pyrage.age", ciphertext)
        decrypted = h.fresh("warpcrypt.out")
        result = h.wc("decrypt", *key.wc_args, encrypted, "-o", decrypted)
        wc_refused = result.returncode == 2 and not decrypted.exists()
        if rage_did is not None or not wc_refused:
            raise Disagree(f"pyrage: {rage_did or 'refuses the key (IdentityError)'}; warpcrypt: "
                           f"{describe_run(result)} (expected exit 2, the key refused)")

    h.case("refusal: X25519, warpcrypt -> pyrage, a stranger's identity", stranger_wc_to_rage)
    h.case("refusal: X25519, pyrage -> warpcrypt, a stranger's identity", stranger_rage_to_wc)
    h.case("refusal: scrypt, warpcrypt -> pyrage, a wrong passphrase",
           wrong_passphrase_wc_to_rage)
    h.case("refusal: scrypt, pyrage -> warpcrypt, a wrong passphrase",
           wrong_passphrase_rage_to_wc)
    h.case("refusal: an encrypted PKCS#8 RSA key (openssl rsa -aes256, no -traditional), "
           "which age does not read: pyrage and warpcrypt both refuse the key",
           encrypted_pkcs8)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--warpcrypt", required=True, type=Path, help="the warpcrypt binary")
    parser.add_argument("-k", dest="only", metavar="SUBSTRING",
                        help="run only the cases whose name contains SUBSTRING")
    args = parser.parse_args()
    warpcrypt = args.warpcrypt.resolve()
    if not os.access(warpcrypt, os.X_OK):
        print(f"DISAGREE - setup: {warpcrypt} is not an executable")
        print("0 of 1 cases agree")
        return 1

    global WORKDIR_PREFIX
    started = time.monotonic()
    print(f"# pyrage {importlib.metadata.version('pyrage')}, warpcrypt {warpcrypt}; "
          "paths below are in the private temporary directory", flush=True)
    with tempfile.TemporaryDirectory(prefix="warpcrypt-rage-interop-") as tmp:
        workdir = Path(tmp)
        WORKDIR_PREFIX = str(workdir) + "/"
        workdir.chmod(0o700)
        h = Harness(warpcrypt, workdir, args.only)
        keys = Keys(h)
        plain = Plaintexts(h)

        check_keys(h, keys)
        check_both_directions(h, keys, plain, "X25519 (warpcrypt's key)", "x25519-warpcrypt",
                              armors=(False, True))
        check_both_directions(h, keys, plain, "X25519 (pyrage's key)", "x25519-pyrage",
                              armors=(False, True))
        check_scrypt(h, keys, plain)
        check_both_directions(h, keys, plain, "ssh-ed25519", "ed25519")
        check_both_directions(h, keys, plain, "ssh-ed25519", "ed25519", armors=(True,),
                              sizes=(65537,))
        check_both_directions(h, keys, plain, "ssh-ed25519 (passphrase-protected key)",
                              "ed25519-protected", to_pyrage=False)
        check_both_directions(h, keys, plain, "ssh-rsa", "rsa")
        check_both_directions(h, keys, plain, "ssh-rsa", "rsa", armors=(True,), sizes=(65537,))
        check_both_directions(h, keys, plain, "ssh-rsa (passphrase-protected key)",
                              "rsa-protected", to_pyrage=False)
        for key_name, what in (
            ("pem-pkcs1", "PKCS#1 (ssh-keygen -m PEM)"),
            ("pem-pkcs8", "PKCS#8 (ssh-keygen -m PKCS8)"),
            ("pem-aes256", "PKCS#1 encrypted (openssl rsa -aes256)"),
            ("pem-aes128", "PKCS#1 encrypted (openssl rsa -aes128)"),
            ("pem-des3", "PKCS#1 encrypted (openssl rsa -des3)"),
            ("pem-ed25519-pkcs8", "Ed25519 PKCS#8 (openssl genpkey)"),
        ):
            kind = "ssh-ed25519" if "ed25519" in key_name else "ssh-rsa"
            check_both_directions(h, keys, plain, f"{kind}, PEM key {what}", key_name,
                                  to_pyrage=False)
        check_multiple_recipients(h, keys, plain)
        check_refusals(h, keys, plain)

        # What pyrage itself takes, for the record (not cases: pyrage's limits, not warpcrypt's).
        for name in ("ed25519-protected", "rsa-protected", "pem-pkcs1", "pem-pkcs8",
                     "pem-aes256", "pem-ed25519-pkcs8", "pem-pkcs8-encrypted"):
            key = keys.made.get(name)
            if isinstance(key, Key):
                try:
                    rage_ssh.Identity.from_buffer(key.path.read_bytes())
                    verdict = "loads it"
                except Exception as error:
                    verdict = describe_exception("refuses it: from_buffer", error)
                print(f"# pyrage ssh.Identity.from_buffer on the {name} key: {verdict}")

    print(f"# {time.monotonic() - started:.1f} s", flush=True)
    print(f"{h.agreed} of {h.total} cases agree")
    return 0 if h.agreed == h.total else 1


if __name__ == "__main__":
    sys.exit(main())
