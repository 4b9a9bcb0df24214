/* An LD_PRELOAD shim for the CLI fault tests (faults_test.cpp): reads of one file fail with
 * EIO once a given number of its bytes have been read, as a dying disk or a dropped network
 * mount would make them fail, in the middle of a stream and after part of the output exists.
 *
 *   FAULT_INJECT_READ_FILE   the file, by path. Its reads are recognised by device and inode,
 *                            so it fails the same whether opened by name or handed over as stdin.
 *   FAULT_INJECT_READ_AFTER  bytes served before the failure (default 0: the first read fails).
 *   FAULT_INJECT_READ_STALL  when set, the read at the limit blocks instead, until a signal
 *                            ends the process (a hung network mount): for the tests of an
 *                            interrupted run, which need it to be under way, not done.
 *
 * read() and pread() on that file return the bytes up to the limit (a short read at the
 * limit), then -1 with errno EIO, every time. Other descriptors are untouched. The real reads
 * are made with syscall(2): no dlsym, so nothing to resolve before the first call.
 * warpcrypt links glibc dynamically (its C++ runtime statically), so its read() calls reach
 * this shim; the tests check that they did by the "Input/output error" in the message. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

static int g_armed;
static int g_stall;
static dev_t g_device;
static ino_t g_inode;
static uint64_t g_limit;
static _Atomic uint64_t g_served;  /* the pipeline's reader thread and the main thread read */

__attribute__((constructor)) static void fault_inject_setup(void) {
    const char *path = getenv("FAULT_INJECT_READ_FILE");
    const char *after = getenv("FAULT_INJECT_READ_AFTER");
    struct stat st;
    if (path == NULL || stat(path, &st) != 0) return;
    g_device = st.st_dev;
    g_inode = st.st_ino;
    g_limit = after != NULL ? strtoull(after, NULL, 10) : 0;
    g_stall = getenv("FAULT_INJECT_READ_STALL") != NULL;
    g_armed = 1;
}

static int is_target(int fd) {
    struct stat st;
    return g_armed && fstat(fd, &st) == 0 && st.st_dev == g_device && st.st_ino == g_inode;
}

/* How many of `len` bytes may still be read; 0 means the failure is due. Reserves them, so
 * concurrent readers never pass the limit together. */
static size_t take_allowance(size_t len) {
    uint64_t served = atomic_load(&g_served);
    for (;;) {
        uint64_t left = served < g_limit ? g_limit - served : 0;
        uint64_t take = len < left ? len : left;
        if (take == 0 || atomic_compare_exchange_weak(&g_served, &served, served + take))
            return (size_t)take;
    }
}

/* The failure: EIO, or a read that never returns (warpcrypt's signal handlers exit). */
static ssize_t fail_read(void) {
    while (g_stall) pause();
    errno = EIO;
    return -1;
}

/* Gives back what was reserved and not read (end of file, an error). */
static void return_allowance(size_t reserved, ssize_t got) {
    size_t used = got > 0 ? (size_t)got : 0;
    if (used < reserved) atomic_fetch_sub(&g_served, (uint64_t)(reserved - used));
}

ssize_t read(int fd, void *buf, size_t len) {
    if (len == 0 || !is_target(fd)) return syscall(SYS_read, fd, buf, len);
    size_t allowed = take_allowance(len);
    if (allowed == 0) return fail_read();
    ssize_t got = syscall(SYS_read, fd, buf, allowed);
    return_allowance(allowed, got);
    return got;
}

ssize_t pread(int fd, void *buf, size_t len, off_t offset) {
    if (len == 0 || !is_target(fd)) return syscall(SYS_pread64, fd, buf, len, offset);
    size_t allowed = take_allowance(len);
    if (allowed == 0) return fail_read();
    ssize_t got = syscall(SYS_pread64, fd, buf, allowed, offset);
    return_allowance(allowed, got);
    return got;
}

/* The same function under its large-file name, which callers built with 64-bit offsets use. */
ssize_t pread64(int fd, void *buf, size_t len, off64_t offset) {
    return pread(fd, buf, len, offset);
}
