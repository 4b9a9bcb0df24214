#!/usr/bin/env python3
"""Runs a static x86-64 Linux test program on an emulated CPU (Bochs 3.0's, through the PyPI
package bochscpu-python 0.4.0), so that AVX-512 kernels are tested on machines without AVX-512,
and the dispatch is tested on CPUs that lack what a kernel needs (a #UD where the hardware would
raise SIGILL). ../../docs/testing.md, "Emulated CPUs", says how CI uses it;
../../../shared/research/avx512-emulation.md is the study this follows.

Usage: run_emulated.py --model MODEL [--timeout S] PROGRAM [ARG...]
  MODEL: sapphire_rapids, tigerlake (AVX-512 with VAES, VPCLMULQDQ, IFMA), corei7_skylake_x
  (AVX-512 without VAES), ryzen (AVX2, no AVX-512). Before the program runs, CPUID in the guest
  must show the model's features and lack the ones it lacks, so a wrong model fails loudly.
  The exit status is the program's; 125 for a failure of the emulation itself (a guest
  exception: #UD, #GP, #PF; a system call it cannot serve), naming the instruction's address.

The guest is one thread in ring 3 of a long-mode machine with the OS's AVX-512 state enabled
(CR4.OSXSAVE, XCR0 = x87|SSE|AVX|opmask|ZMM_Hi256|Hi16_ZMM). Its system calls are served here:
output to stdout and stderr, memory (brk, anonymous mmap), time, randomness, and read-only
files of the host (test vectors), files written below the working directory (test reports),
and the rest of what a static glibc and googletest ask for.
"""
import argparse
import ctypes
import errno
import faulthandler
import fcntl
import os
import stat
import struct
import sys
import time

# --- The wheel: a shim for two glibc 2.38 symbols it links against (Debian 12 has 2.36), made
# by scripts/deps.sh beside the virtual environment's python, loaded before bochscpu.
_SHIM = os.path.join(sys.prefix, "isoc23_shim.so")
if not os.path.exists(_SHIM):
    sys.exit(f"run_emulated: {_SHIM} is missing: run scripts/deps.sh emulated")
ctypes.CDLL(_SHIM, mode=ctypes.RTLD_GLOBAL)
import bochscpu  # noqa: E402
import bochscpu.memory as bxmem  # noqa: E402

PAGE = 0x1000
EMULATION_FAILED = 125

# Bochs 3.0's CPU models by index. The 0.4.0 wheel's own list is shifted by two, so its default
# is a Cannon Lake (no VAES): the model is set through the parameter, by index.
MODELS = {"ryzen": 22, "corei7_skylake_x": 26, "tigerlake": 29, "sapphire_rapids": 30}

# CPUID bits each model must have, and must not (leaf 7 EBX/ECX, leaf 1 ECX).
FEATURES = {
    "avx2": (7, "ebx", 5), "avx512f": (7, "ebx", 16), "avx512ifma": (7, "ebx", 21),
    "avx512bw": (7, "ebx", 30), "avx512vl": (7, "ebx", 31), "vaes": (7, "ecx", 9),
    "vpclmulqdq": (7, "ecx", 10), "aes": (1, "ecx", 25), "pclmulqdq": (1, "ecx", 1),
}
AVX512_VAES = ["avx2", "avx512f", "avx512bw", "avx512vl", "avx512ifma", "vaes", "vpclmulqdq"]
EXPECTED = {
    "sapphire_rapids": (AVX512_VAES, []),
    "tigerlake": (AVX512_VAES, []),
    "corei7_skylake_x": (["avx2", "avx512f", "avx512bw", "avx512vl"], ["vaes", "vpclmulqdq"]),
    "ryzen": (["avx2", "aes", "pclmulqdq"], ["avx512f", "vaes"]),
}

CR0 = 0x80050033                                    # PG WP NE ET MP PE
CR4 = (1 << 5) | (1 << 9) | (1 << 10) | (1 << 18)   # PAE OSFXSR OSXMMEXCPT OSXSAVE
EFER = (1 << 0) | (1 << 8) | (1 << 10) | (1 << 11)  # SCE LME LMA NXE
XCR0 = 0xE7
USER_CODE, USER_DATA = (0x33, 0x20FB), (0x2B, 0xC0F3)

