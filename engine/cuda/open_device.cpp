// Opening the GPU (cuda.hpp: open_device, device_info). CUDA builds only; absent.cpp answers
// the same questions in builds without the toolkit. Whether a driver seems present at all is
// the registry's cheap file check (CpuFeatures::cuda_driver); this is the late, real question.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <mutex>
#include <string>

#include "engine/cuda/cuda.hpp"
#include "engine/cuda/cuda_status.hpp"
#include "engine/cuda/device/ecb_phases.hpp"
#include "engine/cuda/device/gcm_phases.hpp"

namespace warp::cuda {
namespace {

// This build carries sm_90 machine code and compute_90 PTX (engine/cuda/CMakeLists.txt), so
// any device of compute capability 9.0 or newer can run it (newer ones JIT the PTX).
constexpr int kMinComputeMajor = 9;

// The shared memory one thread block of the kernels takes: kernels.cu launches each kernel
// with its phase struct as dynamic shared memory.
constexpr std::size_t kKernelSharedBytes =
    std::max({sizeof(device::GcmShared), sizeof(device::EcbEncryptShared),
              sizeof(device::EcbDecryptShared)});

// How the driver splits a call (driver.cpp): slices of at most kSliceBytes of input, rotated
// over kStreams streams, each with its own pinned and device buffers.
// - A quarter of a pipeline batch (kPreferredBatchBytes), 2 MiB: a batch then makes 4 slices,
//   so within one call the first slice's kernel and copies run while the host packs the next
//   ones, and only the last slice's copy back and kernel are exposed (~40 + ~40 us). At PCIe
//   5.0 x16 (~50 GB/s pinned) a 2 MiB copy takes ~40 us, several times the ~2-5 us that a
//   copy, a launch or an event costs the host, and the host's own packing and unpacking of
//   the slice (two memory copies, ~300 us) dwarfs both. At 64 KiB chunks a slice is 32
//   thread blocks, which should take the kernel less time than the copies (estimated, not
//   yet measured: warpcrypt-gpu-bench's (c) at 1 and 16 MiB says).
// - 3 streams: one slice being copied in, one in the kernel, one being copied out at the same
//   time (devices of compute 9.0 have separate copy engines for each direction), while the
//   calling thread packs the next slice. More lanes would only add pinned memory: the host's
//   packing and unpacking is the limit then.
constexpr std::size_t kSliceBytes = kPreferredBatchBytes / 4;
constexpr unsigned kStreams = 3;

std::string version_text(int version) {  // 13000 -> "13.0"
    return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

std::string gib_text(std::size_t bytes) {
    char text[32];
    std::snprintf(text, sizeof text, "%.0f GiB", static_cast<double>(bytes) / double(1u << 30));
    return text;
}

// Why the runtime could not start, with what to do about the two common cases: no driver
// library at all (the runtime then says "insufficient driver" too), and a driver older than
// the runtime this build links statically.
std::string runtime_failure(cudaError_t status) {
    std::string reason = "no CUDA device: " + describe(status);
    if (status == cudaErrorInsufficientDriver) {
        int driver = 0;
        int runtime = 0;
        (void)cudaDriverGetVersion(&driver);
        (void)cudaRuntimeGetVersion(&runtime);
        if (driver == 0)
            reason += " (no NVIDIA driver library, libcuda.so.1, could be loaded)";
        else
            reason += " (the driver supports CUDA " + version_text(driver) + ", this build needs " +
                      version_text(runtime) + ": update the NVIDIA driver)";
    }
    return reason;
}

struct Opened {
    DeviceCheck check;
    DeviceInfo info;
};

Opened open_now() {
    Opened opened;
    int count = 0;
    if (const cudaError_t s = cudaGetDeviceCount(&count); s != cudaSuccess) {
        opened.check = {false, runtime_failure(s)};
        return opened;
    }
    if (count == 0) {
        opened.check = {false, "no CUDA device: the driver reports none"};
        return opened;
    }
    cudaDeviceProp props{};
    if (const cudaError_t s = cudaGetDeviceProperties(&props, 0); s != cudaSuccess) {
        opened.check = {false, "CUDA device 0 cannot be queried: " + describe(s)};
        return opened;
    }
    const std::string name = props.name;
    opened.check = check_device(name, props.major, props.minor, props.sharedMemPerBlockOptin);
    if (!opened.check.usable) return opened;
    // Device 0 is every thread's default device; setting it and freeing nothing creates the
    // primary context now, so a device that cannot be used fails here, not inside a batch.
    if (const cudaError_t s = cudaSetDevice(0); s != cudaSuccess) {
        opened.check = {false, "CUDA device 0 (" + name + ") cannot be selected: " + describe(s)};
        return opened;
    }
    if (const cudaError_t s = cudaFree(nullptr); s != cudaSuccess) {
        opened.check = {false, "CUDA device 0 (" + name + ") cannot be opened: " + describe(s)};
        return opened;
    }
    opened.info.name = name;
    opened.info.compute_major = props.major;
    opened.info.compute_minor = props.minor;
    opened.info.multiprocessors = props.multiProcessorCount;
    opened.info.global_memory = props.totalGlobalMem;
    opened.info.slice_bytes = kSliceBytes;
    opened.info.streams = kStreams;
    opened.check = {true, name + " (compute " + std::to_string(props.major) + "." +
                              std::to_string(props.minor) + ", " +
                              std::to_string(props.multiProcessorCount) + " SMs, " +
                              gib_text(props.totalGlobalMem) + ")"};
    return opened;
}

const Opened& opened() {
    static Opened result;
    static std::once_flag once;
    std::call_once(once, [] { result = open_now(); });
    return result;
}

}  // namespace

DeviceCheck check_device(const std::string& name, int compute_major, int compute_minor,
                         std::size_t shared_per_block) {
    const std::string device = "CUDA device 0 (" + name + ")";
    if (compute_major < kMinComputeMajor)
        return {false, device + " has compute capability " + std::to_string(compute_major) + "." +
                           std::to_string(compute_minor) +
                           "; this build runs on 9.0 or newer (sm_90 code, compute_90 PTX)"};
    if (shared_per_block < kKernelSharedBytes)
        return {false, device + " allows a thread block " + std::to_string(shared_per_block) +
                           " bytes of shared memory; the AES kernels' lane-replicated tables need " +
                           std::to_string(kKernelSharedBytes) + " (an H100, H200 or B200 class GPU)"};
    return {true, name};
}

DeviceCheck open_device() { return opened().check; }

const DeviceInfo& device_info() { return opened().info; }

}  // namespace warp::cuda
