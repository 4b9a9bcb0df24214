# Cross build for 64-bit ARM Linux with Debian's cross compiler (g++-aarch64-linux-gnu), the
# target's libraries from Debian's multiarch packages (libsodium-dev:arm64, libxxhash-dev:arm64,
# libgtest-dev:arm64, libssl-dev:arm64) and the header-only ones (CLI11, nlohmann-json) from the
# build machine. Tests and tools run under qemu-user (qemu-aarch64), which CTest prefixes to
# every test command and gtest_discover_tests uses to list the tests.
#
#   cmake --preset arm64 && cmake --build --preset arm64 && ctest --preset arm64
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)

set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64 -L /usr/aarch64-linux-gnu)

# The arm64 preset also sets WARPCRYPT_STATIC=ON (CMakeLists.txt says why).

# Target libraries live in the multiarch directories of the build machine's own /usr.
set(ENV{PKG_CONFIG_LIBDIR} "/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig")
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)
