// Caller memory pinned for direct transfers (AeadImpl::pin_buffer of the cuda backend): the
// pipeline's batch buffers, page-locked with cudaHostRegister for as long as the pipeline
// lives. The driver asks, per slice, whether every chunk's input and output lie in such memory;
// if so the copies to and from the device use the chunks' own bytes (driver.cpp), else the
// slice goes through the lane's staging buffers. CUDA builds only.
#pragma once

#include <cstddef>

namespace warp::cuda {

// cudaHostRegister(p, n); false (and nothing registered) where the device is unusable or the
// runtime refuses (memory it cannot lock, a range already registered): the caller then goes
// on with staging. Thread-safe.
bool pin_host_buffer(void* p, std::size_t n);
// cudaHostUnregister of a buffer pin_host_buffer(p, n) took. Thread-safe.
void unpin_host_buffer(void* p);
// Whether [p, p + n) lies in one buffer pinned here (n == 0: always true).
bool is_pinned_host(const void* p, std::size_t n);

}  // namespace warp::cuda
