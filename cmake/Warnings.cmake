# One place for compiler warnings: every warpcrypt target calls warpcrypt_warnings().
function(warpcrypt_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion>)
endfunction()

# Debug information without GCC's variable tracking, for code whose build time it dominates:
# the same machine code (var-tracking only decides where the debugger finds each variable), and
# line tables and types as before. Measured 2026-12-04 (2 cores, g++ 12, -O2 -g):
# engine/cuda/emulator.cpp 38 s -> 10 s, CLI11's unity group 22 s -> 16 s, a CLI test file at
# -Og 6.7 s -> 5.1 s. Clang has no such pass.
set(WARPCRYPT_LEAN_DEBUG_INFO $<$<CXX_COMPILER_ID:GNU>:-fno-var-tracking>)
function(warpcrypt_lean_debug_info target)
  target_compile_options(${target} PRIVATE ${WARPCRYPT_LEAN_DEBUG_INFO})
endfunction()
