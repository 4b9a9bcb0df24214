"""Helpers shared by the benchmark report scripts.

Imported by scripts/bench_report.py (called by scripts/bench.sh),
scripts/bench_kernels_report.py (called by scripts/bench-kernels.sh) and
scripts/profile_report.py (called by scripts/profile.sh), which put this
directory on sys.path themselves. Not a command: it prints nothing when imported.
"""


def print_table(header, rows, align=None):
    """Prints a Markdown table, then an empty line.

    align is one letter per column, "l" (left, `---`) or "r" (right, `---:`); None leaves
    every column at Markdown's default (`---`)."""
    align = align or "l" * len(header)
    print("| " + " | ".join(header) + " |")
    print("|" + "|".join("---" if a == "l" else "---:" for a in align) + "|")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    print()