# The guest's address space (virtual; physical pages are given on first touch).
SYSCALL_PAGE = 0x6000_0000_0000   # LSTAR: a SYSRETQ; the far-branch hook serves the call first
PROBE_PAGE = 0x6000_0001_0000     # the CPUID probe's code and results
STACK_TOP, STACK_BYTES = 0x7FFF_F000_0000, 8 << 20
MMAP_BASE, MMAP_BYTES = 0x7F00_0000_0000, 512 << 20
BRK_BYTES = 256 << 20
PAGE_TABLES = 0x40_0000_0000      # physical, above every data page
PROBE_EXIT = 0x7F17               # the probe's "system call" that ends it


class EmulationError(Exception):
    pass


def set_cpu_model(name):
    """Bochs reads cpu.model when the CPU is made: set its enum parameter before Session()."""
    lib = ctypes.CDLL(bochscpu._bochscpu.__file__)
    lib.sim_get_param_enum.restype = ctypes.c_void_p
    lib.sim_get_param_enum.argtypes = [ctypes.c_char_p]
    param = lib.sim_get_param_enum(b"cpu.model")
    set_range = lib._ZN14bx_param_num_c9set_rangeEmm
    set_range.argtypes = [ctypes.c_void_p, ctypes.c_uint64, ctypes.c_uint64]
    set_value = lib._ZN15bx_param_enum_c3setEl
    set_value.argtypes = [ctypes.c_void_p, ctypes.c_int64]
    set_range(param, 0, 31)
    set_value(param, MODELS[name])


class Memory:
    """Four-level page tables for every mapped virtual page, physical pages backed on first
    touch (the missing-page handler), so that mapping hundreds of MiB costs nothing until
    used."""

    def __init__(self, session):
        self.tables = bxmem.PageMapLevel4Table()
        self.physical = {}     # virtual page -> physical page
        self.host = {}         # physical page -> host page
        self.next_physical = 0x10_0000
        session.missing_page_handler = self.back

    def map(self, address, size):
        for page in range(address & ~(PAGE - 1), (address + size + PAGE - 1) & ~(PAGE - 1), PAGE):
            if page not in self.physical:
                self.physical[page] = self.next_physical
                self.tables.insert(page, self.next_physical, 1)  # present, user, writable
                self.next_physical += PAGE

    def commit(self):
        for hva, gpa in self.tables.commit(PAGE_TABLES):
            bxmem.page_insert(gpa, hva)
            self.host[gpa] = hva

    def back(self, gpa):
        gpa &= ~(PAGE - 1)
        if gpa in self.host:
            raise EmulationError(f"physical page {gpa:#x} reported missing twice")
        hva = bxmem.allocate_host_page()
        ctypes.memset(hva, 0, PAGE)
        bxmem.page_insert(gpa, hva)
        self.host[gpa] = hva

    def _host_address(self, address):
        page = address & ~(PAGE - 1)
        if page not in self.physical:
            raise EmulationError(f"guest address {address:#x} is not mapped")
        gpa = self.physical[page]
        if gpa not in self.host:
            self.back(gpa)
        return self.host[gpa] + (address - page)

    def write(self, address, data):
        data = bytes(data)
        done = 0
        while done < len(data):
            at = address + done
            n = min(PAGE - (at & (PAGE - 1)), len(data) - done)
            ctypes.memmove(self._host_address(at), data[done:done + n], n)
            done += n

    def read(self, address, size):
        out = bytearray()
        while len(out) < size:
            at = address + len(out)
            n = min(PAGE - (at & (PAGE - 1)), size - len(out))
            out += ctypes.string_at(self._host_address(at), n)
        return bytes(out)

    def read_string(self, address, limit=4096):
        out = bytearray()
        while len(out) < limit:
            chunk = self.read(address + len(out), min(64, PAGE - ((address + len(out)) & (PAGE - 1))))
            end = chunk.find(b"\0")
            if end >= 0:
                return bytes(out + chunk[:end])
            out += chunk
        raise EmulationError("a path longer than 4096 bytes")


