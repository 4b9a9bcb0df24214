# Sanitizer and fuzzing builds. The `asan` and `fuzz` presets set these options; every flag they
# imply is spelled here, once, for every target (the libraries included, so that a bad access
# inside the engine is caught where it happens, not where a test notices it).
#
# WARPCRYPT_SANITIZE: a -fsanitize= list, e.g. "address,undefined". Recovery is off: the first
# report ends the program with a non-zero status, so a test cannot pass while a report scrolls
# by. Frame pointers stay, for whole stack traces in reports. _GLIBCXX_ASSERTIONS adds the
# bounds checks of std::vector, std::span and std::array, which AddressSanitizer cannot see when
# an index stays inside a container's capacity.
#
# WARPCRYPT_FUZZ: builds the libFuzzer targets of tests/fuzz (clang only). Every library is
# compiled with coverage instrumentation (-fsanitize=fuzzer-no-link); the targets alone link
# libFuzzer's main (tests/fuzz/CMakeLists.txt).
set(WARPCRYPT_SANITIZE "" CACHE STRING "Sanitizers for every target, e.g. address,undefined")
option(WARPCRYPT_FUZZ "Build the libFuzzer targets (tests/fuzz; needs clang)" OFF)

if(WARPCRYPT_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "WARPCRYPT_FUZZ=ON needs clang (libFuzzer): -DCMAKE_CXX_COMPILER=clang++")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()

if(WARPCRYPT_SANITIZE)
  add_compile_options(-fsanitize=${WARPCRYPT_SANITIZE} -fno-sanitize-recover=all
                      -fno-omit-frame-pointer -D_GLIBCXX_ASSERTIONS)
  add_link_options(-fsanitize=${WARPCRYPT_SANITIZE})
  # GCC 12 with ASan at -O1 reports libstdc++'s own std::regex (a std::function moved inside
  # _NFA::_M_insert_*) as maybe uninitialized: a false positive of the instrumented code, in
  # the tests that use <regex>. The default build keeps the warning.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    add_compile_options(-Wno-maybe-uninitialized)
  endif()
  # Where the asan test preset's ASAN_OPTIONS/UBSAN_OPTIONS log_path sends every report, of
  # every process (scripts/test-asan.sh fails on any file there).
  file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/sanitizer-reports)
  message(STATUS "warpcrypt: sanitizers ${WARPCRYPT_SANITIZE}")
endif()

# The GoogleTest programs and their support library are test harness, not code under test:
# they get AddressSanitizer but not UBSan, whose checks cost a third more compile time in those
# large files (the CI's budget). Everything they test keeps both: the engine, formats/, cli/
# (the warpcrypt binary the CLI tests run), warpcrypt-acvp and the fuzz targets.
function(warpcrypt_test_harness target)
  if(WARPCRYPT_SANITIZE MATCHES "undefined")
    target_compile_options(${target} PRIVATE -fno-sanitize=undefined)
  endif()
endfunction()
