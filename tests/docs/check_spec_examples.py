#!/usr/bin/env python3
"""Checks that formats/warp/SPEC.md's worked examples give their files byte for byte from the
text alone (security review 3, item 9: an implementer must be able to rebuild them): each
"offset  bytes  field" table of sections 9, 9.1, 9.2 and 10.1 is read as the bytes it lists,
at the offsets it names, and compared with the committed file the section names; 9.2's table
of `ek` must hash to the SHA-256 the section states.

Usage: check_spec_examples.py SPEC_MD TESTDATA_DIR. Prints one line per example, exit 1 on a
difference."""
import hashlib
import re
import sys

HEX_COLUMN = slice(8, 8 + 47)  # 16 bytes, "xx " each, after the 6-digit offset and 2 spaces
EXAMPLES = {  # section heading -> the file its table lists
    "## 9. Worked example": "worked_example.warp",
    "### 9.1 Worked example: an X25519 slot": "x25519_example.warp",
    "### 9.2 Worked example: an ML-KEM-768 + X25519 slot": "hybrid_example.warp",
    "### 10.1 Worked example": "v1/worked_example.warp",
}


def tables(section):
    """Each fenced block of `section` whose first line starts with "offset", as its lines."""
    blocks, block = [], None
    for line in section.splitlines():
        if line.startswith("```"):
            if block is not None:
                blocks.append(block)
                block = None
            else:
                block = []
            continue
        if block is not None:
            block.append(line)
    return [b for b in blocks if b and b[0].startswith("offset")]


def table_bytes(lines):
    """The bytes a table lists, checking that each stated offset is where the bytes are."""
    data = bytearray()
    for line in lines[1:]:
        if line.strip().startswith("--") or not line.strip():
            continue
        offset = line[:6].strip()
        if offset.isdigit() and int(offset) != len(data):
            raise ValueError(f"offset {offset} stated, {len(data)} bytes listed before it: {line!r}")
        for token in line[HEX_COLUMN].split():
            if not re.fullmatch(r"[0-9a-f]{2}", token):
                raise ValueError(f"not a byte in the bytes column: {token!r} in {line!r}")
            data.append(int(token, 16))
    return bytes(data)


def main():
    spec_path, testdata = sys.argv[1], sys.argv[2]
    spec = open(spec_path, encoding="utf-8").read()
    headings = [m.start() for m in re.finditer(r"^#{2,3} ", spec, re.M)] + [len(spec)]
    failures = 0
    for heading, name in EXAMPLES.items():
        start = spec.index("\n" + heading + "\n") + 1
        end = next(h for h in headings if h > start)
        section = spec[start:end]
        found = tables(section)
        file_tables = [t for t in found if t[0].split()[:2] == ["offset", "bytes"] and
                       "of" not in t[0].split()[:3]]
        expected = open(f"{testdata}/{name}", "rb").read()
        listed = table_bytes(file_tables[-1])
        ok = listed == expected
        print(f"{'ok  ' if ok else 'FAIL'} {heading.lstrip('# ')}: {len(listed)} bytes listed, "
              f"{name} is {len(expected)}")
        failures += not ok
        for table in found:
            if table[0].split()[:4] == ["offset", "bytes", "of", "ek"]:
                ek = table_bytes(table)
                stated = re.search(r"ek\s+=.*?SHA-256 ([0-9a-f]{64})", section, re.S).group(1)
                ok = len(ek) == 1184 and hashlib.sha256(ek).hexdigest() == stated
                print(f"{'ok  ' if ok else 'FAIL'} {heading.lstrip('# ')}: ek, {len(ek)} bytes, "
                      f"SHA-256 as stated")
                failures += not ok
    if failures:
        print(f"check_spec_examples: {failures} failure(s)")
        sys.exit(1)


if __name__ == "__main__":
    main()