def segment(selector_attr):
    s = bochscpu.Segment()
    s.present, s.selector, s.base, s.limit, s.attr = True, selector_attr[0], 0, 0xFFFFFFFF, selector_attr[1]
    return s


def user_state(rip, rsp):
    st = bochscpu.State()
    st.cr0, st.cr4, st.efer, st.xcr0, st.cr3 = CR0, CR4, EFER, XCR0, PAGE_TABLES
    st.mxcsr, st.mxcsr_mask, st.fpcw, st.rflags = 0x1F80, 0xFFFF, 0x37F, 0x202
    st.star = (0x23 << 48) | (0x10 << 32)   # SYSRET to CS 0x33 / SS 0x2B
    st.lstar, st.sfmask = SYSCALL_PAGE, 0x700
    st.cs = segment(USER_CODE)
    st.ss = st.ds = st.es = st.fs = st.gs = segment(USER_DATA)
    st.rip, st.rsp = rip, rsp
    return st


class Program:
    """A static, non-PIE ELF image in the guest with Linux's initial stack."""

    def __init__(self, memory, path, argv, env):
        raw = open(path, "rb").read()
        if raw[:4] != b"\x7fELF" or struct.unpack_from("<H", raw, 16)[0] != 2:
            raise EmulationError(f"{path} is not a static, non-PIE executable (link with -static -no-pie)")
        self.entry, phoff = struct.unpack_from("<QQ", raw, 24)
        phentsize, phnum = struct.unpack_from("<HH", raw, 54)
        end, phdr, segments = 0, 0, []
        for i in range(phnum):
            kind, _, offset, vaddr, _, filesz, memsz, _ = struct.unpack_from("<IIQQQQQQ", raw, phoff + i * phentsize)
            if kind == 1:  # PT_LOAD
                memory.map(vaddr, memsz)
                end = max(end, vaddr + memsz)
                if offset == 0:
                    phdr = vaddr + phoff
                segments.append((vaddr, raw[offset:offset + filesz]))
        self.brk_start = (end + PAGE - 1) & ~(PAGE - 1)
        memory.map(self.brk_start, BRK_BYTES)
        memory.map(MMAP_BASE, MMAP_BYTES)
        memory.map(STACK_TOP - STACK_BYTES, STACK_BYTES)
        memory.map(SYSCALL_PAGE, PAGE)
        memory.map(PROBE_PAGE, 2 * PAGE)
        memory.commit()
        for vaddr, data in segments:
            memory.write(vaddr, data)
        memory.write(SYSCALL_PAGE, b"\x48\x0f\x07")  # sysretq
        self.stack_pointer = self._initial_stack(memory, argv, env, phdr, phentsize, phnum)

    def _initial_stack(self, memory, argv, env, phdr, phentsize, phnum):
        sp = STACK_TOP - PAGE

        def push(data):
            nonlocal sp
            sp -= len(data)
            memory.write(sp, data)
            return sp
        random16 = push(os.urandom(16))
        platform = push(b"x86_64\0")
        arg_addresses = [push(os.fsencode(a) + b"\0") for a in argv]
        env_addresses = [push(os.fsencode(e) + b"\0") for e in env]
        auxv = [(3, phdr), (4, phentsize), (5, phnum), (6, PAGE), (9, self.entry), (25, random16),
                (15, platform), (11, 0), (12, 0), (13, 0), (14, 0), (23, 0), (17, 100), (0, 0)]
        words = [len(argv)] + arg_addresses + [0] + env_addresses + [0] + [x for pair in auxv for x in pair]
        sp = (sp - 8 * len(words)) & ~0xF
        memory.write(sp, struct.pack(f"<{len(words)}Q", *words))
        return sp


