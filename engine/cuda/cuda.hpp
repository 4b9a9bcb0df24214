// The CUDA backend (engine/cuda/): AES-GCM and raw AES on an NVIDIA GPU.
//
// The tables are null in builds without the CUDA toolkit (absent.cpp), so the registry lists
// the backend everywhere and says why it cannot run. Nothing here touches the CUDA runtime
// until open_device() is called: the registry calls it only when `--backend cuda` is asked for
// or when `auto` would pick the GPU for the input's size (docs/design.md, "Backends": no start-up
// cost for runs the GPU would lose).
#pragma once

#include <cstddef>
#include <string>

#include "engine/aead.hpp"
#include "engine/block_cipher.hpp"

namespace warp::cuda {

extern const AeadImpl* const kAesGcm;        // driver.cpp; null without CUDA
extern const BlockCipherImpl* const kAes;    // driver.cpp; null without CUDA

// The same algorithms run by the CPU emulator of the kernels (emulator.cpp): every build has
// them; tests use them as a backend so the GPU algorithm meets the same vectors and
// differential tests as the CPU backends. Not offered to users (slow, table-based on the CPU).
extern const AeadImpl kAesGcmEmulated;
extern const BlockCipherImpl kAesEmulated;

struct DeviceCheck {
    bool usable = false;
    std::string reason;  // one line: the device's name, or why there is none
};

// Initialises the CUDA runtime and picks device 0, once per process (thread-safe; later calls
// return the first answer). Fails with the reason when there is no driver, no device or the
// device cannot run this build's code (check_device).
DeviceCheck open_device();

// Whether a device with these properties can run this build's kernels: compute capability 9.0
// or newer (sm_90 code, compute_90 PTX) and at least the shared memory per thread block the
// kernels take (cudaDeviceProp::sharedMemPerBlockOptin; their lane-replicated tables, about
// 100 KiB for GCM: an H100, H200 or B200 allows 227 KiB, a GeForce RTX 50 series 99 KiB).
// The reason names the device. open_device() applies it; the tests try other devices on it.
DeviceCheck check_device(const std::string& name, int compute_major, int compute_minor,
                         std::size_t shared_per_block);

// What the driver uses on the opened device; valid after open_device() succeeded.
struct DeviceInfo {
    std::string name;
    int compute_major = 0;
    int compute_minor = 0;
    int multiprocessors = 0;
    std::size_t global_memory = 0;
    std::size_t slice_bytes = 0;  // bytes of input per launch (the driver splits calls into slices)
    unsigned streams = 0;         // streams the slices rotate over
};
const DeviceInfo& device_info();

// Bytes a pipeline batch should hold for this backend (large enough to hide launch and
// transfer latency behind the slices in flight).
inline constexpr std::size_t kPreferredBatchBytes = std::size_t{8} << 20;

}  // namespace warp::cuda
