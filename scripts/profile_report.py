#!/usr/bin/env python3
"""The report of scripts/profile.sh, as Markdown, from one `perf record -e cpu-clock` file.

1. Where the samples fell: by thread, by object (the binary, libc, the kernel), by symbol.
2. The hottest symbols of the profiled binary, each with its hottest instructions: share of the
   symbol's samples, offset, instruction (objdump's disassembly of the same binary).
3. The steady loop of the hottest symbol: the innermost backward branch's body that holds most
   of the symbol's samples, with its samples per instruction, then that loop through llvm-mca
   for each CPU asked (cycles per iteration, uops, and the ports under most pressure).

cpu-clock samples land on the instruction after the one that was running when the timer fired
(skid), and in a VM on whatever the guest ran: read a single instruction's share as the
neighbourhood's, and the loop's total as exact.
"""
import argparse
import collections
import pathlib
import re
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import bench_common  # noqa: E402


def run(args, **kwargs):
    return subprocess.run(args, check=True, capture_output=True, text=True, **kwargs).stdout


def samples(data):
    """(thread, object, symbol, offset) of every sample."""
    text = run(["perf", "script", "-i", data, "-F", "comm,ip,sym,symoff,dso", "--no-demangle"])
    line_re = re.compile(r"^\s*(?P<comm>.+?)\s+[0-9a-f]+\s+(?P<sym>\S+?)(?:\+0x(?P<off>[0-9a-f]+))?"
                         r"\s+\((?P<dso>[^)]*)\)\s*$")
    out = []
    for line in text.splitlines():
        m = line_re.match(line)
        if m:
            out.append((m["comm"], pathlib.Path(m["dso"]).name, m["sym"],
                        int(m["off"] or "0", 16)))
    return out


def demangle(names):
    if not names:
        return {}
    text = run(["c++filt"], input="\n".join(names) + "\n")
    return dict(zip(names, text.splitlines()))


def short(name, width=90):
    return name if len(name) <= width else name[: width - 3] + "..."


def table(rows, total, title, limit):
    """The `limit` largest of a Counter's shares of `total`, down to 0.5%."""
    shown = [[short(key), str(count), f"{100 * count / total:.1f}%"]
             for key, count in rows.most_common(limit) if count / total >= 0.005]
    bench_common.print_table([title, "samples", "share"], shown, "lrr")


def disassemble(binary, symbol):
    """[(offset, instruction text)] of one symbol, AT&T syntax, no raw bytes."""
    text = run(["objdump", "-d", "--no-show-raw-insn", f"--disassemble={symbol}", binary])
    start = None
    insns = []
    for line in text.splitlines():
        header = re.match(r"^([0-9a-f]+) <(.+)>:$", line)
        if header:
            start = int(header[1], 16) if header[2] == symbol else None
            continue
        m = re.match(r"^\s+([0-9a-f]+):\s+(.*)$", line)
        if m and start is not None:
            insns.append((int(m[1], 16) - start, m[2].strip(), int(m[1], 16)))
    return insns


def steady_loop(insns, counts):
    """The innermost loop (a backward branch and its target) holding at least 60% of the
    symbol's samples, or the loop with the most samples when none does; None without loops."""
    total = sum(counts.values()) or 1
    loops = []
    for offset, text, address in insns:
        m = re.match(r"^j\w+\s+([0-9a-f]+)\s+<", text)
        if not m:
            continue
        target = int(m[1], 16) - (address - offset)
        if target < offset:
            inside = sum(c for o, c in counts.items() if target <= o <= offset)
            loops.append((target, offset, inside))
    if not loops:
        return None
    dominant = [loop for loop in loops if loop[2] >= 0.6 * total]
    if dominant:
        return min(dominant, key=lambda loop: loop[1] - loop[0])
    return max(loops, key=lambda loop: loop[2])


def mca_source(body):
    """objdump's AT&T lines as llvm-mca input: comments and symbol names dropped, the closing
    branch aimed at a label, calls and nops left out (llvm-mca models neither usefully)."""
    lines = [".Lloop:"]
    for _, text, _ in body:
        text = text.split("#")[0].strip()
        text = re.sub(r"\s+<[^>]*>", "", text)
        if not text or text.startswith(("nop", "cs nop", "data16", "call", "notrack", "endbr")):
            continue
        if re.match(r"^j\w+\s+[0-9a-f]+$", text):
            text = text.split()[0] + " .Lloop"
        lines.append(text)
    return "\n".join(lines) + "\n"