class Linux:
    """The system calls a static glibc, libstdc++ and googletest make, served from the host:
    output, memory, time, randomness, files (written below the working directory only)."""

    def __init__(self, memory, program, out):
        self.memory, self.out = memory, out
        self.brk_start = self.brk = program.brk_start
        self.brk_limit = program.brk_start + BRK_BYTES
        self.mmap_next = MMAP_BASE
        self.files = {}       # guest descriptor -> host descriptor
        self.listings = {}    # guest descriptor -> a directory's entries not yet read
        self.next_fd = 3
        self.exit_status = None
        self.calls = 0

    @staticmethod
    def error(code):
        return (-code) & 0xFFFF_FFFF_FFFF_FFFF

    def serve(self, cpu, session):
        nr = cpu.rax
        a = (cpu.rdi, cpu.rsi, cpu.rdx, cpu.r10, cpu.r8, cpu.r9)
        self.calls += 1
        handler = self.HANDLERS.get(nr)
        if handler is None:
            return self.error(errno.ENOSYS)
        return handler(self, a, cpu, session)

    def _write(self, a, cpu, session):
        fd, address, size = a[0], a[1], a[2]
        if fd in self.files:
            return os.write(self.files[fd], self.memory.read(address, size))
        if fd not in (1, 2):
            return self.error(errno.EBADF)
        self.out.write(self.memory.read(address, size))
        self.out.flush()
        return size

    def _writev(self, a, cpu, session):
        if a[0] not in (1, 2):
            return self.error(errno.EBADF)
        total = 0
        for i in range(a[2]):
            base, size = struct.unpack("<QQ", self.memory.read(a[1] + 16 * i, 16))
            self.out.write(self.memory.read(base, size))
            total += size
        self.out.flush()
        return total

    def _read(self, a, cpu, session):
        host = self.files.get(a[0])
        if host is None:
            return self.error(errno.EBADF)
        data = os.read(host, min(a[2], 1 << 20))
        self.memory.write(a[1], data)
        return len(data)

    def _pread(self, a, cpu, session):
        host = self.files.get(a[0])
        if host is None:
            return self.error(errno.EBADF)
        data = os.pread(host, min(a[2], 1 << 20), a[3])
        self.memory.write(a[1], data)
        return len(data)

    # What the guest may ask of open(): reading anything the host user can read (test vectors),
    # and writing only below the host's working directory (the tests' reports, in the build
    # tree), never anywhere else.
    OPEN_FLAGS = (os.O_ACCMODE | os.O_CREAT | os.O_TRUNC | os.O_APPEND | os.O_EXCL |
                  os.O_DIRECTORY | os.O_NOFOLLOW)

    def _writable(self, path):
        here = os.path.realpath(os.getcwd())
        there = os.path.realpath(os.path.join(here, os.fsdecode(path)))
        return there == here or there.startswith(here + os.sep)

    def _openat(self, a, cpu, session):
        dirfd, path, flags, mode = a[0], self.memory.read_string(a[1]), a[2], a[3]
        if not path.startswith(b"/") and dirfd & 0xFFFF_FFFF != 0xFFFF_FF9C:  # AT_FDCWD
            return self.error(errno.ENOTSUP)
        if (flags & 3 or flags & os.O_CREAT) and not self._writable(path):
            return self.error(errno.EACCES)
        try:
            host = os.open(path, (flags & self.OPEN_FLAGS) | os.O_CLOEXEC, mode & 0o777)
        except OSError as e:
            return self.error(e.errno)
        fd = self.next_fd
        self.next_fd += 1
        self.files[fd] = host
        return fd

    def _mkdir(self, a, cpu, session):
        path = self.memory.read_string(a[0])
        if not self._writable(path):
            return self.error(errno.EACCES)
        try:
            os.mkdir(path, a[1] & 0o777)
        except OSError as e:
            return self.error(e.errno)
        return 0

    def _mkdirat(self, a, cpu, session):
        if a[0] & 0xFFFF_FFFF != 0xFFFF_FF9C and not self.memory.read_string(a[1]).startswith(b"/"):
            return self.error(errno.ENOTSUP)
        return self._mkdir(a[1:], cpu, session)

    def _open(self, a, cpu, session):
        return self._openat((0xFFFF_FFFF_FFFF_FF9C, a[0], a[1], a[2]), cpu, session)

    def _close(self, a, cpu, session):
        host = self.files.pop(a[0], None)
        self.listings.pop(a[0], None)
        if host is not None:
            os.close(host)
        return 0

    # fcntl: the descriptor flags (every file is close-on-exec; there is no exec) and the status
    # flags, which fdopendir reads to check that a directory was opened for reading.
    def _fcntl(self, a, cpu, session):
        host = self.files.get(a[0])
        if host is None:
            return self.error(errno.EBADF)
        if a[1] == fcntl.F_GETFD:
            return fcntl.FD_CLOEXEC
        if a[1] == fcntl.F_SETFD:
            return 0
        if a[1] == fcntl.F_GETFL:
            return fcntl.fcntl(host, fcntl.F_GETFL)
        return self.error(errno.EINVAL)

    # A directory's entries as linux_dirent64 records (d_ino, d_off, d_reclen, d_type, d_name),
    # as many whole records as fit in the buffer, "." and ".." left out (every reader skips
    # them): what std::filesystem::directory_iterator reads, for the tests that list the vector
    # directories.
    DIRENT_TYPES = {stat.S_IFDIR: 4, stat.S_IFREG: 8, stat.S_IFLNK: 10}

    def _getdents64(self, a, cpu, session):
        host = self.files.get(a[0])
        if host is None:
            return self.error(errno.EBADF)
        if a[0] not in self.listings:
            try:
                entries = sorted(os.scandir(host), key=lambda e: e.name)
            except OSError as e:
                return self.error(e.errno)
            self.listings[a[0]] = [
                (e.inode(), self.DIRENT_TYPES.get(stat.S_IFMT(e.stat(follow_symlinks=False).st_mode),
                                                  0), os.fsencode(e.name)) for e in entries]
        pending, records = self.listings[a[0]], b""
        while pending:
            inode, kind, name = pending[0]
            length = (19 + len(name) + 1 + 7) & ~7
            if len(records) + length > a[2]:
                break
            offset = len(records) + length
            padding = b"\0" * (length - 19 - len(name))  # the name's NUL and the alignment
            records += struct.pack("<QqHB", inode, offset, length, kind) + name + padding
            pending.pop(0)
        if not records and pending:
            return self.error(errno.EINVAL)  # the buffer cannot hold the next record
        self.memory.write(a[1], records)
        return len(records)

    def _lseek(self, a, cpu, session):
        host = self.files.get(a[0])
        if host is None:
            return self.error(errno.ESPIPE)
        offset = a[1] - (1 << 64) if a[1] >> 63 else a[1]
        return os.lseek(host, offset, a[2])

    def _stat_buffer(self, st):
        return struct.pack("<QQQIIIIQqqqQQQQQQ3q", st.st_dev, st.st_ino, st.st_nlink, st.st_mode,
                           st.st_uid, st.st_gid, 0, st.st_rdev, st.st_size, st.st_blksize,
                           st.st_blocks, int(st.st_atime), 0, int(st.st_mtime), 0,
                           int(st.st_ctime), 0, 0, 0, 0)

    def _fstat(self, a, cpu, session):
        if a[0] in (0, 1, 2):
            return self.error(errno.EBADF)
        host = self.files.get(a[0])
        if host is None:
            return self.error(errno.EBADF)
        self.memory.write(a[1], self._stat_buffer(os.fstat(host)))
        return 0

    def _newfstatat(self, a, cpu, session):
        path = self.memory.read_string(a[1])
        if path == b"" and a[3] & 0x1000:  # AT_EMPTY_PATH: fstat
            return self._fstat((a[0], a[2]), cpu, session)
        try:
            st = os.stat(path)
        except OSError as e:
            return self.error(e.errno)
        self.memory.write(a[2], self._stat_buffer(st))
        return 0

    def _brk(self, a, cpu, session):
        if self.brk_start <= a[0] <= self.brk_limit:
            self.brk = a[0]
        return self.brk

    def _mmap(self, a, cpu, session):
        size, flags = (a[1] + PAGE - 1) & ~(PAGE - 1), a[3]
        if not flags & 0x20:  # MAP_ANONYMOUS only
            return self.error(errno.ENODEV)
        if self.mmap_next + size > MMAP_BASE + MMAP_BYTES:
            return self.error(errno.ENOMEM)
        address = self.mmap_next
        self.mmap_next += size
        return address  # fresh pages: zero on first touch

    def _arch_prctl(self, a, cpu, session):
        if a[0] != 0x1002:  # ARCH_SET_FS
            return self.error(errno.EINVAL)
        fs = cpu.fs
        fs.base = a[1]
        cpu.fs = fs
        return 0

    def _exit(self, a, cpu, session):
        self.exit_status = a[0] & 0xFF
        session.stop()
        return 0

    def _kill(self, a, cpu, session):  # abort(): raise(SIGABRT) through tgkill
        self.exit_status = 128 + (a[2] if cpu.rax == 234 else a[1])
        session.stop()
        return 0

    def _getrandom(self, a, cpu, session):
        self.memory.write(a[0], os.urandom(a[1]))
        return a[1]

    def _clock_gettime(self, a, cpu, session):
        t = time.clock_gettime(a[0] if a[0] in (0, 1, 2, 3) else 1)
        self.memory.write(a[1], struct.pack("<qq", int(t), int((t % 1) * 1e9)))
        return 0

    def _getcwd(self, a, cpu, session):
        cwd = os.fsencode(os.getcwd()) + b"\0"
        if len(cwd) > a[1]:
            return self.error(errno.ERANGE)
        self.memory.write(a[0], cwd)
        return len(cwd)

    def _sched_getaffinity(self, a, cpu, session):
        self.memory.write(a[2], struct.pack("<Q", 1) + bytes(max(0, a[1] - 8)))
        return min(a[1], 8)

    def _zero(self, a, cpu, session):
        return 0

    def _not_a_terminal(self, a, cpu, session):
        return self.error(errno.ENOTTY)

    def _no_entry(self, a, cpu, session):
        return self.error(errno.ENOENT)

    def _one(self, a, cpu, session):
        return 1

    HANDLERS = {
        0: _read, 1: _write, 2: _open, 3: _close, 5: _fstat, 8: _lseek, 9: _mmap,
        10: _zero, 11: _zero, 12: _brk, 13: _zero, 14: _zero, 16: _not_a_terminal, 17: _pread,
        20: _writev, 28: _zero, 39: _one, 60: _exit, 62: _kill, 72: _fcntl, 79: _getcwd,
        83: _mkdir,
        89: _no_entry,
        102: _zero, 104: _zero, 107: _zero, 108: _zero, 131: _zero, 158: _arch_prctl, 186: _one,
        200: _kill, 202: _zero, 204: _sched_getaffinity, 217: _getdents64, 218: _one,
        228: _clock_gettime,
        231: _exit, 234: _kill, 257: _openat, 258: _mkdirat, 262: _newfstatat, 267: _no_entry,
        273: _zero,
        302: _zero, 318: _getrandom,
    }


