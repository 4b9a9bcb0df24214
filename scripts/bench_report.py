#!/usr/bin/env python3
"""Writes the report of scripts/bench.sh, which calls it once, at the end of a run.

Reads OUT/manifest.tsv (one line per measurement: size, mode, direction, tool, label,
hyperfine JSON file, index in it, command line) with the hyperfine JSON it names, and
OUT/auto-picks.tsv (size, suite, backend that `warpcrypt backends --json --size` picks).
Writes OUT/results.json (every measurement), OUT/hyperfine/SIZE-MODE-DIRECTION.{json,md}
(hyperfine's exports merged per size, mode and direction), OUT/throughput.dat and
OUT/throughput.gp (the chart's data and gnuplot script), and prints the summary's
Markdown tables on stdout: throughput per tool and size, and the whole-file and threading goals.
THREADS_STATUS is empty when the 1-thread/2-thread measurement ran, else why it did not
("n/a: ..."), which the threads goal reports.

Usage: python3 scripts/bench_report.py OUT THREADS_STATUS [FILESYSTEM]
"""
import argparse
import collections
import json
import math
import pathlib
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import bench_common  # noqa: E402

parser = argparse.ArgumentParser(
    description="Writes the report of scripts/bench.sh from its results directory.")
parser.add_argument("out", metavar="OUT", help="the results directory of scripts/bench.sh")
parser.add_argument("threads_status", metavar="THREADS_STATUS",
                    help='empty if the thread measurement ran, else why not ("n/a: ...")')
parser.add_argument("filesystem", metavar="FILESYSTEM", nargs="?", default="tmpfs",
                    help="the scratch directory's file system type (df's fstype)")
args = parser.parse_args()
out, threads_status = pathlib.Path(args.out), args.threads_status
MIB, GIB = 1 << 20, 1 << 30

def size_name(size):
    for unit, bytes_ in (("GiB", GIB), ("MiB", MIB), ("KiB", 1024)):
        if size % bytes_ == 0:
            return f"{size // bytes_} {unit}"
    return f"{size} B"

def short_name(size):
    return size_name(size).replace(" ", "").replace("iB", "")

# Every measurement, in the order it was taken (which is also the tool order of the tables).
rows = []
for line in (out / "manifest.tsv").read_text().splitlines():
    size, mode, direction, tool, label, path, index, command = line.split("\t")
    result = json.loads(pathlib.Path(path).read_text())["results"][int(index)]
    size = int(size)
    rows.append({
        "size": size, "mode": mode, "direction": direction, "tool": tool, "label": label,
        "command": command, "runs": len(result["times"]), "median_s": result["median"],
        "mean_s": result["mean"], "stddev_s": result["stddev"], "min_s": result["min"],
        "max_s": result["max"],
        # MB/s = 10^6 bytes of plaintext per second, from the median wall time.
        "mb_per_s": size / result["median"] / 1e6 if result["median"] > 0 else None,
        "hyperfine": result,
    })
(out / "results.json").write_text(json.dumps(
    [{k: v for k, v in r.items() if k != "hyperfine"} for r in rows], indent=2) + "\n")

# hyperfine's exports merged per size, mode and direction (raw/ has one file per tool).
def ms(seconds):
    return f"{seconds * 1e3:.1f}"

groups = collections.defaultdict(list)
for r in rows:
    groups[(r["size"], r["mode"], r["direction"])].append(r)
for (size, mode, direction), members in groups.items():
    stem = out / "hyperfine" / f"{short_name(size)}-{mode}-{direction}"
    stem.with_suffix(".json").write_text(json.dumps(
        {"results": [dict(r["hyperfine"], command=r["label"], command_line=r["command"])
                     for r in members]}, indent=2) + "\n")
    fastest = min(r["mean_s"] for r in members) or 1e-9
    lines = ["| Command | Mean [ms] | Min [ms] | Max [ms] | Relative |", "|:---|---:|---:|---:|---:|"]
    lines += [f"| `{r['label']}` | {ms(r['mean_s'])} ± {ms(r['stddev_s'])} | {ms(r['min_s'])} | "
              f"{ms(r['max_s'])} | {r['mean_s'] / fastest:.2f} |" for r in members]
    stem.with_suffix(".md").write_text("\n".join(lines) + "\n")

def mbps(value):
    if value is None:
        return "n/a"
    return f"{value:.0f}" if value >= 100 else f"{value:.1f}" if value >= 1 else f"{value:.2f}"

def table(header, body, align=None):  # align: one letter per column, l or r (default l r r...)
    bench_common.print_table(header, body, align or "l" + "r" * (len(header) - 1))

main_rows = [r for r in rows if r["mode"] in ("file", "stdin")]
sizes = sorted({r["size"] for r in main_rows})
tools = list(dict.fromkeys((r["tool"], r["label"]) for r in main_rows))
by_key = {(r["size"], r["mode"], r["direction"], r["tool"]): r for r in rows}
PANELS = [("file", "encrypt", "file to file, encrypt"), ("file", "decrypt", "file to file, decrypt"),
          ("stdin", "encrypt", "stdin to stdout, encrypt"),
          ("stdin", "decrypt", "stdin to stdout, decrypt")]

