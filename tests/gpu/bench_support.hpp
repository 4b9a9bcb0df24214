// What the GPU benchmark (tests/gpu) measures beside the backend's tables: the PCIe copies
// alone, the kernels alone on data already on the device, and a raw round trip through
// pinned memory. Test code, CUDA builds only (part of warpcrypt-gpu-bench); plain C++ to its
// users.
//
// Every function needs an opened device (open_device() usable) and throws warp::Error with
// the CUDA error otherwise. Times are seconds of wall time on the device (CUDA events) or on
// the host (steady_clock) as each says.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "engine/cuda/kernel_api.hpp"

namespace warp::cuda::bench {

// The driver and device facts a report starts with.
struct DriverFacts {
    int driver_version = 0;   // cudaDriverGetVersion, e.g. 13000 for CUDA 13.0
    int runtime_version = 0;  // the statically linked runtime's
    std::string pci_bus_id;   // "0000:3B:00.0"
    int copy_engines = 0;     // cudaDevAttrAsyncEngineCount: 2 = H2D and D2H run together
    int memory_bus_bits = 0;
    std::size_t l2_bytes = 0;
};
DriverFacts driver_facts();

enum class Direction { host_to_device, device_to_host };

// The fastest of `repeats` synchronous cudaMemcpy calls of `bytes` between pinned host memory
// and device memory, in seconds (host clock).
double pinned_copy_seconds(Direction direction, std::size_t bytes, unsigned repeats);

// Device time of kernel launches, from CUDA events around each launch.
struct KernelTimes {
    double median_s = 0;
    double best_s = 0;
    unsigned launches = 0;
};

// launch_gcm sealing a device-resident batch: `total` bytes of random plaintext in chunks of
// `chunk_bytes` (the last one shorter if needed), 12-byte nonces, no AAD, 16-byte tags.
// Random data matters: table lookups indexed by equal bytes would hit one shared-memory bank
// and time a best case.
KernelTimes gcm_seal_kernel(const GcmKeyTables& key, std::size_t chunk_bytes, std::size_t total,
                            unsigned launches);

// launch_ecb over `bytes` (a multiple of 16) of random device-resident blocks, in place.
KernelTimes ecb_kernel(const AesKeyTables& key, bool decrypt, std::size_t bytes, unsigned launches);

// `count` round trips of one chunk of `chunk_bytes` through pinned memory on one stream:
// copy key tables, descriptor and plaintext in, seal, copy ciphertext and tag out, wait.
// Host seconds of each, in order (the caller takes the median).
std::vector<double> raw_gcm_round_trips(const GcmKeyTables& key, std::size_t chunk_bytes,
                                        unsigned count);

}  // namespace warp::cuda::bench
