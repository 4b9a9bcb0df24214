#!/usr/bin/env python3
"""Keeps the README and docs/ honest: their links lead somewhere, and the README's commands run.

Usage:
    python3 tests/docs/check_readme.py --readme README.md --binary build/default/cli/warpcrypt
        [--docs-dir docs] [--timeout SECONDS] [--links-only] [--dry-run] [--keep]

Checks, in this order:

1. Links. Every relative Markdown link and image in the README and in every docs/**/*.md
   (`[text](path)`, `[text](path#anchor)`, `[text](#anchor)`, `![alt](path)`, outside code)
   must lead to an existing file or folder, and an anchor must name a heading of the target
   Markdown file, as GitHub makes anchors of headings (lower case, punctuation dropped, each
   space a hyphen, "-1", "-2" for repeats). Links with a scheme (https:, mailto:) are not
   followed.
2. Orphans. Every file under the docs folder must be linked from the README or from a document
   in the docs folder (a log that nothing links to is a log nobody finds).
3. Commands. Every fenced block of the README whose info string is exactly `sh`, `bash`,
   `shell` or `console` is run, in the order of the README, in one fresh temporary folder
   shared by all blocks (so a block may use the files an earlier block made, but not its shell
   variables), with a `warpcrypt` on PATH that is --binary, HOME and XDG_CACHE_HOME inside the
   temporary folder, no WARPCRYPT_* variable, stdin from /dev/null and no controlling
   terminal (so a command that would prompt fails instead of hanging). A `console` block runs
   the lines that start with `$ ` and ignores the rest (their output). Each block runs under
   `bash -euo pipefail` with a time limit; a failure names the block (its heading and line)
   and the command that failed.

   Blocks that must not run here (installing packages, building, `git clone`, `makepkg`,
   commands that need `age`, a GPU or a terminal) take another info string: `sh norun` (any
   second word `norun`; GitHub still highlights it as sh), `sh-norun`, or `text` for output.

Exit status: 0 when every check passes, 1 with one message per failure, 2 for bad usage.
"""

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

RUNNABLE = {"sh", "bash", "shell", "console"}
FENCE = re.compile(r"^(?P<indent> {0,3})(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)[ \t]*#*[ \t]*$")
# [text](target) and ![alt](target); target may be <...> and may carry a "title".
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*(<[^>\n]*>|[^)\s]+)(?:\s+\"[^\"]*\")?\s*\)")
INLINE_CODE = re.compile(r"(`+)(?:(?!\1)[^\n]|\n(?!\n))+?\1")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


@dataclass
class Block:
    info: str
    line: int  # 1-based line of the opening fence
    heading: str
    text: str


@dataclass
class Document:
    path: Path
    lines: list = field(default_factory=list)
    headings: list = field(default_factory=list)  # (line, text)
    blocks: list = field(default_factory=list)
    prose: list = field(default_factory=list)  # (line, text) outside fenced blocks

    @staticmethod
    def read(path):
        doc = Document(path, path.read_text(encoding="utf-8").split("\n"))
        fence = None
        heading = "(top)"
        start = 0
        body = []
        for number, line in enumerate(doc.lines, 1):
            m = FENCE.match(line)
            if fence is None:
                if m and not (m.group("fence")[0] == "`" and "`" in m.group("info")):
                    fence = (m.group("fence")[0], len(m.group("fence")), m.group("info").strip())
                    start, body = number, []
                    continue
                h = HEADING.match(line)
                if h:
                    heading = h.group(2)
                    doc.headings.append((number, heading))
                doc.prose.append((number, line))
            else:
                closing = (m is not None and m.group("fence")[0] == fence[0]
                           and len(m.group("fence")) >= fence[1] and not m.group("info").strip())
                if closing:
                    doc.blocks.append(Block(fence[2], start, heading, "\n".join(body)))
                    fence = None
                else:
                    body.append(line)
        if fence is not None:
            doc.blocks.append(Block(fence[2], start, heading, "\n".join(body)))
        return doc


