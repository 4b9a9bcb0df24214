// What the fake CUDA runtime (fake_cuda_runtime.cpp) lets a test check.
#pragma once

namespace fake_cuda {

// Buffers freed (cudaFree, cudaFreeHost) that were not all zero: the driver must wipe first.
long unwiped_frees();
// Buffers allocated and not yet freed.
long live_buffers();

}  // namespace fake_cuda
