#include "tests/support/backends_under_test.hpp"

#include "engine/cuda/cuda.hpp"

namespace warp::test {
namespace {

Availability emulator_runs_everywhere(const CpuFeatures&) {
    return {true, "the CUDA kernels emulated on the CPU (tests only)"};
}

const Backend kCudaEmulated{
    .name = "cuda-emulated",
    .summary = "AES-GCM and raw AES: the CUDA kernels' phases run on the CPU",
    .probe = &emulator_runs_everywhere,
    .open_device = nullptr,  // runs on the CPU: nothing to open
    .aes_gcm = &cuda::kAesGcmEmulated,
    .chacha20_poly1305 = nullptr,
    .aes = &cuda::kAesEmulated,
};

}  // namespace

std::vector<const Backend*> backends_under_test() {
    const auto usable = usable_backends();
    std::vector<const Backend*> list(usable.begin(), usable.end());
    list.push_back(&kCudaEmulated);
    return list;
}

const Backend& find_backend_under_test(std::string_view name) {
    if (name == kCudaEmulated.name) return kCudaEmulated;
    return find_backend(name);
}

}  // namespace warp::test
