// The turn-taking scheduler alone (engine/stream/batches_in_turns.hpp), with stub stages that
// record what ran when: reads happen one at a time and in order, observations and commits too,
// every batch is observed and committed exactly once, processing does overlap, an observer that
// closes after a failed batch sees no later one, and a stop or an exception from any stage ends
// every thread with nothing committed after it.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include "engine/stream/batches_in_turns.hpp"

namespace warp::stream {
namespace {

struct StubBatch {
    std::uint64_t seq = 0;
    bool last = false;
    std::uint64_t content = 0;  // what read() put here: the number of the read
};

// Stages over an input of `batches` batches. Each checks that no other thread is inside the
// same serial stage and records the order of reads and commits.
struct Stages {
    explicit Stages(std::uint64_t input_batches) : batches(input_batches) {}

    std::uint64_t batches;
    std::atomic<int> reading{0}, observing{0}, committing{0}, processing{0};
    std::atomic<int> most_processing{0};
    std::atomic<bool> overlap_seen{false};
    std::mutex log_mutex;
    std::vector<std::uint64_t> read_order, observe_order, commit_order;
    std::uint64_t reads = 0;

    bool read(StubBatch& batch) {
        if (reading.fetch_add(1) != 0) overlap_seen = true;
        batch.content = reads++;
        {
            std::lock_guard lock(log_mutex);
            read_order.push_back(batch.seq);
        }
        batch.last = batch.content + 1 == batches;
        reading.fetch_sub(1);
        return !batch.last;
    }
    void process(StubBatch&) {
        const int now = processing.fetch_add(1) + 1;
        int most = most_processing.load();
        while (now > most && !most_processing.compare_exchange_weak(most, now)) {
        }
        // Long enough that other threads read and reach their processing meanwhile.
        std::this_thread::sleep_for(std::chrono::microseconds(200));
        processing.fetch_sub(1);
    }
    bool observe(StubBatch& batch) {
        if (observing.fetch_add(1) != 0) overlap_seen = true;
        {
            std::lock_guard lock(log_mutex);
            EXPECT_EQ(batch.content, batch.seq);
            observe_order.push_back(batch.seq);
        }
        observing.fetch_sub(1);
        return true;
    }
    bool commit(StubBatch& batch) {
        if (committing.fetch_add(1) != 0) overlap_seen = true;
        {
            std::lock_guard lock(log_mutex);
            // A batch is committed with what its own read put in it.
            EXPECT_EQ(batch.content, batch.seq);
            commit_order.push_back(batch.seq);
        }
        committing.fetch_sub(1);
        return true;
    }
};

// Runs `stages` on `threads` threads as the pipeline does: the caller reads batch 0 first.
template <typename Read, typename Process, typename Observe, typename Commit>
void run(unsigned threads, Read&& read, Process&& process, Observe&& observe, Commit&& commit) {
    std::vector<StubBatch> batches(threads);
    std::vector<StubBatch*> others;
    for (unsigned i = 1; i < threads; ++i) others.push_back(&batches[i]);
    batches[0].seq = 0;
    ASSERT_TRUE(read(batches[0]));
    run_in_turns(batches[0], std::span<StubBatch* const>(others), read, process, observe, commit);
}

std::vector<std::uint64_t> zero_to(std::uint64_t n) {
    std::vector<std::uint64_t> v;
    for (std::uint64_t i = 0; i < n; ++i) v.push_back(i);
    return v;
}

TEST(StreamTurns, ReadsAndCommitsAreSerialAndInOrderAndProcessingOverlaps) {
    for (unsigned threads : {2u, 3u, 8u}) {
        Stages stages(40);
        run(
            threads, [&](StubBatch& b) { return stages.read(b); },
            [&](StubBatch& b) { stages.process(b); },
            [&](StubBatch& b) { return stages.observe(b); },
            [&](StubBatch& b) { return stages.commit(b); });
        EXPECT_FALSE(stages.overlap_seen) << threads;
        EXPECT_EQ(stages.read_order, zero_to(40)) << threads;
        EXPECT_EQ(stages.observe_order, zero_to(40)) << threads;
        EXPECT_EQ(stages.commit_order, zero_to(40)) << threads;
        EXPECT_GE(stages.most_processing.load(), 2) << threads;
    }
}

TEST(StreamTurns, CommitReturningFalseStopsAtThatBatch) {
    for (unsigned threads : {2u, 5u}) {
        Stages stages(100);
        run(
            threads, [&](StubBatch& b) { return stages.read(b); },
            [&](StubBatch& b) { stages.process(b); },
            [&](StubBatch& b) { return stages.observe(b); },
            [&](StubBatch& b) { return stages.commit(b) && b.seq != 7; });
        EXPECT_EQ(stages.commit_order, zero_to(8)) << threads;
        // Threads may have read ahead, but not far: at most one batch each beyond the stop.
        EXPECT_LE(stages.read_order.size(), 8u + threads) << threads;
    }
}

TEST(StreamTurns, AnExceptionInAnyStageStopsEveryThreadAndIsRethrown) {
    for (unsigned threads : {2u, 4u}) {
        for (int stage = 0; stage < 4; ++stage) {
            Stages stages(100);
            const auto throw_at = [&](int which, const StubBatch& b) {
                if (which == stage && b.seq == 9) throw std::runtime_error("stage failed");
            };
            EXPECT_THROW(run(
                             threads,
                             [&](StubBatch& b) {
                                 throw_at(0, b);
                                 return stages.read(b);
                             },
                             [&](StubBatch& b) {
                                 throw_at(1, b);
                                 stages.process(b);
                             },
                             [&](StubBatch& b) {
                                 throw_at(2, b);
                                 return stages.observe(b);
                             },
                             [&](StubBatch& b) {
                                 throw_at(3, b);
                                 return stages.commit(b);
                             }),
                         std::runtime_error)
                << threads << " threads, stage " << stage;
            // Nothing from batch 9 on was committed, and what was, in order; a failed read or
            // process or observation may stop earlier batches still in flight (their turns run
            // ahead of the commits), a failed commit stops none.
            const std::size_t committed = stages.commit_order.size();
            EXPECT_LE(committed, 9u) << threads << " threads, stage " << stage;
            EXPECT_EQ(stages.commit_order, zero_to(committed));
            if (stage == 3) {
                EXPECT_EQ(committed, 9u) << threads << " threads";
            }
        }
    }
}

// A batch that fails is observed (what of it is released) and closes the observer: no later
// batch is shown to it, though threads may hold later batches already processed, and the run
// goes on to commit until commit says stop.
TEST(StreamTurns, AnObserverClosedByAFailedBatchSeesNoLaterOne) {
    for (unsigned threads : {2u, 4u}) {
        Stages stages(60);
        run(
            threads, [&](StubBatch& b) { return stages.read(b); },
            [&](StubBatch& b) { stages.process(b); },
            [&](StubBatch& b) { return stages.observe(b) && b.seq != 11; },
            [&](StubBatch& b) { return stages.commit(b) && b.seq != 11; });
        EXPECT_EQ(stages.observe_order, zero_to(12)) << threads;
        EXPECT_EQ(stages.commit_order, zero_to(12)) << threads;
    }
}

}  // namespace
}  // namespace warp::stream