def plain_heading(text):
    """A heading's text as GitHub renders it, before the anchor is made of it."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)  # links and images: their text
    text = re.sub(r"<[^>]+>", "", text)  # inline HTML
    text = text.replace("`", "")
    text = re.sub(r"(\*\*|__|\*)", "", text)  # emphasis markers (a lone _ is kept, as GitHub does)
    return text.strip()


def slug(text):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    out = []
    for ch in plain_heading(text).lower():
        if ch in " ":
            out.append("-")
        elif ch in "-_" or unicodedata.category(ch)[0] in "LNM":
            out.append(ch)
    return "".join(out)


def anchors(doc):
    seen = {}
    result = set()
    for _, text in doc.headings:
        base = slug(text)
        n = seen.get(base, 0)
        result.add(base if n == 0 else f"{base}-{n}")
        seen[base] = n + 1
    return result


def links_of(doc):
    """(line, target) of every link outside code; a link's text may span lines."""
    found = []
    paragraph = []  # (line number, text) of consecutive non-blank prose lines

    def scan():
        if not paragraph:
            return
        text = "\n".join(line for _, line in paragraph)
        starts = [0]
        for _, line in paragraph:
            starts.append(starts[-1] + len(line) + 1)
        # Inline code may not hold links: blank it out, keeping offsets.
        text = INLINE_CODE.sub(lambda m: " " * len(m.group(0)), text)
        for m in LINK.finditer(text):
            target = m.group(1)
            if target.startswith("<") and target.endswith(">"):
                target = target[1:-1]
            row = max(i for i, s in enumerate(starts[:-1]) if s <= m.start())
            found.append((paragraph[row][0], target))
        paragraph.clear()

    last = None
    for number, line in doc.prose:
        if not line.strip() or (last is not None and number != last + 1):
            scan()
        if line.strip():
            paragraph.append((number, line))
        last = number
    scan()
    return found


def check_links(docs, errors):
    cache = {doc.path.resolve(): doc for doc in docs}
    linked = set()
    for doc in docs:
        for number, target in links_of(doc):
            where = f"{doc.path}:{number}"
            if SCHEME.match(target) or target.startswith("//"):
                continue
            path_part, _, anchor = target.partition("#")
            dest = (doc.path.parent / path_part).resolve() if path_part else doc.path.resolve()
            if not dest.exists():
                errors.append(f"{where}: link to {target}: {path_part} does not exist")
                continue
            linked.add(dest)
            if not anchor:
                continue
            if dest.is_dir() or dest.suffix.lower() != ".md":
                errors.append(f"{where}: link to {target}: an anchor into a file that is not Markdown")
                continue
            if dest not in cache:
                cache[dest] = Document.read(dest)
            if anchor.lower() not in anchors(cache[dest]):
                errors.append(f"{where}: link to {target}: {dest.name} has no heading "
                              f"whose anchor is #{anchor}")
    return linked


def check_orphans(docs_dir, linked, errors):
    folders = [p for p in linked if p.is_dir()]
    for path in sorted(p for p in docs_dir.rglob("*") if p.is_file()):
        real = path.resolve()
        if real not in linked and not any(f in real.parents for f in folders):
            errors.append(f"{path}: in the docs folder, but no document links to it")


def runnable(block):
    words = block.info.split()
    return len(words) == 1 and words[0] in RUNNABLE


def commands_of(block):
    if block.info.split()[0] != "console":
        return block.text
    lines = [line[2:] for line in block.text.split("\n") if line.startswith("$ ")]
    return "\n".join(lines)


# Appends each failing command to the file $README_CHECK_FAILED names, then fails; errtrace
# (-E) so that a command failing inside a subshell is named rather than the subshell.
PROLOGUE = r"""set -eEuo pipefail
trap 'status=$?; printf "%s\n" "$BASH_COMMAND" >>"$README_CHECK_FAILED"; exit $status' ERR
"""


