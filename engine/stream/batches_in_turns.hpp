// Batches through read -> process -> observe -> commit on several threads, each thread carrying
// one batch of its own through all four stages: it reads the next batch of the input when its
// turn to read comes, seals or opens it, shows it to the observer when its turn to observe
// comes, and commits (writes) it when its turn to commit comes. Turns follow the input's order,
// so batches are read, observed and committed in order, each by one thread at a time;
// processing overlaps freely, and so do the three turns: one thread may observe a batch while
// another writes the one before. The observer (a format's running hash of the plaintext) has a
// turn of its own so that it is not on the writes' critical path: inside the commit turn, the
// warp format's XXH3 of every plaintext byte made its 1 GiB files 7-10% slower than age's on
// the same pipeline (docs/performance.md, "Whole files").
//
// Why not a reader thread, workers and a writer (the design until 2026-12-03): there, every
// batch crossed three cores, copied in by one, sealed by another, copied out by a third, and
// each crossing fetched the batch from a shared cache or memory. Carried by one thread, a
// batch stays in its core's cache from the kernel's copy in to the kernel's copy out. On this
// project's 2-core Zen 3, the old design took 1.33x the time to encrypt a 1 GiB age file file
// to file and 1.37x to decrypt it, timed in the same rounds
// (docs/measurements/bench-age-2026-12-03.md); pipes and /dev/null outputs ran no slower.
//
// Stopping: once a read reports the last batch, no thread reads again; commit() may end the
// run early by returning false (later batches are not committed); an exception in any stage
// stops every thread and is rethrown here once all have ended. Only then does run_in_turns
// return, so the caller may touch the batches again.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <span>
#include <thread>
#include <vector>

namespace warp::stream {

// `first` was read by the caller (seq 0) and is not the last batch; `others` hold one batch
// for each further thread (the calling thread carries `first`). Batch has a `std::uint64_t
// seq` and a `bool last`. read(batch) fills it and returns whether more may follow;
// process(batch) seals or opens it; observe(batch) shows it to the observer and returns
// whether later batches may be shown (false after a batch that failed: none after it is ever
// committed); commit(batch) writes it and returns whether to go on.
template <typename Batch, typename Read, typename Process, typename Observe, typename Commit>
void run_in_turns(Batch& first, std::span<Batch* const> others, Read&& read, Process&& process,
                  Observe&& observe, Commit&& commit) {
    std::mutex mutex;
    std::condition_variable turn_changed;
    // All guarded by `mutex`.
    bool reading = false;            // a thread is reading now
    bool input_ended = false;        // the last batch has been read
    bool stopped = false;            // finished, ended by commit, or failed: nobody goes on
    std::uint64_t next_read = 1;     // seq of the next batch to read (the caller read 0)
    std::uint64_t next_observe = 0;  // seq of the next batch to show the observer
    std::uint64_t next_commit = 0;   // seq of the next batch to commit
    std::exception_ptr error;
    // Only the thread holding the observe turn touches this (the turn passes under `mutex`).
    bool observer_closed = false;  // a batch failed: later ones are not shown

    const auto stop = [&](std::exception_ptr e) {
        {
            std::lock_guard lock(mutex);
            if (e && !error) error = e;
            stopped = true;
        }
        turn_changed.notify_all();
    };
    // Takes the read turn and reads into `batch`; false when there is nothing left to read.
    const auto read_next = [&](Batch& batch) {
        {
            std::unique_lock lock(mutex);
            turn_changed.wait(lock, [&] { return stopped || input_ended || !reading; });
            if (stopped || input_ended) return false;
            reading = true;
            batch.seq = next_read++;
        }
        const bool more = read(batch);
        {
            std::lock_guard lock(mutex);
            reading = false;
            input_ended = !more;
        }
        turn_changed.notify_all();
        return true;
    };
    // Waits until `next` (next_observe or next_commit) reaches `batch`; false when the run is
    // over instead.
    const auto wait_for_turn = [&](const std::uint64_t& next, const Batch& batch) {
        std::unique_lock lock(mutex);
        turn_changed.wait(lock, [&] { return stopped || next == batch.seq; });
        return !stopped;
    };
    // Passes the turn counted by `next` on to the following batch.
    const auto pass_turn = [&](std::uint64_t& next) {
        {
            std::lock_guard lock(mutex);
            ++next;
        }
        turn_changed.notify_all();
    };
    // Waits for `batch`'s turn to be observed, shows it (unless a batch before it failed), and
    // passes the turn on; false when the run is over.
    const auto observe_in_turn = [&](Batch& batch) {
        if (!wait_for_turn(next_observe, batch)) return false;
        observer_closed = observer_closed || !observe(batch);
        pass_turn(next_observe);
        return true;
    };
    // Waits for `batch`'s turn to commit, commits it, and passes the turn on; false when the
    // run is over.
    const auto commit_in_turn = [&](Batch& batch) {
        if (!wait_for_turn(next_commit, batch)) return false;
        // Only the thread whose turn it is gets here: commits never overlap.
        const bool last = batch.last;
        if (!commit(batch) || last) {
            stop(nullptr);
            return false;
        }
        pass_turn(next_commit);
        return true;
    };
    // Carries `batch` through turn after turn; `have_read`: it holds a batch already.
    const auto carry = [&](Batch& batch, bool have_read) {
        try {
            while (have_read || read_next(batch)) {
                have_read = false;
                process(batch);
                if (!observe_in_turn(batch) || !commit_in_turn(batch)) return;
            }
        } catch (...) {
            stop(std::current_exception());
        }
    };

    std::vector<std::thread> threads;
    threads.reserve(others.size());
    try {
        for (Batch* batch : others) threads.emplace_back([&carry, batch] { carry(*batch, false); });
    } catch (...) {  // a thread could not start: the ones that did stop at their next turn
        stop(std::current_exception());
    }
    first.seq = 0;
    carry(first, true);
    for (std::thread& thread : threads) thread.join();
    if (error) std::rethrow_exception(error);
}

}  // namespace warp::stream
