// A small blocking queue between two stages of the chunk pipeline (free batches -> reader ->
// workers). It holds pointers to batches; its capacity is the number of batches in flight, so
// it never blocks on push, and a ring allocated once serves: nothing is allocated as batches
// pass. Any number of threads may push and pop.
// close() says "no more batches"; abandon() says "stop now" when a stage fails.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <vector>

namespace warp::stream {

template <typename T>
class BatchQueue {
public:
    explicit BatchQueue(std::size_t capacity) : items_(capacity, nullptr) {}

    // Returns false (and drops `item`) once the queue is closed. The owner never has more
    // items than the capacity, so a full queue is a bug, reported the same way.
    bool push(T* item) {
        {
            std::lock_guard lock(mutex_);
            if (closed_ || size_ == items_.size()) return false;
            items_[(head_ + size_++) % items_.size()] = item;
        }
        ready_.notify_one();
        return true;
    }

    // The next item, or nullptr once the queue is closed and, unless `abandon`, drained.
    T* pop() {
        std::unique_lock lock(mutex_);
        ready_.wait(lock, [&] { return size_ != 0 || closed_; });
        if (size_ == 0 || abandoned_) return nullptr;
        T* item = items_[head_];
        head_ = (head_ + 1) % items_.size();
        --size_;
        return item;
    }

    // No more pushes; pops drain what is queued, then return nullptr.
    void close() {
        {
            std::lock_guard lock(mutex_);
            closed_ = true;
        }
        ready_.notify_all();
    }

    // No more pushes, and pops return nullptr at once: a stage failed.
    void abandon() {
        {
            std::lock_guard lock(mutex_);
            closed_ = abandoned_ = true;
        }
        ready_.notify_all();
    }

private:
    std::mutex mutex_;
    std::condition_variable ready_;
    std::vector<T*> items_;
    std::size_t head_ = 0;
    std::size_t size_ = 0;
    bool closed_ = false;
    bool abandoned_ = false;
};

}  // namespace warp::stream