def mca(source, cpu, out_dir, name):
    path = out_dir / f"mca-{name}-{cpu}.txt"
    try:
        text = run(["llvm-mca-14" if has("llvm-mca-14") else "llvm-mca", f"-mcpu={cpu}",
                    "-iterations=200", "-bottleneck-analysis"], input=source)
    except subprocess.CalledProcessError as error:
        print(f"llvm-mca -mcpu={cpu} refused the loop: {error.stderr.strip().splitlines()[:1]}")
        return
    path.write_text(text)
    keep = ("Iterations:", "Instructions:", "Total Cycles:", "Total uOps:", "Dispatch Width:",
            "uOps Per Cycle:", "IPC:", "Block RThroughput:")
    summary = [line.strip() for line in text.splitlines() if line.startswith(keep)]
    print(f"llvm-mca -mcpu={cpu} ({path.name}):")
    print()
    print("```")
    print("\n".join(summary))
    pressure = resource_pressure(text)
    if pressure:
        print("ports busiest per iteration: " + ", ".join(f"{p} {c:.1f}" for p, c in pressure))
    bottleneck = [line.strip() for line in text.splitlines()
                  if "bottleneck" in line.lower() or "Resource Pressure" in line][:4]
    for line in bottleneck:
        print(line)
    print("```")
    print()


def resource_pressure(text):
    """The six busiest resources of llvm-mca's "Resource pressure per iteration" table."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("Resource pressure per iteration:"):
            names = lines[i + 1].split()
            values = lines[i + 2].split()
            if len(names) != len(values):
                return []
            index = {}
            for line2 in lines[:i]:
                m = re.match(r"^\[(\w+(?:\.\w+)?)\]\s+-\s+(\S+)", line2.strip())
                if m:
                    index[f"[{m[1]}]"] = m[2]
            pairs = []
            for name, value in zip(names, values):
                if value != "-":
                    pairs.append((index.get(name, name), float(value)))
            return sorted(pairs, key=lambda p: -p[1])[:6]
    return []


def has(tool):
    return subprocess.run(["sh", "-c", f"command -v {tool}"], capture_output=True).returncode == 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", required=True)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--mca-cpus", default="")
    parser.add_argument("--whole-run", action="store_true",
                        help="a whole command: also the time by thread and by object")
    parser.add_argument("--symbols", type=int, default=3, help="hot symbols to annotate")
    args = parser.parse_args()
    out_dir = pathlib.Path(args.out)
    binary_name = pathlib.Path(args.binary).name

    all_samples = samples(args.data)
    total = len(all_samples)
    if total == 0:
        sys.exit("profile: perf recorded no samples")
    names = demangle(sorted({s[2] for s in all_samples}))
    print(f"{total} samples at 4999 Hz ({total / 4999:.2f} s of CPU).")
    print()
    if args.whole_run:
        table(collections.Counter(s[0] for s in all_samples), total, "thread", 12)
        table(collections.Counter(s[1] for s in all_samples), total, "object", 12)
    table(collections.Counter(f"{names.get(s[2], s[2])} ({s[1]})" for s in all_samples), total,
          "symbol (object)", 25)

    by_symbol = collections.Counter(s[2] for s in all_samples if s[1] == binary_name)
    hottest = [sym for sym, _ in by_symbol.most_common(args.symbols)]
    for rank, symbol in enumerate(hottest):
        counts = collections.Counter(s[3] for s in all_samples
                                     if s[1] == binary_name and s[2] == symbol)
        in_symbol = sum(counts.values())
        insns = disassemble(args.binary, symbol)
        text_at = {offset: text for offset, text, _ in insns}
        print(f"### {short(names.get(symbol, symbol), 120)}")
        print()
        print(f"{in_symbol} samples, {100 * in_symbol / total:.1f}% of the run. Its hottest "
              "instructions (a sample is charged to the instruction after the one running):")
        print()
        print("```")
        for offset, count in counts.most_common(12):
            print(f"{100 * count / in_symbol:5.1f}%  +0x{offset:<5x} {text_at.get(offset, '?')}")
        print("```")
        print()
        if rank > 0:
            continue
        loop = steady_loop(insns, counts)
        if loop is None:
            # A kernel's step compiled as a function of its own (called once per iteration
            # by its caller's loop): the whole body, less the return, is the iteration.
            body = [insn for insn in insns if not insn[1].startswith("ret")]
            print(f"No loop inside: the symbol itself is the iteration (its caller loops), "
                  f"{len(body)} instructions (full listing with samples: loop.txt).")
        else:
            first, last, inside = loop
            body = [insn for insn in insns if first <= insn[0] <= last]
            print(f"Its steady loop: +0x{first:x} to +0x{last:x}, {len(body)} instructions, "
                  f"{100 * inside / in_symbol:.0f}% of the symbol's samples "
                  f"(full listing with samples: loop.txt).")
        print()
        with open(out_dir / "loop.txt", "w") as listing:
            for offset, text, _ in body:
                listing.write(f"{counts.get(offset, 0):6d}  +0x{offset:<5x} {text}\n")
        source = mca_source(body)
        (out_dir / "loop.s").write_text(source)
        for cpu in args.mca_cpus.split():
            mca(source, cpu, out_dir, "loop")


if __name__ == "__main__":
    main()
