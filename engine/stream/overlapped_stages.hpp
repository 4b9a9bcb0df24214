// Batches through read -> process -> commit, overlapped: a reader thread fills batches in
// order, `workers` threads process whole batches (any of them, in any order: chunks of
// different batches are independent), and the calling thread commits them (writes them out)
// strictly in the order they were read. A batch is the unit of work, so threads meet only
// when a batch changes hands, about once per MiB: splitting a batch between threads instead
// cost more in wake-ups than it saved on a 2-core machine (measured 2026-11-29).
//
// Stopping: the reader ends after the batch it reports as the last; commit() may end the run
// early by returning false (later batches are not committed); an exception in any stage stops
// every stage and is rethrown here once all threads have ended. Only then does run_overlapped
// return, so the caller may touch the batches again.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <span>
#include <thread>
#include <utility>
#include <vector>

#include "engine/stream/batch_queue.hpp"

namespace warp::stream {

// The order in which processed batches are committed: slot seq % capacity holds batch seq.
template <typename Batch>
class ReorderSlots {
public:
    explicit ReorderSlots(std::size_t capacity) : slots_(capacity, nullptr) {}

    void put(Batch* batch) {
        {
            std::lock_guard lock(mutex_);
            slots_[batch->seq % slots_.size()] = batch;
        }
        ready_.notify_all();
    }
    // Batch `seq` once processed, or nullptr once abandoned.
    Batch* take(std::uint64_t seq) {
        std::unique_lock lock(mutex_);
        Batch*& slot = slots_[seq % slots_.size()];
        ready_.wait(lock, [&] { return abandoned_ || (slot != nullptr && slot->seq == seq); });
        if (abandoned_) return nullptr;
        return std::exchange(slot, nullptr);
    }
    void abandon() {
        {
            std::lock_guard lock(mutex_);
            abandoned_ = true;
        }
        ready_.notify_all();
    }

private:
    std::mutex mutex_;
    std::condition_variable ready_;
    std::vector<Batch*> slots_;
    bool abandoned_ = false;
};

// `first` was read by the caller (seq 0) and is not the last batch; `spare` are the other
// batches, free; there must be at least workers + 2 of them. Batch has a `std::uint64_t seq`.
// read(batch) fills it and returns whether more may follow; process(batch) seals or opens
// it; commit(batch) writes it and returns whether to go on.
template <typename Batch, typename Read, typename Process, typename Commit>
void run_overlapped(Batch& first, std::span<Batch* const> spare, unsigned workers, Read&& read,
                    Process&& process, Commit&& commit) {
    const std::size_t batches = spare.size() + 1;
    BatchQueue<Batch> free(batches), filled(batches);
    ReorderSlots<Batch> processed(batches);
    std::mutex error_mutex;
    std::exception_ptr error;
    const auto stop_all = [&] {
        free.abandon();
        filled.abandon();
        processed.abandon();
    };
    const auto fail = [&](std::exception_ptr e) {
        {
            std::lock_guard lock(error_mutex);
            if (!error) error = e;
        }
        stop_all();
    };

    for (Batch* batch : spare) free.push(batch);
    first.seq = 0;
    filled.push(&first);

    std::vector<std::thread> threads;
    threads.reserve(workers + 1);
    try {
        threads.emplace_back([&] {
            try {
                for (std::uint64_t seq = 1;; ++seq) {
                    Batch* batch = free.pop();
                    if (batch == nullptr) return;
                    batch->seq = seq;
                    const bool more = read(*batch);
                    if (!filled.push(batch)) return;
                    if (!more) return filled.close();
                }
            } catch (...) {
                fail(std::current_exception());
            }
        });
        for (unsigned w = 0; w < workers; ++w)
            threads.emplace_back([&] {
                try {
                    while (Batch* batch = filled.pop()) {
                        process(*batch);
                        processed.put(batch);
                    }
                } catch (...) {
                    fail(std::current_exception());
                }
            });
    } catch (...) {  // a thread could not start
        fail(std::current_exception());
    }

    try {
        for (std::uint64_t seq = 0;; ++seq) {
            Batch* batch = processed.take(seq);
            if (batch == nullptr) break;
            const bool last = batch->last;
            if (!commit(*batch) || last) break;
            free.push(batch);
        }
    } catch (...) {
        fail(std::current_exception());
    }

    stop_all();  // the reader may be reading ahead, workers processing later batches
    for (std::thread& thread : threads) thread.join();
    if (error) std::rethrow_exception(error);
}

}  // namespace warp::stream