def run_blocks(readme, binary, timeout, keep, errors):
    blocks = [b for b in readme.blocks if runnable(b)]
    if not blocks:
        errors.append(f"{readme.path}: no runnable shell block (```sh) found")
        return
    work = Path(tempfile.mkdtemp(prefix="warpcrypt-readme-"))
    try:
        bin_dir = work / "bin"
        run_dir = work / "run"
        home = work / "home"
        for d in (bin_dir, run_dir, home):
            d.mkdir()
        (bin_dir / "warpcrypt").symlink_to(binary)
        env = {k: v for k, v in os.environ.items() if not k.startswith("WARPCRYPT_")}
        env.update(PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '/usr/bin:/bin')}",
                   HOME=str(home), XDG_CACHE_HOME=str(home / ".cache"), LC_ALL="C",
                   NO_COLOR="1")
        env.pop("CDPATH", None)
        for block in blocks:
            name = f"{readme.path}:{block.line} (under \"{plain_heading(block.heading)}\")"
            script = work / "block.sh"
            failed = work / "failed-command"
            script.write_text(PROLOGUE + commands_of(block) + "\n", encoding="utf-8")
            failed.write_text("")
            env["README_CHECK_FAILED"] = str(failed)
            # A session of its own, so that a time-out kills the whole block, warpcrypt included.
            proc = subprocess.Popen(
                ["bash", str(script)], cwd=run_dir, env=env, stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
            try:
                raw, _ = proc.communicate(timeout=timeout)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                raw, _ = proc.communicate()
                errors.append(f"{name}: did not finish within {timeout:g} s\n"
                              f"{indent(raw.decode(errors='replace'))}")
                continue
            out = raw.decode(errors="replace")
            if proc.returncode != 0:
                named = failed.read_text().strip().split("\n")
                command = named[0] or "(not named: the block's last command list failed)"
                errors.append(f"{name}: `{command}` failed with exit status {proc.returncode}\n"
                              f"{indent(out)}")
            else:
                print(f"ok   {name}")
    finally:
        if keep:
            print(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)


def indent(text, limit=40):
    """The block's output, its last `limit` lines, set off; empty when there was none."""
    text = text.rstrip("\n")
    if not text:
        return "    (no output)"
    lines = text.split("\n")[-limit:]
    return "\n".join("    | " + line for line in lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--readme", type=Path, required=True)
    parser.add_argument("--binary", type=Path, help="the warpcrypt binary the commands run")
    parser.add_argument("--docs-dir", type=Path,
                        help="the documents whose links are checked (default: docs/ beside the README)")
    parser.add_argument("--timeout", type=float, default=120, help="seconds per block (120)")
    parser.add_argument("--links-only", action="store_true", help="check links, run nothing")
    parser.add_argument("--dry-run", action="store_true",
                        help="check links, and print the blocks that would run")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    args = parser.parse_args()

    if not args.readme.is_file():
        parser.error(f"{args.readme}: no such file")
    docs_dir = args.docs_dir or args.readme.parent / "docs"
    if not docs_dir.is_dir():
        parser.error(f"{docs_dir}: no such folder")
    running = not (args.links_only or args.dry_run)
    if running:
        if args.binary is None:
            parser.error("--binary is needed to run the README's commands")
        binary = args.binary.resolve()
        if not (binary.is_file() and os.access(binary, os.X_OK)):
            parser.error(f"{args.binary}: not an executable file")

    errors = []
    readme = Document.read(args.readme)
    docs = [readme] + [Document.read(p) for p in sorted(docs_dir.rglob("*.md"))]
    linked = check_links(docs, errors)
    check_orphans(docs_dir, linked, errors)
    link_errors = len(errors)
    print(f"links: {len(docs)} documents, {sum(len(links_of(d)) for d in docs)} links, "
          f"{link_errors} problem(s)")

    if args.dry_run:
        for block in readme.blocks:
            verdict = "run " if runnable(block) else "skip"
            print(f"{verdict} {readme.path}:{block.line} ```{block.info} "
                  f"(under \"{plain_heading(block.heading)}\")")
            if runnable(block):
                for line in commands_of(block).split("\n"):
                    print(f"       {line}")
    elif running:
        run_blocks(readme, binary, args.timeout, args.keep, errors)

    for error in errors:
        print(f"FAIL {error}", file=sys.stderr)
    if errors:
        print(f"check_readme: {len(errors)} failure(s)", file=sys.stderr)
        return 1
    print("check_readme: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
