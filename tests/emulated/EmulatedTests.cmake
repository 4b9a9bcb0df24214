# The engine's tests on emulated x86 CPUs (included by tests/CMakeLists.txt in the emulated
# preset): warpcrypt-tests linked static and non-PIE, run by run_emulated.py (bochscpu-python
# 0.4.0 from build/emulated-venv, which scripts/deps.sh emulated makes), one CTest entry per CPU
# model, each with the tests that model is for and what its dispatch must pick:
#   sapphire_rapids   AVX-512 with VAES, VPCLMULQDQ and IFMA: the x86-avx512 kernels (AES-GCM
#                     and ChaCha20-Poly1305) through every vector file, the ACVP suites
#                     (in-process: a test cannot start the harness program here) and every
#                     differential test, and the IFMA MAC at its extremes, natively impossible
#                     on a CPU without them; and `auto` picking them
#   corei7_skylake_x  AVX-512 without VAES or IFMA: x86-avx512 and x86-vaes must refuse to
#                     run, and `auto` falls back to AES-NI and AVX2 (a wrong pick is a #UD, the
#                     test fails)
#   ryzen             AVX2 without AVX-512 (Zen 1): the same fallback
# The AVX-512 model runs only the x86-avx512 cases: the other backends run natively in every
# build, and emulated AES is about a thousand times slower than the hardware.
target_link_options(warpcrypt-tests PRIVATE -no-pie)
set(WARPCRYPT_EMULATION_PYTHON "${PROJECT_SOURCE_DIR}/build/emulated-venv/bin/python3"
    CACHE FILEPATH "The python with bochscpu-python 0.4.0 (scripts/deps.sh emulated)")
set(runner ${CMAKE_CURRENT_LIST_DIR}/run_emulated.py)
set(dispatch_tests "EmulatedCpu.*:Registry*:Dispatch*:CpuFeatures*")

function(emulated_cpu_test model filter aes_gcm chacha unusable)
  add_test(NAME emulated-${model}
    COMMAND ${WARPCRYPT_EMULATION_PYTHON} ${runner} --model ${model} --timeout 1500
            $<TARGET_FILE:warpcrypt-tests> --gtest_filter=${filter})
  set_tests_properties(emulated-${model} PROPERTIES TIMEOUT 1800 LABELS emulated
    ENVIRONMENT "WARPCRYPT_EXPECT_AES_GCM=${aes_gcm};WARPCRYPT_EXPECT_CHACHA20_POLY1305=${chacha};WARPCRYPT_EXPECT_UNUSABLE=${unusable}")
endfunction()

emulated_cpu_test(sapphire_rapids
  "${dispatch_tests}:Backends/*x86_avx512*:Differential/*x86_avx512*:Vectors/*x86_avx512*:AcvpFiles.*:Acvp/*InProcess*x86_avx512*:X86Poly1305.*"
  x86-avx512 x86-avx512 "")
emulated_cpu_test(corei7_skylake_x "${dispatch_tests}" x86-aesni x86-avx2 "x86-avx512,x86-vaes")
emulated_cpu_test(ryzen "${dispatch_tests}" x86-aesni x86-avx2 "x86-avx512,x86-vaes")
