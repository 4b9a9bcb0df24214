// Built instead of the driver when the CUDA toolkit is not used: the registry still lists the
// cuda backend, unavailable, with the reason, and needs no #ifdef.
#include "engine/cuda/cuda.hpp"

namespace warp::cuda {

const AeadImpl* const kAesGcm = nullptr;
const BlockCipherImpl* const kAes = nullptr;

DeviceCheck open_device() {
    return {false, "not compiled in (build with the CUDA toolkit: WARPCRYPT_CUDA=ON)"};
}

const DeviceInfo& device_info() {
    static const DeviceInfo none{};
    return none;
}

}  // namespace warp::cuda
