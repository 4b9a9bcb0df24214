// The CUDA kernels: AES-GCM over a packed batch (one thread block per chunk) and raw AES ECB
// (grid-stride), each the sequence of phases of device/gcm_phases.hpp or device/ecb_phases.hpp
// with a __syncthreads() after every phase. The arithmetic and the phases are shared with the
// CPU emulator (emulator.cpp), which the tests run against the vectors; this file adds only
// the barriers and the launch.
//
// Errors: launch_gcm and launch_ecb throw warp::Error(backend_unavailable) naming the CUDA
// error when the launch is refused (a bad configuration, no device, a sticky error of an
// earlier failure). Faults during the kernel surface at the driver's next synchronisation.
// Requirements beyond kernel_api.hpp: device pointers; ECB's in and out 16-byte aligned (the
// kernels load and store whole blocks with 128-bit accesses), as cudaMalloc'd buffers are.
#include <cuda_runtime.h>

#include <mutex>
#include <string>

#include "engine/cuda/device/ecb_phases.hpp"
#include "engine/cuda/device/gcm_phases.hpp"
#include "engine/cuda/kernel_api.hpp"
#include "engine/error.hpp"

namespace warp::cuda {
namespace {

// run(phase) for the phase sequences: this thread's part of the phase, then the barrier.
template <class Launch, class Shared>
struct DeviceBlockRun {
    const Launch& launch;
    Shared& shared;

    template <class Phase>
    __device__ void operator()(const Phase& phase) const {
        phase(launch, shared, blockIdx.x, threadIdx.x);
        __syncthreads();
    }
};

// The kernels' shared memory is the thread block's dynamic shared memory viewed as the phases'
// struct: every struct is over the 48 KiB a kernel may declare statically, and a kernel opts
// in to more with cudaFuncAttributeMaxDynamicSharedMemorySize (use_shared_memory below). The
// tables' bank layout needs only 16-byte alignment of the base: any base shifts every lane's
// bank by the same amount, so each lane still owns one bank (aes_tables.hpp).
template <class Shared>
__device__ Shared& block_shared() {
    extern __shared__ __align__(16) unsigned char dynamic_shared_memory[];
    return *reinterpret_cast<Shared*>(dynamic_shared_memory);
}

// Occupancy: a GCM thread block takes about 100 KiB of shared memory, so two fit on an
// H100/H200 multiprocessor (228 KiB); asking for two allows up to 128 registers per thread.
__global__ void __launch_bounds__(kGcmThreads, 2) gcm_kernel(const GcmLaunch launch) {
    device::GcmShared& shared = block_shared<device::GcmShared>();
    const GcmLaunch in_registers = launch;  // a reference to a parameter would force a stack copy
    device::gcm_phases(DeviceBlockRun<GcmLaunch, device::GcmShared>{in_registers, shared});
}

// After gcm_kernel, in the same stream: one thread per chunk folds a split chunk's piece sums
// into its tag (device/gcm_phases.hpp, gcm_join_pieces). A few thousand multiplications per
// batch at most, so its occupancy does not matter.
constexpr unsigned kJoinThreads = 128;

__global__ void __launch_bounds__(kJoinThreads) gcm_join_kernel(const GcmLaunch launch) {
    const std::uint32_t c = blockIdx.x * kJoinThreads + threadIdx.x;
    if (c < launch.chunk_count) device::gcm_join_pieces(launch, c);
}

// ECB: three thread blocks per multiprocessor, what 64-72 KiB of shared memory each allows
// (80 registers).
template <class Shared>
__global__ void __launch_bounds__(kEcbThreads, 3) ecb_kernel(const EcbLaunch launch) {
    Shared& shared = block_shared<Shared>();
    const EcbLaunch in_registers = launch;
    device::ecb_phases(DeviceBlockRun<EcbLaunch, Shared>{in_registers, shared});
}

void check(cudaError_t status, const char* what) {
    if (status != cudaSuccess)
        throw Error(ErrorCause::backend_unavailable,
                    std::string("CUDA: ") + what + ": " + cudaGetErrorString(status));
}

// Once per kernel (Shared names it: each kernel has its own phase struct): allows it
// sizeof(Shared) bytes of dynamic shared memory (over the default 48 KiB), and prefers the
// largest shared-memory carveout of the L1/shared array, since the kernels keep everything in
// shared memory and stream their data once: two GCM or three ECB thread blocks per
// multiprocessor instead of the fewer a default split might allow. Returns the bytes to
// launch it with.
template <class Shared, class Kernel>
std::size_t use_shared_memory(Kernel kernel) {
    static std::once_flag once;
    std::call_once(once, [&] {
        check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   static_cast<int>(sizeof(Shared))),
              "allowing the kernel its shared memory");
        check(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                   cudaSharedmemCarveoutMaxShared),
              "setting the shared-memory carveout");
    });
    return sizeof(Shared);
}

template <class Shared>
void launch_ecb_kernel(const EcbLaunch& launch, cudaStream_t s) {
    const std::size_t shared = use_shared_memory<Shared>(ecb_kernel<Shared>);
    ecb_kernel<Shared><<<device::ecb_grid_blocks(launch.blocks), kEcbThreads, shared, s>>>(launch);
}

}  // namespace

void launch_gcm(const GcmLaunch& launch, void* stream) {
    if (launch.chunk_count == 0) return;
    const std::size_t shared = use_shared_memory<device::GcmShared>(gcm_kernel);
    const cudaStream_t s = static_cast<cudaStream_t>(stream);
    gcm_kernel<<<launch.piece_count, kGcmThreads, shared, s>>>(launch);
    check(cudaGetLastError(), "launching the AES-GCM kernel");
    if (launch.piece_count == launch.chunk_count) return;  // no chunk was split
    const unsigned grid = (launch.chunk_count + kJoinThreads - 1) / kJoinThreads;
    gcm_join_kernel<<<grid, kJoinThreads, 0, s>>>(launch);
    check(cudaGetLastError(), "launching the AES-GCM join kernel");
}

void launch_ecb(const EcbLaunch& launch, void* stream) {
    if (launch.blocks == 0) return;
    const cudaStream_t s = static_cast<cudaStream_t>(stream);
    if (launch.decrypt)
        launch_ecb_kernel<device::EcbDecryptShared>(launch, s);
    else
        launch_ecb_kernel<device::EcbEncryptShared>(launch, s);
    check(cudaGetLastError(), "launching the AES ECB kernel");
}

}  // namespace warp::cuda
