#include "engine/secure_memory.hpp"

#include <sodium.h>
#include <unistd.h>

#include <cstdlib>
#include <mutex>
#include <new>
#include <utility>
#include <vector>

#include "engine/aead.hpp"

// Valgrind's client requests (tests/ct/ctgrind.cpp). A request is a few instructions that do
// nothing unless the program runs under valgrind, so the product carries them where the header
// was found at build time; where it was not, declassify() is empty and the check is not built.
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#define WARP_HAVE_MEMCHECK_H 1
#endif

namespace warp {

// Marks bytes computed from secrets as public from here on (the ctgrind technique).
void declassify([[maybe_unused]] void* p, [[maybe_unused]] std::size_t n) noexcept {
#ifdef WARP_HAVE_MEMCHECK_H
    (void)VALGRIND_MAKE_MEM_DEFINED(p, n);
#endif
}

namespace {

std::size_t page_size() noexcept {
    static const std::size_t size = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    return size;
}

// The bytes allocate_locked really takes for `size`: whole pages, at least one.
std::size_t whole_pages(std::size_t size) noexcept {
    const std::size_t page = page_size();
    return size <= page ? page : (size + page - 1) / page * page;
}

// Single pages released by free_locked, kept wiped and still locked for the next
// allocate_locked. Locking and unlocking a page is four system calls (mlock, madvise, and
// their undoing) that split and merge the process's memory map each time, and a run makes and
// drops a dozen small secrets (a file key, an X25519 share, HKDF outputs): through the C API,
// a 1 KiB age encryption spent about half its time there (perf, 2026-12-06). A page in the
// pool holds nothing (wiped with sodium_memzero on release) and still belongs to no secret
// but the next; at most kMaxPooledPages are kept, so a process holds at most that much
// locked memory beyond its live secrets. Never freed: the pool outlives every static secret,
// whatever the order of destruction at exit.
class LockedPagePool {
public:
    static constexpr std::size_t kMaxPooledPages = 32;

    void* take() noexcept {
        const std::lock_guard<std::mutex> lock(mutex_);
        if (pages_.empty()) return nullptr;
        void* page = pages_.back();
        pages_.pop_back();
        return page;
    }
    // Whether `page` (wiped already) was kept.
    bool keep(void* page) noexcept {
        const std::lock_guard<std::mutex> lock(mutex_);
        if (pages_.size() >= kMaxPooledPages) return false;
        pages_.push_back(page);
        return true;
    }

private:
    LockedPagePool() { pages_.reserve(kMaxPooledPages); }  // keep() never allocates
    friend LockedPagePool& locked_page_pool();
    std::mutex mutex_;
    std::vector<void*> pages_;
};

LockedPagePool& locked_page_pool() {
    static LockedPagePool* const pool = new LockedPagePool();  // never destroyed: see above
    return *pool;
}

}  // namespace

void secure_wipe(void* p, std::size_t n) noexcept {
    if (p != nullptr && n != 0) sodium_memzero(p, n);
}

bool equal_in_constant_time(const std::uint8_t* a, const std::uint8_t* b,
                            std::size_t len) noexcept {
    // Every byte's difference is folded into one byte before anything looks at it; the empty
    // asm hides the fold from the optimiser, so it cannot stop early at the first difference.
    // (sodium_memcmp does the same through volatile reads, a byte at a time: about 40 ns for a
    // 16-byte tag, a tenth of a 64-byte ChaCha20-Poly1305 open.)
    std::uint8_t difference = 0;
    for (std::size_t i = 0; i < len; ++i)
        difference = static_cast<std::uint8_t>(difference | (a[i] ^ b[i]));
    __asm__("" : "+r"(difference));
    bool match = difference == 0;
    declassify(&match, sizeof match);
    return match;
}

bool public_verdict(bool verdict) noexcept {
    declassify(&verdict, sizeof verdict);
    return verdict;
}

void* allocate_locked(std::size_t size) {
    // Pages are a multiple of kStateAlignment (64) on every system we build for.
    const std::size_t bytes = whole_pages(size);
    if (bytes == page_size())
        if (void* page = locked_page_pool().take(); page != nullptr) return page;
    void* p = std::aligned_alloc(page_size(), bytes);
    if (p == nullptr) throw std::bad_alloc();
    (void)sodium_mlock(p, bytes);  // best effort: see secure_memory.hpp
    return p;
}

void free_locked(void* p, std::size_t size) noexcept {
    if (p == nullptr) return;
    if (whole_pages(size) == page_size()) {
        sodium_memzero(p, page_size());
        if (locked_page_pool().keep(p)) return;
    }
    // sodium_munlock zeroes the pages (sodium_memzero) before it unlocks them, and works on
    // pages whose mlock failed as well.
    (void)sodium_munlock(p, whole_pages(size));
    std::free(p);
}

SecureBuffer::SecureBuffer(std::size_t size) : data_(allocate_locked(size)), size_(size) {
    static_assert(kStateAlignment <= 4096, "a page is at least 4 KiB");
}

SecureBuffer::~SecureBuffer() { release(); }

SecureBuffer::SecureBuffer(SecureBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}

SecureBuffer& SecureBuffer::operator=(SecureBuffer&& other) noexcept {
    if (this != &other) {
        release();
        data_ = std::exchange(other.data_, nullptr);
        size_ = std::exchange(other.size_, 0);
    }
    return *this;
}

void SecureBuffer::release() noexcept {
    free_locked(data_, size_);
    data_ = nullptr;
    size_ = 0;
}

}  // namespace warp
