// warpcrypt-ctgrind: runs the scalar backend's code with its secrets marked undefined, under
// valgrind's memcheck, which reports any branch or memory index that depends on them.
//
//   valgrind --tool=memcheck --error-exitcode=1 --track-origins=yes warpcrypt-ctgrind [MODE]
//
// MODE check (the default): every case of aes_cases.cpp, chacha_cases.cpp, aead_cases.cpp and
//   cuda_host_cases.cpp.
//   Passes when memcheck reports nothing and every result was right.
// MODE leak-index, leak-branch: a negative control (leaky_controls.cpp), which memcheck must
//   report: valgrind then exits with its error code, and CTest expects exactly that failure.
//
// Outside valgrind nothing can be checked, and every mode says so and does not pass: check
// exits 2, and a control exits 0, which its CTest entry (WILL_FAIL) counts as a failure.
//
// What is secret, the one declassification, and the code left out on purpose (the x86 and ARM
// backends, the CUDA kernels and their emulator, libsodium): README.md in this folder.
#include <valgrind/valgrind.h>

#include <cstdio>
#include <cstring>
#include <exception>

#include "tests/ct/ct_support.hpp"

namespace {

using warp::ct::Case;

constexpr int kExitNotUnderValgrind = 2;
constexpr int kExitFailed = 1;

unsigned memcheck_errors() { return static_cast<unsigned>(VALGRIND_COUNT_ERRORS); }

int run_cases() {
    if (RUNNING_ON_VALGRIND == 0) {
        std::fputs("warpcrypt-ctgrind: not under valgrind, so nothing is checked; run\n"
                   "  valgrind --tool=memcheck --error-exitcode=1 --track-origins=yes "
                   "warpcrypt-ctgrind\n",
                   stderr);
        return kExitNotUnderValgrind;
    }
    std::vector<Case> cases;
    for (const auto& group : {warp::ct::aes_cases(), warp::ct::chacha_cases(),
                              warp::ct::aead_cases(), warp::ct::cuda_host_cases(),
                              warp::ct::formats_cases(), warp::ct::pq_cases()})
        cases.insert(cases.end(), group.begin(), group.end());

    int leaking = 0;
    for (const Case& c : cases) {
        const unsigned before = memcheck_errors();
        c.run();
        const unsigned reported = memcheck_errors() - before;
        leaking += reported != 0;
        std::printf("%-62s %s\n", c.name, reported == 0 ? "constant time" : "LEAKS (see above)");
        std::fflush(stdout);
    }
    const int wrong = warp::ct::failed_expectations();
    std::printf("warpcrypt-ctgrind: %zu cases, %d with memcheck reports, %d wrong results\n",
                cases.size(), leaking, wrong);
    return leaking == 0 && wrong == 0 ? 0 : kExitFailed;
}

int run_control(void (*leak)(), const char* what) {
    if (RUNNING_ON_VALGRIND == 0) {
        std::fprintf(stderr, "warpcrypt-ctgrind: not under valgrind: the control %s proves "
                             "nothing\n", what);
        return 0;
    }
    const unsigned before = memcheck_errors();
    leak();
    const bool reported = memcheck_errors() != before;
    std::printf("warpcrypt-ctgrind: negative control, %s: %s\n", what,
                reported ? "reported by memcheck, as it must be"
                         : "NOT reported: the check is blind to this leak");
    // Reported: valgrind turns the exit status into its error code, the expected failure.
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    const char* mode = argc > 1 ? argv[1] : "check";
    try {
        if (std::strcmp(mode, "check") == 0) return run_cases();
        if (std::strcmp(mode, "leak-index") == 0)
            return run_control(&warp::ct::leak_through_table_index, "table index from a key byte");
        if (std::strcmp(mode, "leak-branch") == 0)
            return run_control(&warp::ct::leak_through_branch, "branch on a key bit");
    } catch (const std::exception& error) {
        std::fprintf(stderr, "warpcrypt-ctgrind: %s\n", error.what());
        return kExitFailed;
    }
    std::fprintf(stderr, "warpcrypt-ctgrind: unknown mode '%s' (check, leak-index, leak-branch)\n",
                 mode);
    return kExitNotUnderValgrind;
}
