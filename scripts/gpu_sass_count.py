#!/usr/bin/env python3
"""Counts the SASS of the CUDA kernels' steady-state loops per 16-byte block, and the H200 bounds.

Called by scripts/gpu-sass-count.sh (which describes the method, the pipes and the H200
figures in its header) after it has compiled engine/cuda/kernels.cu for sm_90. Reads
SASS (`nvdisasm -c` of the cubin), PTXAS (the compile's `-Xptxas -v` stderr: registers and
spills per kernel), KERNEL_API (engine/cuda/kernel_api.hpp: threads per block) and SHARED
(lines "NAME BYTES": each kernel's dynamic shared memory). Prints a Markdown table, one row
per kernel and key length, and a note on how to read it, on stdout.

Usage: python3 scripts/gpu_sass_count.py SASS PTXAS KERNEL_API SHARED
"""
import argparse
import re

parser = argparse.ArgumentParser(
    description="Counts SASS per 16-byte block of the CUDA kernels' steady-state loops.")
parser.add_argument("sass", metavar="SASS", help="nvdisasm -c output of the kernels' cubin")
parser.add_argument("ptxas", metavar="PTXAS", help="the stderr of nvcc -Xptxas -v")
parser.add_argument("kernel_api", metavar="KERNEL_API", help="engine/cuda/kernel_api.hpp")
parser.add_argument("shared", metavar="SHARED", help='lines "NAME BYTES" of dynamic shared memory')
args = parser.parse_args()
sass_path, ptxas_path, api_path, shared_path = args.sass, args.ptxas, args.kernel_api, args.shared
shared_bytes = {k: int(v) for k, v in (line.split() for line in open(shared_path))}

# --- the H200 and the pipes (see the script's header) ---
SMS, CLOCK = 132, 1.98e9
ISSUE, ALU, FMA, WAVEFRONTS = 128, 64, 64, 1  # per multiprocessor and clock
HBM = 4.8e12
SHARED_PER_SM, SHARED_RESERVED, REGISTERS, MAX_THREADS, MAX_BLOCKS = 228 * 1024, 1024, 65536, 2048, 32

ALU_OPS = {"LOP3", "LOP", "SHF", "SHL", "SHR", "IADD3", "IADD", "LEA", "ISETP", "SEL", "PRMT",
           "MOV", "IABS", "IMNMX", "VIMNMX", "BMSK", "SGXT", "PLOP3", "P2R", "R2P", "FLO",
           "BREV", "ISCADD", "VIADD", "CS2R"}  # uniform-datapath ops (U...) are not ALU-pipe

def pipe_of(op):
    base = op.split(".")[0]
    if base == "IMAD":
        return "imad"
    if base in ("LDS", "STS", "LDSM", "ATOMS"):
        return "shared"
    if base in ("LDG", "STG", "LD", "ST", "LDL", "STL", "ATOMG", "RED"):
        return "global"
    if base in ALU_OPS:
        return "alu"
    return "other"

def wavefronts_of(op):  # per warp instruction, conflict-free
    if not op.startswith("LDS"):
        return 0
    for suffix, fronts in ((".128", 4), (".64", 2)):
        if suffix in op:
            return fronts
    return 1

# --- parse nvdisasm -c: functions, labels, instructions ---
functions = {}
current = None
for line in open(sass_path):
    m = re.match(r"^\.text\.(\S+):", line)
    if m:
        current = m.group(1)
        functions[current] = {"insns": [], "labels": {}}
        continue
    if current is None:
        continue
    m = re.match(r"^(\.L_x_\d+):", line)
    if m:
        functions[current]["labels"][m.group(1)] = len(functions[current]["insns"])
        continue
    m = re.match(r"^\s+/\*([0-9a-f]+)\*/\s+(.*?)\s*;", line)
    if m:
        text = m.group(2)
        pred = None
        pm = re.match(r"^(@!?U?P\w+)\s+(.*)$", text)
        if pm:
            pred, text = pm.group(1), pm.group(2)
        op = text.split()[0]
        target = re.search(r"`\((\.L_x_\d+)\)", text)
        functions[current]["insns"].append({"op": op, "pred": pred, "target": target and target.group(1),
                                            "text": text})

def demangle(name):
    if "gcm_kernel" in name:
        return "GCM (seal and open)"
    if "EcbEncrypt" in name:
        return "ECB encrypt"
    if "EcbDecrypt" in name:
        return "ECB decrypt"
    return name

