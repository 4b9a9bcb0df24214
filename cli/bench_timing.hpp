// How `warpcrypt bench` times one cell, written once so that anything measured beside it (the
// OpenSSL reference of scripts/bench-kernels.sh, tests/bench/openssl_aead_bench.cpp) is timed
// the same way.
//
// Method: a short warm-up (caches, branch predictors, CPU frequency) that also estimates the
// cost of one call; then calls in batches sized to about a millisecond, so reading the clock
// costs nothing measurable, until the time asked for has passed. The result is the total over
// that window (the mean), as `openssl speed` reports, so the two can be compared. Time is the
// thread's CPU time (openssl speed counts user time), not the wall clock, so that other load on
// the machine, which takes the CPU away from us for a while, does not count as our time.
#pragma once

#include <time.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace warp::cli {

struct BenchTiming {
    double seconds = 0.2;          // measured CPU time per cell
    double warmup_seconds = 0.05;  // untimed calls before it (CPU time too)

    // `seconds` measured after a warm-up of a quarter of that, at most 50 ms.
    static BenchTiming for_seconds(double seconds) {
        return BenchTiming{seconds, std::min(0.05, seconds * 0.25)};
    }
};

struct BenchMeasurement {
    std::size_t bytes_per_call = 0;  // the message size (ECB: its whole 16-byte blocks)
    std::uint64_t calls = 0;
    double elapsed_seconds = 0;  // CPU time of the measuring thread

    double bytes_per_second() const {
        return static_cast<double>(bytes_per_call) * static_cast<double>(calls) / elapsed_seconds;
    }
    double ns_per_call() const { return elapsed_seconds * 1e9 / static_cast<double>(calls); }
};

// This thread's CPU time, in seconds.
inline double thread_cpu_seconds() {
    timespec now{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

// Each batch's output is folded in here, so that even with LTO the compiler must produce it.
inline volatile std::uint8_t g_bench_output_sink = 0;

// Batches last about this long: long enough that the clock reads between them (a system call
// each, well under a microsecond) are lost in the noise, short enough that the window ends
// close to the time asked for.
inline constexpr double kBenchBatchSeconds = 1e-3;

// Runs `call` (one message) for the warm-up, then in batches until timing.seconds have passed.
// `observe` runs after every batch and returns a byte of the output for the sink.
template <typename Call, typename Observe>
BenchMeasurement time_calls(std::size_t bytes_per_call, const BenchTiming& timing, Call&& call,
                            Observe&& observe) {
    // Warm-up batches double in length, so the clock reads in it hardly bias the estimate.
    std::uint64_t warmup_calls = 0;
    const double warmup_start = thread_cpu_seconds();
    for (std::uint64_t n = 1;; n *= 2) {
        for (std::uint64_t i = 0; i < n; ++i) call();
        warmup_calls += n;
        if (thread_cpu_seconds() - warmup_start >= timing.warmup_seconds) break;
    }
    const double seconds_per_call =
        (thread_cpu_seconds() - warmup_start) / static_cast<double>(warmup_calls);
    const auto batch = static_cast<std::uint64_t>(
        std::max(1.0, kBenchBatchSeconds / std::max(seconds_per_call, 1e-12)));

    BenchMeasurement result;
    result.bytes_per_call = bytes_per_call;
    const double start = thread_cpu_seconds();
    do {
        for (std::uint64_t i = 0; i < batch; ++i) call();
        result.calls += batch;
        g_bench_output_sink = static_cast<std::uint8_t>(g_bench_output_sink ^ observe());
        result.elapsed_seconds = thread_cpu_seconds() - start;
    } while (result.elapsed_seconds < timing.seconds);
    return result;
}

}  // namespace warp::cli