def probe_cpuid(session, memory):
    """CPUID leaves 1 and 7 in the guest: {(leaf, register): value}."""
    code = bytes.fromhex(
        "b801000000" "31c9" "0fa2" "890f"            # mov eax,1; xor ecx,ecx; cpuid; mov [rdi],ecx
        "b807000000" "31c9" "0fa2" "895f04" "894f08"  # mov eax,7; cpuid; mov [rdi+4],ebx; mov [rdi+8],ecx
        "b8" + struct.pack("<I", PROBE_EXIT).hex() + "0f05")  # mov eax,PROBE_EXIT; syscall
    memory.write(PROBE_PAGE, code)
    results = PROBE_PAGE + PAGE
    st = user_state(PROBE_PAGE, PROBE_PAGE + 2 * PAGE - 64)
    st.rdi = results
    session.cpu.state = st
    stopped = []
    hook = bochscpu.Hook()

    def on_far_branch(sess, cpu_id, *args):
        if sess.cpu.rax == PROBE_EXIT:
            stopped.append(True)
            sess.stop()

    def on_exception(sess, cpu_id, vector, error):
        stopped.append(False)
        sess.stop()
    hook.far_branch, hook.exception = on_far_branch, on_exception
    session.run([hook])
    if stopped != [True]:
        raise EmulationError("the CPUID probe did not run")
    leaf1_ecx, leaf7_ebx, leaf7_ecx = struct.unpack("<III", memory.read(results, 12))
    return {(1, "ecx"): leaf1_ecx, (7, "ebx"): leaf7_ebx, (7, "ecx"): leaf7_ecx}