# --- basic blocks, loops, and the paths through one iteration of each steady-state loop ---
def control_flow(fn):
    insns, index_of = fn["insns"], fn["labels"]
    starts = {0} | set(index_of.values())
    for i, ins in enumerate(insns):
        if ins["op"].startswith("BRA") or ins["op"] in ("EXIT", "RET"):
            starts.add(i + 1)
    starts = sorted(s for s in starts if s < len(insns))
    ends = starts[1:] + [len(insns)]
    blocks = dict(zip(starts, ends))  # start -> end, [start, end)
    succ = {}
    for a, b in blocks.items():
        last = insns[b - 1]
        out = []
        if last["op"].startswith("BRA") and last["target"] in index_of:
            out.append(index_of[last["target"]])
            falls = last["pred"] is not None
        else:
            falls = last["op"] not in ("EXIT", "RET")
        if falls and b in blocks:
            out.append(b)
        succ[a] = out
    return blocks, succ

def steady_state_loops(fn):
    """Each innermost loop whose body stores whole 16-byte blocks: its steady-state paths
    (one iteration that stores a whole block and touches no single byte of global memory)
    and the set of its instructions. A loop is the natural loop of a back edge (a branch to
    a block at or before it), wherever the compiler laid its blocks out."""
    insns = fn["insns"]
    blocks, succ = control_flow(fn)
    pred = {a: [] for a in blocks}
    for a, out in succ.items():
        for b in out:
            pred[b].append(a)
    def body_of(head, latch):
        body, stack = {head, latch}, [latch]
        while stack:
            x = stack.pop()
            if x == head:
                continue
            for p in pred[x]:
                if p not in body:
                    body.add(p)
                    stack.append(p)
        return body
    def stores_whole(body):
        return any(ins["op"].startswith("STG.E.128") for a in body
                   for ins in insns[a:blocks[a]])
    loops = []
    for a, out in succ.items():
        for h in out:
            if h <= a:
                body = body_of(h, a)
                if stores_whole(body):
                    loops.append((h, a, body))
    innermost = [l for l in loops
                 if not any(o is not l and o[2] < l[2] for o in loops)]
    result = []
    for head, latch, body in innermost:
        paths = []
        def walk(a, path):
            if len(paths) > 20000:
                raise RuntimeError("too many paths through the loop body")
            path = path + [a]
            if a == latch:
                paths.append(path)
            for s in succ[a]:
                if s in body and s != head and s not in path:
                    walk(s, path)
        walk(head, [])
        steady = []
        for p in paths:
            insns_of_path = [ins for a in p for ins in insns[a:blocks[a]]]
            whole = any(ins["op"].startswith("STG.E.128") for ins in insns_of_path)
            touches_bytes = any(pipe_of(ins["op"]) == "global" and ".U8" in ins["op"]
                                for ins in insns_of_path)
            if whole and not touches_bytes:
                steady.append(insns_of_path)
        members = {i for a in body for i in range(a, blocks[a])}
        result.append((steady, members))
    return result

def counts(body):
    c = {"total": len(body), "alu": 0, "imad": 0, "shared": 0, "global": 0, "other": 0,
         "lds32": 0, "lds64": 0, "lds128": 0, "wavefronts": 0}
    for ins in body:
        c[pipe_of(ins["op"])] += 1
        w = wavefronts_of(ins["op"])
        c["wavefronts"] += w
        if w:
            c[{1: "lds32", 2: "lds64", 4: "lds128"}[w]] += 1
    return c

# --- ptxas -v: registers, spills, shared memory ---
resources = {}
name = None
for line in open(ptxas_path):
    m = re.search(r"Compiling entry function '(\S+)'", line)
    if m:
        name = m.group(1)
        resources[name] = {}
    m = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads", line)
    if m and name:
        resources[name]["spills"] = f"spills {m.group(1)}+{m.group(2)} B"
    m = re.search(r"Used (\d+) registers", line)
    if m and name:
        resources[name]["registers"] = int(m.group(1))
api = open(api_path).read()
threads = {"gcm": int(re.search(r"kGcmThreads = (\d+)", api).group(1)),
           "ecb": int(re.search(r"kEcbThreads = (\d+)", api).group(1))}

