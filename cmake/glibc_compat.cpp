// Linked into every program of a WARPCRYPT_STATIC_DEPS build (top-level CMakeLists.txt), whose
// binaries must start on older glibc than the build machine's (scripts/gpu-bundle.sh carries
// them to a GPU machine of unknown distribution).
//
// The static libstdc++ of GCC 12 built on glibc 2.36 calls arc4random (new in glibc 2.36) for
// std::random_device, which would make every program need glibc 2.36. Defined here, in the
// program, the reference binds to this definition instead: getrandom(2) (glibc 2.25), the same
// kernel source glibc's own arc4random reads. Without a working getrandom there is no safe
// answer, so the program stops rather than return predictable numbers.
#include <errno.h>
#include <stdlib.h>
#include <sys/random.h>

#include <cstddef>
#include <cstdint>

extern "C" std::uint32_t arc4random(void) noexcept {
    std::uint32_t value = 0;
    auto* bytes = reinterpret_cast<unsigned char*>(&value);
    std::size_t got = 0;
    while (got < sizeof value) {
        const ssize_t n = getrandom(bytes + got, sizeof value - got, 0);
        if (n < 0) {
            if (errno == EINTR) continue;
            abort();
        }
        got += static_cast<std::size_t>(n);
    }
    return value;
}