def check_model(model, registers):
    has = {name: (registers[(leaf, reg)] >> bit) & 1 == 1 for name, (leaf, reg, bit) in FEATURES.items()}
    present, absent = EXPECTED[model]
    wrong = [f"lacks {n}" for n in present if not has[n]] + [f"has {n}" for n in absent if has[n]]
    if wrong:
        raise EmulationError(f"the emulated CPU is not a {model}: it " + ", ".join(wrong) +
                             " (a bochscpu-python other than 0.4.0, or its model numbering changed?)")
    return sorted(n for n in FEATURES if has[n])


def run(model, program_path, argv, env, out):
    set_cpu_model(model)
    session = bochscpu.Session()
    memory = Memory(session)
    program = Program(memory, program_path, argv, env)
    features = check_model(model, probe_cpuid(session, memory))
    print(f"[emulated {model}: {' '.join(features)}]", file=sys.stderr, flush=True)

    linux = Linux(memory, program, out)
    session.cpu.state = user_state(program.entry, program.stack_pointer)
    fault = []
    hook = bochscpu.Hook()

    def on_far_branch(sess, cpu_id, what, prev_cs, prev_ip, new_cs, new_ip):
        if new_ip == SYSCALL_PAGE:
            sess.cpu.rax = linux.serve(sess.cpu, sess)

    def on_exception(sess, cpu_id, vector, error):
        fault.append((vector, error, sess.cpu.rip))
        sess.stop()
    hook.far_branch, hook.exception = on_far_branch, on_exception
    started = time.monotonic()
    session.run([hook])
    seconds = time.monotonic() - started
    if fault:
        vector, error, rip = fault[0]
        names = {6: "#UD, an instruction this CPU does not have", 13: "#GP", 14: "#PF, a bad address"}
        raise EmulationError(f"guest exception {vector} ({names.get(vector, 'exception')}) "
                             f"at {rip:#x} (addr2line -e {program_path} {rip:#x})")
    if linux.exit_status is None:
        raise EmulationError("the guest stopped without exiting")
    print(f"[emulated {model}: exit {linux.exit_status}, {linux.calls} system calls, "
          f"{seconds:.1f} s]", file=sys.stderr, flush=True)
    return linux.exit_status


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", required=True, choices=sorted(MODELS))
    parser.add_argument("--timeout", type=float, default=600,
                        help="seconds before the run is ended (the guest may hang)")
    parser.add_argument("program")
    parser.add_argument("args", nargs=argparse.REMAINDER)
    options = parser.parse_args()
    # A hung guest never returns to Python: faulthandler's own thread ends the process.
    faulthandler.dump_traceback_later(options.timeout, exit=True)
    env = [f"{k}={v}" for k, v in os.environ.items()
           if k.startswith(("WARPCRYPT_", "GTEST_")) or k in ("LANG", "TERM")]
    try:
        status = run(options.model, options.program, [options.program] + options.args, env,
                     sys.stdout.buffer)
    except EmulationError as e:
        print(f"run_emulated: {e}", file=sys.stderr)
        return EMULATION_FAILED
    return status


if __name__ == "__main__":
    sys.exit(main())