def blocks_per_sm(regs, smem, nthreads):
    per_warp = -(-regs * 32 // 256) * 256
    by_regs = REGISTERS // (per_warp * (nthreads // 32))
    by_smem = SHARED_PER_SM // (smem + SHARED_RESERVED)
    return min(by_regs, by_smem, MAX_THREADS // nthreads, MAX_BLOCKS)

def gbps(per_block_per_sm_clock):
    return SMS * CLOCK * per_block_per_sm_clock * 16 / 1e9

rows = []
for fname, fn in functions.items():
    loops = steady_state_loops(fn)
    if not loops:
        continue
    kind = "gcm" if "gcm_kernel" in fname else "ecb"
    in_loops = set().union(*(members for _, members in loops))
    outside = [ins for i, ins in enumerate(fn["insns"]) if i not in in_loops]
    out_counts = counts(outside)
    res = resources.get(fname, {})
    smem = shared_bytes[kind if kind == "gcm" else ("ecb_decrypt" if "Decrypt" in fname else "ecb_encrypt")]
    occupancy = blocks_per_sm(res.get("registers", 255), smem, threads[kind])
    # One loop per key length (the kernels instantiate their block loop per round count),
    # each with one steady-state path: by length, AES-128, AES-192, AES-256. (Lookups alone
    # do not tell the rounds: in the GCM loop ptxas hoists the first round's lookups of the
    # three counter words that do not change.)
    steady = sorted((max(paths, key=len) for paths, _ in loops if paths), key=len)
    names = ["AES-128", "AES-192", "AES-256"] if len(steady) == 3 else [f"loop {i + 1}" for i in range(len(steady))]
    for key, body in zip(names, steady):
        c = counts(body)
        bounds = {
            "issue": gbps(ISSUE / c["total"]),
            "ALU": gbps(ALU / c["alu"]) if c["alu"] else float("inf"),
            "FMA": gbps(FMA / c["imad"]) if c["imad"] else float("inf"),
            "shared": gbps(WAVEFRONTS * 32 / c["wavefronts"]) if c["wavefronts"] else float("inf"),
            "HBM": HBM / 2 / 1e9,
        }
        binding = min(bounds, key=bounds.get)
        # GCM: a thread's once-per-chunk work (all of it outside the loops, counted statically:
        # every path) spread over the 16 blocks each thread has in a 64 KiB chunk.
        if kind == "gcm":
            per_chunk = 65536 // 16 // threads["gcm"]
            with_chunk = gbps(ALU / (c["alu"] + out_counts["alu"] / per_chunk))
            chunk_note = f"{with_chunk:.0f} GB/s (ALU, 64 KiB chunks)"
        else:
            chunk_note = "n/a (grid-stride: once per launch)"
        rows.append([f"{demangle(fname)}, {key}", str(c["total"]), str(c["alu"]), str(c["imad"]),
                     f"{c['lds32']} + {c['lds64']} x .64 + {c['lds128']} x .128",
                     str(c["wavefronts"]), str(c["global"]), str(c["other"]),
                     f"{res.get('registers', '?')} / {smem} B / {res.get('spills', '?')} / {occupancy}",
                     f"{binding}: {bounds[binding]:.0f} GB/s",
                     ", ".join(f"{k} {v:.0f}" for k, v in bounds.items()),
                     f"{len(outside)} ({out_counts['alu']} ALU)", chunk_note])

header = ["kernel, key", "SASS per block", "ALU pipe", "IMAD", "LDS (.32, .64, .128)",
          "LDS wavefronts per warp", "global", "other", "regs / shared / spills / blocks per SM",
          "bound that binds (H200)", "all bounds, GB/s", "SASS outside the loop",
          "bound with the per-chunk work"]
print("| " + " | ".join(header) + " |")
print("|" + "---|" * len(header))
for r in rows:
    print("| " + " | ".join(r) + " |")
print()
print("Per block: one loop iteration, which handles one 16-byte block per thread. ALU pipe:",
      ", ".join(sorted(ALU_OPS)), "(half rate); IMAD and its aliases on the FMA pipe (64 per SM and clock); other:",
      "branches, barriers, conversions and the rest. Bounds: 132 SMs x 1.98 GHz x (per-SM-clock",
      "rate / per-block count) x 16 bytes; HBM: 4.8 TB/s over 32 bytes moved per 16-byte block.",
      "SASS outside the loop: the kernel's other instructions, counted statically over every",
      "path, once per thread per chunk (GCM: the load phase, J0, the partial sum's multiply by",
      "H^k, the tree, the tag) or per launch (ECB). Paths through one iteration: the shortest",
      "and the longest of those that store a whole block and touch no single byte of global",
      "memory, i.e. AES-128 and AES-256 of a whole ciphertext block.")
