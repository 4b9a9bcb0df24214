// Secrets in memory: where they live and how they leave.
//
// - secure_wipe zeroes with sodium_memzero, which the optimiser cannot remove.
// - Locked storage (SecureBuffer for key state, SecretBytes for passphrases, key-file secrets
//   and file keys) takes whole pages of its own, locked with sodium_mlock: never written to
//   swap, and marked MADV_DONTDUMP so a core dump leaves them out. On release the pages are
//   wiped and unlocked. Whole pages because mlock does not count: unlocking one buffer would
//   unlock another that shared its page. Locking is best effort and silent: it fails where
//   RLIMIT_MEMLOCK is small (64 KiB in some containers; Debian 12's default is 8 MiB), and a
//   secret is then still wiped, only swappable. The engine has no channel to the user, and a
//   note on every run of a locked-down container would teach users to ignore warnings.
//   Single pages released are wiped and kept locked for reuse, a few dozen at most
//   (secure_memory.cpp, LockedPagePool): locking costs system calls on every small secret.
// - equal_in_constant_time compares tags (and other secrets) in constant time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace warp {

// Wipes n bytes in a way the optimiser cannot remove.
void secure_wipe(void* p, std::size_t n) noexcept;

// Whether a and b (len bytes each) are equal, in a time that depends on len only: a tag
// computed under a key against the tag received, a passphrase against its confirmation. The
// verdict is public (the caller branches on it and reports it), so this is where it is
// declassified for the constant-time check:
// under valgrind's memcheck, where tests/ct marks keys and plaintext undefined to catch any
// branch on them, the verdict alone is marked defined. Outside valgrind that is a no-op.
bool equal_in_constant_time(const std::uint8_t* a, const std::uint8_t* b,
                            std::size_t len) noexcept;

// A value computed in constant time from secrets that the caller now branches on and reports
// (is this Bech32 string valid? where is its separator?): returned as it is, and declassified
// for the constant-time check like equal_in_constant_time's verdict (a no-op outside
// valgrind). Only for values that are public by the format's rules.
void declassify(void* p, std::size_t n) noexcept;
bool public_verdict(bool verdict) noexcept;

// Pages of their own, locked when possible (see above); size 0 still gets a page.
// free_locked wipes the pages, unlocks and frees them; `size` is the size asked for.
void* allocate_locked(std::size_t size);
void free_locked(void* p, std::size_t size) noexcept;

// A standard allocator over allocate_locked, so a container's every buffer (and every buffer
// it leaves behind when it grows or moves) is wiped when freed.
template <class T>
struct LockedAllocator {
    using value_type = T;
    LockedAllocator() noexcept = default;
    template <class U>
    LockedAllocator(const LockedAllocator<U>&) noexcept {}
    T* allocate(std::size_t n) { return static_cast<T*>(allocate_locked(n * sizeof(T))); }
    void deallocate(T* p, std::size_t n) noexcept { free_locked(p, n * sizeof(T)); }
    friend bool operator==(const LockedAllocator&, const LockedAllocator&) noexcept {
        return true;
    }
};

// Key state: `size` bytes, page-aligned (so at least kStateAlignment), locked, wiped on release.
class SecureBuffer {
public:
    explicit SecureBuffer(std::size_t size);
    ~SecureBuffer();
    SecureBuffer(SecureBuffer&& other) noexcept;
    SecureBuffer& operator=(SecureBuffer&& other) noexcept;
    SecureBuffer(const SecureBuffer&) = delete;
    SecureBuffer& operator=(const SecureBuffer&) = delete;

    void* data() noexcept { return data_; }
    const void* data() const noexcept { return data_; }
    std::size_t size() const noexcept { return size_; }

private:
    void release() noexcept;
    void* data_ = nullptr;
    std::size_t size_ = 0;
};

// A variable-length secret (passphrase, key-file secret, file key) in locked storage that is
// wiped whenever it is freed: copies, moves and destruction need no code of their own.
class SecretBytes {
public:
    SecretBytes() = default;
    explicit SecretBytes(std::size_t size) : bytes_(size) {}
    explicit SecretBytes(std::span<const std::uint8_t> bytes)
        : bytes_(bytes.begin(), bytes.end()) {}
    explicit SecretBytes(std::string_view text) : bytes_(text.begin(), text.end()) {}

    std::uint8_t* data() noexcept { return bytes_.data(); }
    const std::uint8_t* data() const noexcept { return bytes_.data(); }
    std::size_t size() const noexcept { return bytes_.size(); }
    bool empty() const noexcept { return bytes_.empty(); }
    std::span<const std::uint8_t> span() const noexcept { return bytes_; }

private:
    std::vector<std::uint8_t, LockedAllocator<std::uint8_t>> bytes_;
};

}  // namespace warp
