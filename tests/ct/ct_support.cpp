#include "tests/ct/ct_support.hpp"

#include <valgrind/memcheck.h>

#include <cstdio>

namespace warp::ct {
namespace {

volatile std::uint8_t g_sink = 0;
int g_failed_expectations = 0;

}  // namespace

void mark_secret(const void* p, std::size_t n) {
    if (n != 0) (void)VALGRIND_MAKE_MEM_UNDEFINED(p, n);
}

void publish(const void* p, std::size_t n) {
    if (n == 0) return;
    (void)VALGRIND_MAKE_MEM_DEFINED(p, n);
    const auto* bytes = static_cast<const std::uint8_t*>(p);
    std::uint8_t folded = 0;
    for (std::size_t i = 0; i < n; ++i) folded = static_cast<std::uint8_t>(folded ^ bytes[i]);
    g_sink = static_cast<std::uint8_t>(g_sink + folded);
}

Bytes filled(std::size_t n, std::uint8_t seed) {
    Bytes bytes(n);
    for (std::size_t i = 0; i < n; ++i)
        bytes[i] = static_cast<std::uint8_t>(i * 167 + seed * 29 + (i >> 8));
    return bytes;
}

void expect(bool condition, const std::string& what) {
    if (condition) return;
    ++g_failed_expectations;
    std::fprintf(stderr, "warpcrypt-ctgrind: wrong result: %s\n", what.c_str());
}

int failed_expectations() { return g_failed_expectations; }

}  // namespace warp::ct