print("## Throughput, MB/s (10^6 bytes of plaintext per second, median wall time)")
print()
for mode, direction, title in PANELS:
    print(f"**{title}**")
    print()
    table(["tool"] + [size_name(s) for s in sizes],
          [[label] + [mbps(by_key[(s, mode, direction, tool)]["mb_per_s"])
                      if (s, mode, direction, tool) in by_key else "n/a" for s in sizes]
           for tool, label in tools])

picks = collections.defaultdict(dict)
for line in (out / "auto-picks.tsv").read_text().splitlines():
    size, suite, backend = line.split("\t")
    picks[int(size)][suite] = backend
print("`warpcrypt auto` is warpcrypt's defaults: aes-256-gcm, backend picked per size: " +
      ", ".join(f"{size_name(s)} {picks[s].get('aes-256-gcm', '?')}" for s in sizes) + ".")
overhead = {r["tool"]: r["median_s"] for r in rows if r["mode"] == "overhead"}
shell_ms = (overhead["sh"] - overhead["true"]) * 1e3 if len(overhead) == 2 else float("nan")
print("hyperfine runs every command without a shell (`-N`). File mode is each tool's own "
      "command line (`cat in` writes its output through hyperfine's `--output`); stdin mode "
      "runs `sh -c 'exec TOOL < in > out'`, so its times include starting sh: "
      f"`sh -c 'exec true'` took {overhead.get('sh', float('nan')) * 1e3:.2f} ms and `true` "
      f"{overhead.get('true', float('nan')) * 1e3:.2f} ms here, so about {shell_ms:.2f} ms per "
      "command, which matters at 4 KiB only. openssl enc is unauthenticated (a reference, not a "
      "peer); gpg's time includes its iterated passphrase S2K, which dominates at small sizes.")
print()

# The whole-file goals, from this run's median wall times.
def median(size, mode, direction, tool):
    r = by_key.get((size, mode, direction, tool))
    return r["median_s"] if r and r["median_s"] > 0 else None

def goal(text, size, numerator, denominator, target, at_most, missing=""):
    if missing:
        return [text, "n/a", f"{'<=' if at_most else '>='} {target}x", missing]
    if numerator is None or denominator is None:
        return [text, "n/a", f"{'<=' if at_most else '>='} {target}x",
                f"n/a: {size_name(size)} not measured"]
    ratio = numerator / denominator
    # Rounded towards the goal's side, so that the printed ratio never contradicts the verdict.
    shown = (math.ceil if at_most else math.floor)(ratio * 100) / 100
    met = ratio <= target if at_most else ratio >= target
    return [text, f"{shown:.2f}x", f"{'<=' if at_most else '>='} {target}x",
            "met" if met else "not met"]

goals = []
for direction in ("encrypt", "decrypt"):
    goals.append(goal(f"1 GiB file to file, {direction}, key file: warpcrypt / cat", GIB,
                      median(GIB, "file", direction, "warpcrypt"),
                      median(GIB, "file", direction, "cat"), 1.25, True))
for direction in ("encrypt", "decrypt"):
    goals.append(goal(f"1 GiB file to file, {direction}, key file: age / warpcrypt", GIB,
                      median(GIB, "file", direction, "age"),
                      median(GIB, "file", direction, "warpcrypt"), 3, False))
threads_rows = [r for r in rows if r["mode"] == "stdin-null"]
if threads_status:
    goals.append(goal("1 GiB stdin to /dev/null, encrypt: 1 thread / 2 threads", GIB, None,
                      None, 1.8, False, missing=threads_status))
else:
    at = threads_rows[0]["size"]
    one = median(at, "stdin-null", "encrypt", "threads-1")
    two = median(at, "stdin-null", "encrypt", "threads-2")
    row = goal(f"{size_name(at)} stdin to /dev/null, encrypt: 1 thread / 2 threads", at, one,
               two, 1.8, False)
    if at != GIB and row[3] in ("met", "not met"):
        row[3] = "n/a: the goal is at 1 GiB"
    goals.append(row)
for direction in ("encrypt", "decrypt"):
    goals.append(goal(f"4 KiB file to file, {direction}, key file: warpcrypt / cat", 4096,
                      median(4096, "file", direction, "warpcrypt"),
                      median(4096, "file", direction, "cat"), 2, True))
# Issue 18: warpcrypt writing and reading age files, against age itself and cat.
for direction in ("encrypt", "decrypt"):
    goals.append(goal(f"1 GiB file to file, {direction}, age file (X25519): age / warpcrypt",
                      GIB, median(GIB, "file", direction, "age"),
                      median(GIB, "file", direction, "warpcrypt-age"), 2, False))
    goals.append(goal(f"1 GiB file to file, {direction}, age file (X25519): warpcrypt / cat",
                      GIB, median(GIB, "file", direction, "warpcrypt-age"),
                      median(GIB, "file", direction, "cat"), 1.25, True))
    goals.append(goal(f"4 KiB file to file, {direction}, age file (X25519): warpcrypt / age",
                      4096, median(4096, "file", direction, "warpcrypt-age"),
                      median(4096, "file", direction, "age"), 1, True))
