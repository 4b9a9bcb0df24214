// The negative controls: two ways of leaking a key that memcheck must report. If either ran
// unreported, a clean run of the real cases would prove nothing. Each runs in a mode of its own
// (`warpcrypt-ctgrind leak-index`, `leak-branch`), registered with CTest as a test that must
// fail.
#include <array>

#include "tests/ct/ct_support.hpp"

namespace warp::ct {
namespace {

// Any table will do; what leaks is where the lookup reads, not what it finds.
constexpr std::array<std::uint8_t, 256> kTable = [] {
    std::array<std::uint8_t, 256> table{};
    for (std::size_t i = 0; i < table.size(); ++i) table[i] = static_cast<std::uint8_t>(i * 7 + 1);
    return table;
}();

// What a T-table AES does: the cache line read depends on the key ("Use of uninitialised value
// of size 8": an address computed from a secret).
[[gnu::noinline]] std::uint8_t lookup_by_key_byte(const std::uint8_t* key) {
    return kTable[key[0]];
}

volatile int g_slow_path_taken = 0;

[[gnu::noinline]] void slow_path() { g_slow_path_taken = g_slow_path_taken + 1; }

// An early exit or a special case on a key bit ("Conditional jump or move depends on
// uninitialised value(s)"). The call keeps the compiler from turning it into a select.
[[gnu::noinline]] void branch_on_key_bit(const std::uint8_t* key) {
    if ((key[0] & 1) != 0) slow_path();
}

}  // namespace

void leak_through_table_index() {
    Bytes key = filled(32, 1);
    mark_secret(key);
    std::uint8_t value = lookup_by_key_byte(key.data());
    publish(value);
}

void leak_through_branch() {
    Bytes key = filled(32, 1);
    mark_secret(key);
    branch_on_key_bit(key.data());
}

}  // namespace warp::ct
