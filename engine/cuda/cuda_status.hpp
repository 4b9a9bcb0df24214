// CUDA runtime results as warp::Error: the one place the driver files turn a cudaError_t into
// the message a user sees. Internal to the CUDA builds (includes the runtime's header).
#pragma once

#include <cuda_runtime_api.h>

#include <string>

#include "engine/error.hpp"

namespace warp::cuda {

// "cudaErrorMemoryAllocation: out of memory": the enum name finds the documentation, the
// string says it in words.
inline std::string describe(cudaError_t status) {
    return std::string(cudaGetErrorName(status)) + ": " + cudaGetErrorString(status);
}

// Throws Error(backend_unavailable) naming the call that failed. A failure in the middle of a
// batch is reported the same way as a device that cannot be opened: the backend cannot run
// here, and another backend (auto, or a CPU one) can do the work.
inline void check(cudaError_t status, const char* call) {
    if (status != cudaSuccess)
        throw Error(ErrorCause::backend_unavailable,
                    std::string("cuda: ") + call + " failed: " + describe(status) +
                        " (run with --backend auto or a CPU backend)");
}

}  // namespace warp::cuda
