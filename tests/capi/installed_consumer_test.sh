#!/usr/bin/env bash
# The library as a user installs and uses it: `cmake --install` of the build into a scratch
# prefix; consumer.c compiled as C99 with pkg-config's flags for warpcrypt (nothing from the
# source tree on its include path); then a CMake project using find_package(warpcrypt); both
# run. Usage: installed_consumer_test.sh BUILD_DIR SOURCE_DIR (tests/capi).
set -euo pipefail
build=$1
here=$(cd "$2" && pwd)
scratch=$(mktemp -d "${TMPDIR:-/tmp}/warpcrypt-consumer.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
prefix=$scratch/prefix

cmake --install "$build" --prefix "$prefix" >/dev/null
libdir=$(dirname "$(find "$prefix" -name warpcrypt.pc -print -quit)")
libdir=${libdir%/pkgconfig}
export PKG_CONFIG_PATH=$libdir/pkgconfig

# shellcheck disable=SC2046  # the flags are words
cc -std=c99 -Wall -Wextra -Werror -pedantic "$here/consumer.c" -o "$scratch/consumer" \
  $(pkg-config --cflags --libs warpcrypt)
LD_LIBRARY_PATH=$libdir "$scratch/consumer"

mkdir -p "$scratch/project"
cat > "$scratch/project/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.25)
project(consumer LANGUAGES C)
find_package(warpcrypt 0.1 REQUIRED)
add_executable(consumer $here/consumer.c)
target_link_libraries(consumer PRIVATE warpcrypt::warpcrypt)
CMAKE
cmake -S "$scratch/project" -B "$scratch/project/build" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$scratch/project/build" >/dev/null
LD_LIBRARY_PATH=$libdir "$scratch/project/build/consumer"
echo "installed-consumer: pkg-config and find_package builds both ran"