# What a post-quantum recipient costs against a classic one, in each format.
for direction in ("encrypt", "decrypt"):
    goals.append(goal(f"4 KiB file to file, {direction}, warp file: post-quantum / X25519 "
                      "recipient", 4096, median(4096, "file", direction, "warpcrypt-pq"),
                      median(4096, "file", direction, "warpcrypt-x25519"), 1.5, True))
    goals.append(goal(f"4 KiB file to file, {direction}, age file: post-quantum / X25519 "
                      "recipient", 4096, median(4096, "file", direction, "warpcrypt-age-pq"),
                      median(4096, "file", direction, "warpcrypt-age"), 1.5, True))
# Issue 48: whole files within 1.05x of cat, warp and age files, each thread count; judged
# from two threads on (one thread copies and seals in turn: its floor is cat plus the cipher).
# On a disk the reference is cat's copy made durable (dd conv=fsync), as warpcrypt's output is.
on_disk = args.filesystem != "tmpfs"
for r in sorted((r for r in rows if r["mode"] == "file-threads"),
                key=lambda r: (r["tool"].rsplit("-", 1)[1].zfill(4), r["tool"], r["direction"])):
    n = int(r["tool"].rsplit("-", 1)[1])
    kind = "age file (X25519)" if r["tool"].startswith("warpcrypt-age") else "warp file"
    reference = (median(r["size"], "file", "encrypt", "cat-fsync") if on_disk
                 else median(r["size"], "file", r["direction"], "cat"))
    row = goal(f"{size_name(r['size'])} file to file ({args.filesystem}), {r['direction']}, "
               f"{kind}, --threads {n}: warpcrypt / {'cat + fsync' if on_disk else 'cat'}",
               r["size"], r["median_s"], reference, 1.05, True)
    if n == 1 and row[3] in ("met", "not met"):
        row[3] = "n/a: one thread copies and seals in turn"
    goals.append(row)
print("## Goals (whole file, threads), ratios of median wall times from this run")
print()
table(["goal", "ratio", "target", "verdict"], goals, "lrrl")
judged = [g for g in goals if g[3] in ("met", "not met")]
print(f"{sum(g[3] == 'met' for g in judged)} of {len(judged)} judged goals met.")
print()
if threads_rows:
    print("Threads: " + ", ".join(f"`{r['label']}` {r['median_s'] * 1e3:.0f} ms "
                                  f"({mbps(r['mb_per_s'])} MB/s)" for r in threads_rows) + ".")
    print()

# The chart: one panel per mode and direction, a cluster of bars (one per size) per tool.
with open(out / "throughput.dat", "w") as data:
    for mode, direction, title in PANELS:
        data.write(f"# {title}: tool, then MB/s at " + ", ".join(size_name(s) for s in sizes) + "\n")
        for tool, label in tools:
            # Shorter suite names keep the rotated tick labels inside the picture.
            label = label.replace("chacha20-poly1305", "chacha20").replace("aes-256-gcm", "aes-gcm")
            values = [by_key.get((s, mode, direction, tool), {}).get("mb_per_s") for s in sizes]
            data.write(f'"{label}" ' + " ".join("NaN" if v is None else f"{v:.4g}"
                                                for v in values) + "\n")
        data.write("\n\n")
plots = []
for index, (mode, direction, title) in enumerate(PANELS):
    series = ", ".join(
        f"'throughput.dat' index {index} using {column + 2}"
        + (":xtic(1)" if column == 0 else "") + f" title '{size_name(s)}'"
        for column, s in enumerate(sizes))
    plots.append(f"set title '{title}: MB/s per tool and file size (median wall time)'\nplot {series}")
(out / "throughput.gp").write_text(f"""# gnuplot script written by scripts/bench.sh; run it in this directory.
set terminal pngcairo size 1600,1300 font ',10'
set output 'throughput.png'
set datafile missing 'NaN'
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set logscale y
set grid ytics mytics
set ylabel 'MB/s (log scale)'
set xtics rotate by -30 left nomirror
set key above horizontal
set xrange [-0.6:{len(tools) - 0.4}]
set bmargin 8
set multiplot layout 2,2
""" + "\n".join(plots) + "\nunset multiplot\n")
print("![throughput per tool and size](throughput.png)")
print()
print("Files: `results.json` (every measurement), `hyperfine/SIZE-MODE-DIRECTION.{json,md}` "
      "(hyperfine's exports, merged per size, mode and direction; `raw/` per tool), "
      "`hyperfine.log`, `throughput.dat` and `throughput.gp` (the chart's data and script).")
