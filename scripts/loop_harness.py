#!/usr/bin/env python3
"""Times a kernel's steady loop alone on this core, in cycles per iteration.

Input: the loop.s that scripts/profile.sh writes (the hottest loop's instructions, AT&T syntax,
as llvm-mca gets them). The instructions are assembled into a bare loop: every register used as
a memory base points into a buffer of its own (aligned so that the loop's aligned moves stay
aligned), RIP-relative constants read a zeroed buffer, and the loop's own control flow (its
branches, compares and pointer or counter arithmetic on general registers) is left out, so the
same bytes are touched every iteration unless --advance says otherwise. The time is the
thread's CPU time against a chain of dependent one-cycle additions timed just before, which
gives the core's cycles, whatever its clock.

What it tells: whether the loop's instructions alone reach what the ports allow (llvm-mca's
prediction, or a port count), apart from what surrounds them in a real run (the function
around the loop, its memory, other threads). Data values do not matter to the kernels timed
here (AES, carry-less products and ChaCha are constant time).

Usage: python3 scripts/loop_harness.py LOOP.S [--advance REG=BYTES:COUNT ...]
                                             [--offset REG=BYTES ...] [--iterations N]
  --advance rax=512:128  adds 512 to %rax every iteration and rewinds it every 128 iterations
                         (a pointer walking a 64 KiB buffer)
  --offset rsi=16        starts %rsi 16 bytes past its aligned place (a buffer whose vectors
                         cross cache lines, as a caller's may)
"""
import argparse
import pathlib
import re
import subprocess
import sys
import tempfile

POINTER_REGISTERS = ["rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", "r8", "r9", "r10", "r11",
                     "r13", "r14", "r15"]  # r12 holds the harness's table, rsp its stack
BUFFER_BYTES = 1 << 20
SKIPPED = re.compile(r"^(j\w+|cmp|test|add|sub|inc|dec|lea|vzeroupper)\b")


def loop_body(path):
    lines = [line.strip() for line in pathlib.Path(path).read_text().splitlines()]
    body = []
    for line in lines:
        if not line or line.endswith(":"):
            continue
        if SKIPPED.match(line) and not re.search(r"%[xyz]mm", line):
            continue  # control flow and general-register arithmetic: the harness loops itself
        body.append(re.sub(r"-?0x[0-9a-f]+\(%rip\)", "(%r12)", line))
    return body


def base_offsets(body):
    """Per base register, an offset into its buffer that keeps the aligned moves aligned."""
    offsets = {}
    for line in body:
        if not line.startswith(("vmovdqa", "vmovaps", "movdqa")):
            continue
        for disp, reg in re.findall(r"(-?0x[0-9a-f]+|-?\d+)?\(%(\w+)", line):
            value = int(disp, 0) if disp else 0
            offsets.setdefault(reg, (-value) % 64)
    return offsets


def c_string(lines):
    """Assembly lines as one C string literal's contents, each ended by a newline and a tab."""
    return "".join(line.replace("\\", "\\\\").replace('"', '\\"') + "\\n\\t"
                   for line in lines)


def program(body, advances, iterations, extra_offsets):
    used = sorted({reg for line in body for reg in re.findall(r"\(%(\w+)", line)} - {"r12"})
    unknown = [reg for reg in used if reg not in POINTER_REGISTERS]
    if unknown:
        sys.exit(f"loop_harness: memory bases the harness cannot set: {unknown}")
    offsets = base_offsets(body)
    for reg, extra in extra_offsets.items():
        offsets[reg] = offsets.get(reg, 0) + extra
    # In extended asm a register is %%name; the loop's own lines come with single %.
    lines = ["push %%rbp", "push %%rbx"]
    lines += [f"mov {8 * i}(%%r12),%%{reg}" for i, reg in enumerate(used)]
    lines += [f"movq ${count},{-16 - 8 * n}(%%rsp)" for n, (_, _, count) in enumerate(advances)]
    lines += [f"mov {8 * len(used)}(%%r12),%%r12", f"movq ${iterations},-8(%%rsp)", "1:"]
    lines += [line.replace("%", "%%") for line in body]
    for n, (reg, step, count) in enumerate(advances):
        slot = f"{-16 - 8 * n}(%%rsp)"
        lines += [f"add ${step},%%{reg}", f"decq {slot}", f"jnz 2{n}f",
                  f"sub ${step * count},%%{reg}", f"movq ${count},{slot}", f"2{n}:"]
    lines += ["decq -8(%%rsp)", "jnz 1b", "pop %%rbx", "pop %%rbp", "vzeroupper"]
    count = max(len(used), 1)
    pointers = "".join(f"(long)(buffers[{i}] + {BUFFER_BYTES // 2 + offsets.get(reg, 0)}), "
                       for i, reg in enumerate(used))
    return f"""#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static double now(void) {{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}}
int main(void) {{
    long x = 1;
    double t0 = now();
    for (long i = 0; i < 100000000; ++i)
        __asm__ volatile("add %0,%0\\n\\tadd %0,%0\\n\\tadd %0,%0\\n\\tadd %0,%0" : "+r"(x));
    const double cycle = (now() - t0) / 4e8;
    char* buffers[{count}];
    for (int i = 0; i < {count}; ++i) {{
        buffers[i] = aligned_alloc(4096, {BUFFER_BYTES} + 4096 * (i + 1));
        memset(buffers[i], 0x5a + i, {BUFFER_BYTES} + 4096 * (i + 1));
        buffers[i] += 1088 * i; /* no two buffers 4 KiB apart at the same offset */
    }}
    static char constants[8192] __attribute__((aligned(64)));
    long table[] = {{{pointers}(long)(constants + 4096)}};
    for (int round = 0; round < 3; ++round) {{
        register long* r12 __asm__("r12") = table;
        t0 = now();
        __asm__ volatile("{c_string(lines)}"
                         : "+r"(r12)
                         :
                         : "rax", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11", "r13",
                           "r14", "r15", "memory", "cc");
        printf("%.1f cycles per iteration (clock %.2f GHz)\\n",
               (now() - t0) / cycle / {iterations}, 1 / cycle / 1e9);
    }}
    return x == 3;
}}
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("loop", help="loop.s from scripts/profile.sh")
    parser.add_argument("--advance", action="append", default=[], metavar="REG=BYTES:COUNT")
    parser.add_argument("--offset", action="append", default=[], metavar="REG=BYTES")
    parser.add_argument("--iterations", type=int, default=2_000_000)
    args = parser.parse_args()
    advances = []
    for item in args.advance:
        m = re.fullmatch(r"%?(\w+)=(\d+):(\d+)", item)
        if not m:
            sys.exit(f"loop_harness: --advance wants REG=BYTES:COUNT, not {item}")
        advances.append((m[1], int(m[2]), int(m[3])))
    extra_offsets = {}
    for item in args.offset:
        m = re.fullmatch(r"%?(\w+)=(\d+)", item)
        if not m:
            sys.exit(f"loop_harness: --offset wants REG=BYTES, not {item}")
        extra_offsets[m[1]] = int(m[2])
    body = loop_body(args.loop)
    with tempfile.TemporaryDirectory() as work:
        source = pathlib.Path(work) / "harness.c"
        source.write_text(program(body, advances, args.iterations, extra_offsets))
        binary = pathlib.Path(work) / "harness"
        subprocess.run(["gcc", "-O2", "-o", str(binary), str(source)], check=True)
        subprocess.run([str(binary)], check=True)


if __name__ == "__main__":
    main()
