// Batch buffers placed for the kernel's copies.
//
// read(2) and write(2) of a regular file copy between the page cache and the caller's buffer
// with `rep movsb`, which on AMD Zen 3 runs at a third of its speed when the destination lies
// 1 to 31 bytes past the source modulo 4096 (4K aliasing; reading 1 GiB from tmpfs took
// 0.26 s of system time into a buffer at the file's alignment, 0.85 s into one 16 bytes past
// it; measured 2026-12-01, docs/measurements/bench-age-2026-12-01.md, run 4). A buffer from malloc
// starts 16 bytes into its page, and formats put headers of any length before their payload, so
// without care most batches fall in that window: the pipeline's reads for sealing, all of
// them, did. Placing the data at an address congruent to its file offset modulo 64 keeps
// source and destination a multiple of 64 bytes apart, which is full speed on every CPU.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>

#include "engine/secure_memory.hpp"

namespace warp::stream {

inline constexpr std::size_t kPlacementModulus = 64;

// `capacity` bytes of data, placeable at any of kPlacementModulus offsets. Left uninitialised:
// pages are touched only when used. What mark_used recorded is wiped on destruction (it may be
// plaintext). The allocation is whole pages of its own, so that a device backend can pin it
// (AeadImpl::pin_buffer: page-locking works on whole pages, and two buffers sharing a page
// could not both be pinned).
class PlacedBuffer {
public:
    // Bytes allocated beyond the capacity: up to 63 for the placement (the base is a page).
    static constexpr std::size_t kSlack = kPlacementModulus;
    static constexpr std::size_t kPageBytes = 4096;

    explicit PlacedBuffer(std::size_t capacity)
        : storage_(allocate_pages(capacity + kSlack)), capacity_(capacity) {}
    ~PlacedBuffer() { secure_wipe(base(), touched_); }
    PlacedBuffer(const PlacedBuffer&) = delete;
    PlacedBuffer& operator=(const PlacedBuffer&) = delete;

    // Moves the data's start to the address congruent to `file_offset` (modulo 64) and
    // returns it. What was there before is not carried over.
    std::uint8_t* place(std::uint64_t file_offset) noexcept {
        shift_ = static_cast<std::size_t>(file_offset % kPlacementModulus);
        return data();
    }
    std::uint8_t* data() const noexcept { return base() + shift_; }

    // Records that `bytes` from data() hold data, to be wiped on destruction.
    void mark_used(std::size_t bytes) noexcept {
        if (shift_ + bytes > touched_) touched_ = shift_ + bytes;
    }
    // The start of the allocation: every mark_used range lies in [base(), base() + touched()).
    std::uint8_t* base() const noexcept { return storage_.get(); }
    // The whole pages from base() the buffer owns, for AeadKey's pin_buffer (chunk_pipeline.cpp).
    std::size_t allocation_bytes() const noexcept { return round_to_pages(capacity_ + kSlack); }
    std::size_t touched() const noexcept { return touched_; }

private:
    struct FreePages {
        void operator()(std::uint8_t* p) const noexcept {
            ::operator delete[](p, std::align_val_t{kPageBytes});
        }
    };
    static constexpr std::size_t round_to_pages(std::size_t n) noexcept {
        return (n + kPageBytes - 1) / kPageBytes * kPageBytes;
    }
    static std::uint8_t* allocate_pages(std::size_t n) {
        return static_cast<std::uint8_t*>(
            ::operator new[](round_to_pages(n), std::align_val_t{kPageBytes}));
    }

    std::unique_ptr<std::uint8_t, FreePages> storage_;
    std::size_t capacity_;
    std::size_t shift_ = 0;
    std::size_t touched_ = 0;
};

}  // namespace warp::stream
