// What the fake CUDA runtime (fake_cuda_runtime.cpp) lets a test check.
#pragma once

namespace fake_cuda {

// Buffers freed (cudaFree, cudaFreeHost) that were not all zero: the driver must wipe first.
long unwiped_frees();
// Buffers allocated and not yet freed.
long live_buffers();
// Host buffers registered (cudaHostRegister) and not yet unregistered.
long registered_buffers();

// Bytes cudaMemcpyAsync was asked to move since reset_copy_tally(), by where their host side
// lay: in pinned memory the driver allocated (cudaHostAlloc: its staging buffers), in memory
// registered with cudaHostRegister, or anywhere else (pageable: never, from the driver).
struct CopyTally {
    std::size_t staged = 0;
    std::size_t registered = 0;
    std::size_t pageable = 0;
};
CopyTally copy_tally();
void reset_copy_tally();

}  // namespace fake_cuda
