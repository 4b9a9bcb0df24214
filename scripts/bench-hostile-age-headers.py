#!/usr/bin/env python3
"""Times `warpcrypt decrypt` and `age -d` on age files whose headers were made to cost their
reader, in the same run, and prints warpcrypt's time over age's for each (the goal: at most
2x). The files are the victim's own age file with stanzas put in front of the victim's stanza
(the header MAC then fails for both tools: what is timed is the work before that verdict):

  reproduction   10,695 X25519 stanzas of noise, 1 MiB (once 49 s in warpcrypt, under 1 s in
                 age 1.1.1; now refused at stanza 1025)
  1 MiB, 1024    the most stanzas a header may have: 600 X25519 stanzas of noise and 423
                 unknown stanzas with 2.2 KB bodies, 0.9 MiB
  x25519 1023    1023 X25519 stanzas of noise: the most key agreements a header can ask for
  ssh-rsa 1023   1023 ssh-rsa stanzas of noise carrying the victim's public key tag (4096-bit
                 RSA; security review 3, item 4: once 8.9-10.1 s in warpcrypt, one RSA
                 decryption per stanza; now one per identity, as in age)

Usage: scripts/bench-hostile-age-headers.py [--runs N] [--bin WARPCRYPT]
Needs age (Debian package `age`) and ssh-keygen on PATH; WARPCRYPT defaults to build/release's binary, then
build/default's. Prints a Markdown table; nothing is written outside a scratch directory.
"""
import argparse
import base64
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def b64(data):
    return base64.b64encode(data).rstrip(b"=")


def noise_x25519(count):
    return b"".join(b"-> X25519 " + b64(os.urandom(32)) + b"\n" + b64(os.urandom(32)) + b"\n"
                    for _ in range(count))


def unknown_with_body(count, body_bytes):
    body = b64(os.urandom(body_bytes))
    lines = [body[i:i + 64] for i in range(0, len(body), 64)]
    text = b"\n".join(lines) + b"\n" + (b"\n" if len(lines[-1]) == 64 else b"")
    return b"".join(b"-> junk%d\n" % i + text for i in range(count))


def noise_ssh_rsa(tag, count, modulus_bytes):
    """Stanzas with the victim's tag and a body of noise as long as an RSA block."""
    stanzas = []
    for _ in range(count):
        body = b64(os.urandom(modulus_bytes))
        lines = [body[i:i + 64] for i in range(0, len(body), 64)]
        text = b"\n".join(lines) + b"\n" + (b"\n" if len(lines[-1]) == 64 else b"")
        stanzas.append(b"-> ssh-rsa " + tag + b"\n" + text)
    return b"".join(stanzas)


def cpu_model():
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def timed(command):
    started = time.perf_counter()
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return time.perf_counter() - started, done.returncode, done.stderr.decode(errors="replace")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--bin", default=os.environ.get("WARPCRYPT_BIN"))
    args = parser.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    warpcrypt = args.bin
    for candidate in ("build/release/cli/warpcrypt", "build/default/cli/warpcrypt"):
        if warpcrypt is None and os.access(os.path.join(root, candidate), os.X_OK):
            warpcrypt = os.path.join(root, candidate)
    if warpcrypt is None or shutil.which("age") is None:
        sys.exit("bench-hostile-age-headers: needs a built warpcrypt (--bin) and age on PATH")

    scratch = tempfile.mkdtemp(prefix="warpcrypt-hostile-")
    try:
        identity = os.path.join(scratch, "id.txt")
        # Classic X25519: age 1.1.1, the reference here, reads no post-quantum identity.
        subprocess.run([warpcrypt, "keygen", "--identity", "--x25519", "-o", identity], check=True,
                       stderr=subprocess.DEVNULL)
        recipient = subprocess.run([warpcrypt, "keygen", "-y", identity], check=True,
                                   capture_output=True).stdout.decode().strip()
        sealed = subprocess.run([warpcrypt, "encrypt", "--format", "age", "-r", recipient,
                                 "-o", "-"], input=b"the victim's data", check=True,
                                capture_output=True).stdout
        intro, rest = sealed.split(b"\n", 1)
        # The ssh-rsa victim: a 4096-bit key from ssh-keygen, and a file sealed to it.
        rsa_key = os.path.join(scratch, "id_rsa")
        subprocess.run(["ssh-keygen", "-q", "-t", "rsa", "-b", "4096", "-N", "", "-f", rsa_key],
                       check=True)
        sealed_rsa = subprocess.run([warpcrypt, "encrypt", "--format", "age", "-R",
                                     rsa_key + ".pub", "-o", "-"], input=b"the victim's data",
                                    check=True, capture_output=True).stdout
        rsa_intro, rsa_rest = sealed_rsa.split(b"\n", 1)
        tag = rsa_rest.split(b"\n", 1)[0].split(b" ")[2]
        # (header name, identity, the victim's file before and after the stanzas put in)
        files = {
            "reproduction (10,695 stanzas, 1 MiB)": (identity, intro, noise_x25519(10695), rest),
            "1024 stanzas, 0.9 MiB": (identity, intro,
                                      noise_x25519(600) + unknown_with_body(423, 1650), rest),
            "1023 X25519 stanzas": (identity, intro, noise_x25519(1023), rest),
            "1023 ssh-rsa stanzas with the victim's tag": (
                rsa_key, rsa_intro, noise_ssh_rsa(tag, 1023, 512), rsa_rest),
        }
        print(f"CPU: {cpu_model()}; {args.runs} runs each, interleaved; times are medians")
        print()
        print("| header | size | warpcrypt | age | warpcrypt / age | warpcrypt's answer |")
        print("| --- | ---: | ---: | ---: | ---: | --- |")
        for name, (key, before, stanzas, after) in files.items():
            path = os.path.join(scratch, "crafted.age")
            with open(path, "wb") as out:
                out.write(before + b"\n" + stanzas + after)
            ours, theirs, answer = [], [], ""
            for _ in range(args.runs):
                seconds, code, err = timed([warpcrypt, "decrypt", "-i", key, "-o", "-", path])
                ours.append(seconds)
                reason = err.splitlines()[0].split(path + ": ", 1)[-1] if err else ""
                answer = f"exit {code}: {reason[:60]}"
                seconds, _, _ = timed(["age", "-d", "-i", key, path])
                theirs.append(seconds)
            w, a = statistics.median(ours), statistics.median(theirs)
            print(f"| {name} | {os.path.getsize(path) / 2**20:.2f} MiB | {w * 1000:.1f} ms | "
                  f"{a * 1000:.1f} ms | {w / a:.2f}x | {answer} |")
    finally:
        shutil.rmtree(scratch)


if __name__ == "__main__":
    main()
