// engine/secure_memory.hpp: wiping, the constant-time comparison, and locked storage (pages of
// their own, locked in RAM where the limit allows, left out of core dumps), read back from the
// kernel's own account in /proc/self/smaps. That a buffer is wiped when freed cannot be
// observed without reading freed memory; sodium_munlock, which frees it, documents the zeroing.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "engine/aead.hpp"
#include "engine/secure_memory.hpp"
#include "tests/support/sanitizers.hpp"

namespace warp {
namespace {

std::uintptr_t address_of(const void* p) { return reinterpret_cast<std::uintptr_t>(p); }

std::size_t page_size() { return static_cast<std::size_t>(::sysconf(_SC_PAGESIZE)); }

// The VmFlags line of the mapping that holds `p` (smaps(5): "lo" locked, "dd" not dumped).
std::optional<std::vector<std::string>> mapping_flags(const void* p) {
    std::ifstream smaps("/proc/self/smaps");
    std::string line;
    bool inside = false;
    while (std::getline(smaps, line)) {
        std::uintptr_t begin = 0, end = 0;
        char dash = 0;
        std::istringstream range(line);
        if (range >> std::hex >> begin >> dash >> end && dash == '-' &&
            line.find(':') > line.find(' ')) {
            inside = begin <= address_of(p) && address_of(p) < end;
            continue;
        }
        if (inside && line.starts_with("VmFlags:")) {
            std::istringstream words(line.substr(8));
            std::vector<std::string> flags;
            for (std::string flag; words >> flag;) flags.push_back(flag);
            return flags;
        }
    }
    return std::nullopt;
}

bool has_flag(const std::optional<std::vector<std::string>>& flags, const char* flag) {
    return flags && std::find(flags->begin(), flags->end(), flag) != flags->end();
}

using warp::test::kAddressSanitizer;

// Whether this process may lock another page: CAP_IPC_LOCK (root, here) or room left under
// RLIMIT_MEMLOCK. The tests below expect locking exactly when it is possible. AddressSanitizer
// replaces mlock with a no-op that reports success (its shadow memory cannot follow locked
// pages), so under the asan preset nothing is ever locked.
bool can_lock_a_page() {
    if (kAddressSanitizer) return false;
    if (::geteuid() == 0) return true;
    struct rlimit limit {};
    if (::getrlimit(RLIMIT_MEMLOCK, &limit) != 0) return false;
    std::ifstream status("/proc/self/status");
    std::size_t locked_kib = 0;
    for (std::string line; std::getline(status, line);)
        if (line.starts_with("VmLck:")) locked_kib = std::stoul(line.substr(6));
    return limit.rlim_cur == RLIM_INFINITY ||
           locked_kib * 1024 + 2 * page_size() <= limit.rlim_cur;
}

TEST(SecureMemory, WipeZeroesExactlyTheBytesAsked) {
    std::vector<std::uint8_t> bytes(64, 0xa5);
    secure_wipe(bytes.data() + 8, 40);
    for (std::size_t i = 0; i < bytes.size(); ++i)
        EXPECT_EQ(bytes[i], i >= 8 && i < 48 ? 0 : 0xa5) << "byte " << i;
    secure_wipe(nullptr, 0);  // allowed
}

TEST(SecureMemory, EqualInConstantTimeFindsEveryDifference) {
    std::vector<std::uint8_t> a(32), b(32);
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = b[i] = static_cast<std::uint8_t>(i * 13);
    for (std::size_t len : {0, 1, 4, 16, 32}) {
        EXPECT_TRUE(equal_in_constant_time(a.data(), b.data(), len)) << len;
        for (std::size_t i = 0; i < len; ++i) {
            for (std::uint8_t bit = 1; bit != 0; bit = static_cast<std::uint8_t>(bit << 1)) {
                b[i] ^= bit;
                EXPECT_FALSE(equal_in_constant_time(a.data(), b.data(), len))
                    << "length " << len << ", byte " << i << ", bit " << unsigned{bit};
                b[i] ^= bit;
            }
        }
    }
}

TEST(SecureMemory, SecureBufferHasPagesOfItsOwnLockedAndLeftOutOfCoreDumps) {
    const bool lockable = can_lock_a_page();
    for (std::size_t size : {std::size_t{0}, std::size_t{100}, page_size(), page_size() + 1}) {
        SecureBuffer buffer(size);
        ASSERT_NE(buffer.data(), nullptr);
        EXPECT_EQ(address_of(buffer.data()) % page_size(), 0u) << size;
        EXPECT_EQ(address_of(buffer.data()) % kStateAlignment, 0u) << size;
        const auto flags = mapping_flags(buffer.data());
        ASSERT_TRUE(flags.has_value()) << "no mapping in /proc/self/smaps holds the buffer";
        EXPECT_TRUE(has_flag(flags, "dd")) << "not marked MADV_DONTDUMP, size " << size;
        EXPECT_EQ(has_flag(flags, "lo"), lockable) << "size " << size;
        std::fill_n(static_cast<std::uint8_t*>(buffer.data()), size, 0x5a);  // usable
    }
}

TEST(SecureMemory, SecureBufferMovesItsStorage) {
    SecureBuffer a(64);
    void* storage = a.data();
    SecureBuffer b(std::move(a));
    EXPECT_EQ(b.data(), storage);
    EXPECT_EQ(b.size(), 64u);
    EXPECT_EQ(a.data(), nullptr);  // NOLINT(bugprone-use-after-move): the contract
    SecureBuffer c(16);
    c = std::move(b);
    EXPECT_EQ(c.data(), storage);
    EXPECT_EQ(c.size(), 64u);
}

TEST(SecureMemory, SecretBytesKeepTheirValueAndLiveInLockedPages) {
    const std::string text = "correct horse battery staple";
    SecretBytes secret{std::string_view(text)};
    ASSERT_EQ(secret.size(), text.size());
    EXPECT_TRUE(std::equal(text.begin(), text.end(), secret.data()));
    EXPECT_EQ(address_of(secret.data()) % page_size(), 0u);
    const auto flags = mapping_flags(secret.data());
    EXPECT_TRUE(has_flag(flags, "dd"));
    EXPECT_EQ(has_flag(flags, "lo"), can_lock_a_page());

    SecretBytes copy = secret;
    EXPECT_NE(copy.data(), secret.data());
    EXPECT_TRUE(std::equal(text.begin(), text.end(), copy.data()));
    SecretBytes moved = std::move(copy);
    EXPECT_TRUE(std::equal(text.begin(), text.end(), moved.data()));
    moved = SecretBytes(std::string_view("x"));
    EXPECT_EQ(moved.size(), 1u);
    EXPECT_TRUE(SecretBytes().empty());
}

// Two buffers never share a page, so unlocking one cannot unlock the other (mlock does not
// count: one munlock undoes any number of mlocks of a page).
TEST(SecureMemory, FreeingOneBufferLeavesAnotherLocked) {
    if (!can_lock_a_page()) {
        SecureBuffer a(32), b(32);
        EXPECT_NE(address_of(a.data()) / page_size(), address_of(b.data()) / page_size());
        return;
    }
    auto first = std::make_unique<SecureBuffer>(32);
    SecureBuffer second(32);
    EXPECT_NE(address_of(first->data()) / page_size(), address_of(second.data()) / page_size());
    first.reset();
    EXPECT_TRUE(has_flag(mapping_flags(second.data()), "lo"));
    EXPECT_TRUE(has_flag(mapping_flags(second.data()), "dd"));
}

}  // namespace
}  // namespace warp
